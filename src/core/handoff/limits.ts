// Size limits of handoff text, shared by the request schema, the panel's draft and the webview.

/** A handoff is a briefing, not a transcript. */
export const MAX_SUMMARY_CHARS = 200_000;
export const MAX_ITEM_CHARS = 20_000;
export const MAX_LIST_ITEMS = 1_000;
/** Topic, from, return condition …; keeps the frontmatter small. */
export const MAX_LINE_CHARS = 2_000;
export const MAX_REQUEST_CHARS = 1_000_000;

/** Like `toLocaleString('en')` for integers, without loading ICU's slow number formatting while the schemas load. Counts only: fractions group wrongly. */
export function formatCount(n: number): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Tokens of a handoff's body: small fits every section's floor; large keeps most of a long session whole. */
export const BUDGET_PRESETS = { small: 1_000, default: 3_000, large: 8_000 } as const;
export type BudgetPreset = keyof typeof BUDGET_PRESETS;
export const BUDGET_PRESET_NAMES = Object.keys(BUDGET_PRESETS) as BudgetPreset[];
