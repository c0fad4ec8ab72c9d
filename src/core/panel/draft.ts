// The "Hand over" panel's draft as plain data, kept in the webview state and mirrored by the host. zod/mini: the webview bundles this file.
import * as z from 'zod/mini';
import { BUDGET_PRESETS, BUDGET_PRESET_NAMES, MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_SUMMARY_CHARS, type BudgetPreset } from '../handoff/limits';
import { ReasonKindSchema, type TestRun } from '../handoff/fields';
import { CommandRunSchema, DraftedFieldSchema, UserRequestSchema } from '../handoff/draftFields';

const text = (max: number) => z.string().check(z.maxLength(max));
const bounded = <T extends z.ZodMiniType>(of: T, max: number) => z.array(of).check(z.maxLength(max));
const list = bounded(text(MAX_ITEM_CHARS), MAX_LIST_ITEMS);

/** Left-out evidence: files by path, tests by {@link testKey}, commits by sha, turns by index. */
export const ExclusionsSchema = z.object({
  // Bounds: a path (4,096 characters, Linux PATH_MAX), a test key (source, time and a command of at most 20,000), a sha (64).
  files: z._default(bounded(text(4096), 100_000), []),
  tests: z._default(bounded(text(MAX_ITEM_CHARS + 200), 100_000), []),
  commits: z._default(bounded(text(64), 100_000), []),
  turns: z._default(bounded(z.number().check(z.int(), z.nonnegative()), 10_000), []),
});
export type Exclusions = z.infer<typeof ExclusionsSchema>;

const PanelUserRequestSchema = z.extend(UserRequestSchema, { text: z.string().check(z.minLength(1), z.maxLength(MAX_ITEM_CHARS)) });
const PanelCommandRunSchema = z.extend(CommandRunSchema, {
  command: z.string().check(z.minLength(1), z.maxLength(MAX_ITEM_CHARS)),
  cwd: z._default(z.nullable(text(4096)), null),
});
/** The request's own bound of `max_context_tokens`. */
export const MAX_BUDGET_TOKENS = 10_000_000;

/** A preset name or a whole number of tokens; `default` is the setting `handoff.maxContextTokens`. */
export const PanelBudgetSchema = z.union([z.enum(BUDGET_PRESET_NAMES), z.number().check(z.int(), z.positive(), z.maximum(MAX_BUDGET_TOKENS))]);
export type PanelBudget = BudgetPreset | number;

export function budgetTokens(budget: PanelBudget, maxContextTokens: number): number {
  if (typeof budget === 'number') return budget;
  return budget === 'default' ? maxContextTokens : BUDGET_PRESETS[budget];
}

/** Thousands separators allowed; undefined unless a whole number from 1 to {@link MAX_BUDGET_TOKENS}. */
export function parseBudgetTokens(text: string): number | undefined {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (!/^\d{1,8}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= MAX_BUDGET_TOKENS ? n : undefined;
}

const fieldSet = z._default(bounded(DraftedFieldSchema, 8), []);

/**
 * `drafted` names the fields still holding the session draft's value; `edited` those the user changed, which a
 * redraft leaves alone unless the user says to replace them (./prefill.ts).
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
export type Draft = z.infer<typeof DraftSchema>;

/** `revision` rises on every edit (and when the host clears the draft), so after hiding or reloading the view the newer copy wins. */
export const RevisedDraftSchema = z.object({
  draft: DraftSchema,
  revision: z.number().check(z.int(), z.nonnegative()),
});
export type RevisedDraft = z.infer<typeof RevisedDraftSchema>;

/** What the webview saved with `setState`, maybe by an older version; undefined when it is not a draft. */
export function parseSavedDraft(raw: unknown): RevisedDraft | undefined {
  const r = RevisedDraftSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}

/** The higher revision; on a tie the webview's, written on every keystroke while the host's waits for the send debounce. */
export function newerDraft(webview: RevisedDraft | undefined, host: RevisedDraft): RevisedDraft {
  return webview && webview.revision >= host.revision ? webview : host;
}

/** "Done" first: what the session did. */
export const DRAFT_LISTS = ['completed', 'decisions', 'failed_approaches', 'next_steps', 'blockers'] as const;
export type DraftList = (typeof DRAFT_LISTS)[number];

export function emptyDraft(): Draft {
  return DraftSchema.parse({});
}

/** An empty draft need not be kept. */
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

export function addItem(items: readonly string[], text: string): string[] {
  const t = text.trim();
  return t ? [...items, t] : [...items];
}

export function removeItem(items: readonly string[], index: number): string[] {
  return items.filter((_, i) => i !== index);
}

export function editItem(items: readonly string[], index: number, text: string): string[] {
  return items.map((x, i) => (i === index ? text : x));
}

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

export function testKey(t: Pick<TestRun, 'source' | 'started_at' | 'command'>): string {
  return `${t.source}|${t.started_at ?? ''}|${t.command}`;
}

export function toggle<T>(values: readonly T[], value: T, excluded: boolean): T[] {
  const rest = values.filter((v) => v !== value);
  return excluded ? [...rest, value] : rest;
}

/** User requests and commands run go only once drafted or edited; absent, the engine reads them from the session log. */
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
