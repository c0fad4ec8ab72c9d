/**
 * The draft of the "Hand over" panel: what the user has typed and chosen, as plain data.
 * The webview keeps it in its state (so hiding and reloading lose nothing) and sends it
 * to the host, which holds the same model and builds the handoff request from it.
 * Its schemas use zod's mini build: the webview bundles this file (docs/ARCHITECTURE.md).
 */
import * as z from 'zod/mini';
import { BUDGET_PRESETS, BUDGET_PRESET_NAMES, MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_SUMMARY_CHARS, type BudgetPreset } from '../handoff/limits';
import { ReasonKindSchema, type TestRun } from '../handoff/fields';
import { CommandRunSchema, DraftedFieldSchema, UserRequestSchema } from '../handoff/draftFields';

/** Text of at most `max` characters. */
const text = (max: number) => z.string().check(z.maxLength(max));
/** A list of at most `max` values. */
const bounded = <T extends z.ZodMiniType>(of: T, max: number) => z.array(of).check(z.maxLength(max));
const list = bounded(text(MAX_ITEM_CHARS), MAX_LIST_ITEMS);

/**
 * Which evidence items the user left out of the package: touched files by path, tests by
 * {@link testKey}, commits by sha, recent turns by their index in the evidence.
 */
export const ExclusionsSchema = z.object({
  // Bounds: a path (4,096 characters, Linux PATH_MAX), a test key (source, time and a command of at most 20,000), a sha (64).
  files: z._default(bounded(text(4096), 100_000), []),
  tests: z._default(bounded(text(MAX_ITEM_CHARS + 200), 100_000), []),
  commits: z._default(bounded(text(64), 100_000), []),
  turns: z._default(bounded(z.number().check(z.int(), z.nonnegative()), 10_000), []),
});
/** Left-out evidence. */
export type Exclusions = z.infer<typeof ExclusionsSchema>;

/** A user request as the panel keeps it: the request's text bounded like a list item. */
const PanelUserRequestSchema = z.extend(UserRequestSchema, { text: z.string().check(z.minLength(1), z.maxLength(MAX_ITEM_CHARS)) });
/** A command run as the panel keeps it: the command bounded like a list item, the folder like a path. */
const PanelCommandRunSchema = z.extend(CommandRunSchema, { command: z.string().check(z.minLength(1), z.maxLength(MAX_ITEM_CHARS)), cwd: z._default(z.nullable(text(4096)), null) });
/** Most tokens a custom budget may name: the request's own bound of `max_context_tokens`. */
export const MAX_BUDGET_TOKENS = 10_000_000;

/**
 * The panel's token budget: a preset name, or a custom whole number of tokens (1 to
 * {@link MAX_BUDGET_TOKENS}). `default` is the setting `handoff.maxContextTokens` (3,000 unless
 * changed); `small` and `large` are the presets every surface shares ({@link BUDGET_PRESETS}).
 */
export const PanelBudgetSchema = z.union([z.enum(BUDGET_PRESET_NAMES), z.number().check(z.int(), z.positive(), z.maximum(MAX_BUDGET_TOKENS))]);
/** A budget choice of the panel. */
export type PanelBudget = BudgetPreset | number;

/** The tokens a budget choice stands for; `default` is the setting's `maxContextTokens`. */
export function budgetTokens(budget: PanelBudget, maxContextTokens: number): number {
  if (typeof budget === 'number') return budget;
  return budget === 'default' ? maxContextTokens : BUDGET_PRESETS[budget];
}

/**
 * A custom budget as typed: a whole number of tokens (thousands separators allowed), from 1 to
 * {@link MAX_BUDGET_TOKENS}; undefined when the text is not one.
 */
export function parseBudgetTokens(text: string): number | undefined {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (!/^\d{1,8}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= MAX_BUDGET_TOKENS ? n : undefined;
}

/** The drafted-field names, each at most once. */
const fieldSet = z._default(bounded(DraftedFieldSchema, 8), []);

/**
 * The panel's draft. Text fields are bounded like the request they become; `fit` says
 * the user accepted fit-to-budget; `budget` is the token budget chosen beside the meter
 * ({@link PanelBudgetSchema}); `continue_chain` continues the latest handoff's chain;
 * `hop_guard_confirmed` is the explicit confirmation the hop guard asks for.
 *
 * Issue 15: `completed` (the "Done" list), `user_requests` and `commands_run` come from the
 * session's draft; `drafted` names the fields whose value is still the draft's (marked in the
 * panel, listed in the handoff's `drafted`), `edited` the ones the user changed (a redraft
 * leaves them as they are unless the user says to replace them; see ./prefill.ts).
 */
export const DraftSchema = z.object({
  specialist: z._default(text(200), ''),
  topic: z._default(text(200), ''),
  summary: z._default(text(MAX_SUMMARY_CHARS), ''),
  decisions: z._default(list, []),
  failed_approaches: z._default(list, []),
  next_steps: z._default(list, []),
  blockers: z._default(list, []),
  completed: z._default(list, []),
  user_requests: z._default(bounded(PanelUserRequestSchema, MAX_LIST_ITEMS), []),
  commands_run: z._default(bounded(PanelCommandRunSchema, MAX_LIST_ITEMS), []),
  drafted: fieldSet,
  edited: fieldSet,
  return_condition: z._default(text(2000), ''),
  handover_reason: z._default(text(4000), ''),
  reason_kind: z._default(ReasonKindSchema, 'end_of_session'),
  continue_chain: z._default(z.boolean(), false),
  fit: z._default(z.boolean(), false),
  /** Whether the user chose `fit` (Fit to Budget, Don't Fit): a draft over its budget then no longer switches it on. */
  fit_chosen: z._default(z.boolean(), false),
  budget: z._default(PanelBudgetSchema, 'default'),
  hop_guard_confirmed: z._default(z.boolean(), false),
  excluded: z._default(ExclusionsSchema, { files: [], tests: [], commits: [], turns: [] }),
});
/** A draft. */
export type Draft = z.infer<typeof DraftSchema>;

/**
 * A draft with its revision: a counter the webview raises on every edit (and the host
 * raises when it clears the draft after a handoff). Kept in the webview state and sent
 * with every draft, so after hiding, moving or reloading the view the newer copy wins.
 */
export const RevisedDraftSchema = z.object({
  draft: DraftSchema,
  revision: z.number().check(z.int(), z.nonnegative()),
});
/** A draft and its revision. */
export type RevisedDraft = z.infer<typeof RevisedDraftSchema>;

/**
 * Reads what the webview saved with `setState` (possibly by an older version of the
 * extension, or nothing): the draft and revision, or undefined when it is not one.
 */
export function parseSavedDraft(raw: unknown): RevisedDraft | undefined {
  const r = RevisedDraftSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}

/**
 * The newer of the webview's and the host's copy of the draft: the higher revision; on a
 * tie the webview's (it is written synchronously on every keystroke, the host's only
 * after the send debounce).
 */
export function newerDraft(webview: RevisedDraft | undefined, host: RevisedDraft): RevisedDraft {
  return webview && webview.revision >= host.revision ? webview : host;
}

/** The list fields of a draft, edited as lists in the panel ("Done" first: what the session did). */
export const DRAFT_LISTS = ['completed', 'decisions', 'failed_approaches', 'next_steps', 'blockers'] as const;
/** One of the list fields. */
export type DraftList = (typeof DRAFT_LISTS)[number];

/** A new, empty draft. */
export function emptyDraft(): Draft {
  return DraftSchema.parse({});
}

/** Whether a draft holds anything the user typed or chose (an empty one need not be kept). */
export function isDraftEmpty(d: Draft): boolean {
  return (
    !d.specialist &&
    !d.topic.trim() &&
    !d.summary.trim() &&
    DRAFT_LISTS.every((k) => d[k].length === 0) &&
    d.user_requests.length === 0 &&
    d.commands_run.length === 0 &&
    !d.return_condition &&
    !d.handover_reason
  );
}

/** Adds `text` (trimmed; ignored when empty) at the end of a list. */
export function addItem(items: readonly string[], text: string): string[] {
  const t = text.trim();
  return t ? [...items, t] : [...items];
}

/** Removes the item at `index` (no-op when out of range). */
export function removeItem(items: readonly string[], index: number): string[] {
  return items.filter((_, i) => i !== index);
}

/** Replaces the item at `index`. */
export function editItem(items: readonly string[], index: number, text: string): string[] {
  return items.map((x, i) => (i === index ? text : x));
}

/** Moves the item at `index` by `delta` (−1 up, +1 down), clamped to the list. */
export function moveItem(items: readonly string[], index: number, delta: number): string[] {
  const to = Math.max(0, Math.min(items.length - 1, index + delta));
  if (index < 0 || index >= items.length || to === index) {
    return [...items];
  }
  const out = [...items];
  const [x] = out.splice(index, 1);
  out.splice(to, 0, x);
  return out;
}

/** Stable key of a test run for exclusions: its source, start time and command. */
export function testKey(t: Pick<TestRun, 'source' | 'started_at' | 'command'>): string {
  return `${t.source}|${t.started_at ?? ''}|${t.command}`;
}

/** Toggles membership of `value` in an exclusion list. */
export function toggle<T>(values: readonly T[], value: T, excluded: boolean): T[] {
  const rest = values.filter((v) => v !== value);
  return excluded ? [...rest, value] : rest;
}

/**
 * The handover request a draft asks for (list items trimmed and empty ones dropped by
 * the request schema). The budget is the draft's choice ({@link budgetTokens}: `default` is the
 * setting), the tokenizer the setting's. `drafted` lists the
 * fields still as drafted that hold something (the handoff's `drafted`); the user
 * requests and commands run go only once the panel drafted or the user edited them (absent,
 * the engine reads them from the session log itself).
 */
export function draftToRequest(
  d: Draft,
  settings: { maxContextTokens: number; includeRecentTurns: number; tokenizer: string },
  parentId?: string,
): Record<string, unknown> {
  return {
    specialist: d.specialist,
    topic: d.topic,
    summary: d.summary,
    decisions: d.decisions,
    failed_approaches: d.failed_approaches,
    next_steps: d.next_steps,
    blockers: d.blockers,
    completed: d.completed,
    // Absent, the engine takes them from the session log; the panel's lists once drafted or edited.
    ...(d.drafted.includes('user_requests') || d.edited.includes('user_requests') ? { user_requests: d.user_requests } : {}),
    ...(d.drafted.includes('commands_run') || d.edited.includes('commands_run') ? { commands_run: d.commands_run } : {}),
    drafted: d.drafted.filter((f) => (f === 'summary' ? d.summary.trim() !== '' : d[f].length > 0)),
    ...(d.return_condition.trim() ? { return_condition: d.return_condition } : {}),
    handover_reason: d.handover_reason,
    reason_kind: d.reason_kind,
    max_context_tokens: budgetTokens(d.budget, settings.maxContextTokens),
    include_recent_turns: settings.includeRecentTurns,
    tokenizer: settings.tokenizer,
    fit_to_budget: d.fit,
    hop_guard_confirmed: d.hop_guard_confirmed,
    ...(d.continue_chain && parentId ? { parent: parentId } : {}),
  };
}
