/**
 * Size limits of handoff text (each refused with a message naming the field). Shared by
 * the request schema, the panel's draft and the webview.
 */

/** Longest summary accepted: 200,000 characters (a handoff is a briefing, not a transcript). */
export const MAX_SUMMARY_CHARS = 200_000;
/** Longest list item (decision, next step, …) accepted: 20,000 characters. */
export const MAX_ITEM_CHARS = 20_000;
/** Most items in one list: 1,000. */
export const MAX_LIST_ITEMS = 1_000;
/** Longest one-line field (topic, from, return condition …): 2,000 characters; keeps the frontmatter small. */
export const MAX_LINE_CHARS = 2_000;
/** Most text a request may carry in all (summary, lists, turns): 1,000,000 characters. */
export const MAX_REQUEST_CHARS = 1_000_000;

/**
 * A whole number with thousands separators (`12,345`), independent of locale: for integers
 * the same text as `n.toLocaleString('en')`, without ICU. A process's first `toLocaleString`
 * loads ICU's number formatting (slow to start), and the schemas word their limits
 * as they load (the CLI paid it before any work). Fractions are not grouped right
 * (`1234.5678` → `1,234.5,678`): pass counts.
 */
export function formatCount(n: number): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Budget presets for people and agents (`--budget small|default|large`, the panel, the agent
 * tools), in tokens of a handoff's body: small fits the floor of every section (docs/DESIGN.md
 * §4 "Fit to budget"), default is `handoff.maxContextTokens`' default, large keeps most of a long
 * session whole.
 */
export const BUDGET_PRESETS = { small: 1_000, default: 3_000, large: 8_000 } as const;
/** A budget preset's name. */
export type BudgetPreset = keyof typeof BUDGET_PRESETS;
/** The preset names, in size order. */
export const BUDGET_PRESET_NAMES = Object.keys(BUDGET_PRESETS) as BudgetPreset[];
