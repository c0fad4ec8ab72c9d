// A handover request, validated once so every entry point gets the same defaults and the same `ERROR:` messages naming the field.
import * as z from 'zod';
import {
  BUDGET_PRESETS,
  BUDGET_PRESET_NAMES,
  MAX_ITEM_CHARS,
  MAX_LINE_CHARS,
  MAX_LIST_ITEMS,
  MAX_REQUEST_CHARS,
  MAX_SUMMARY_CHARS,
  formatCount,
} from './limits';
import { composeError, type ErrorParts } from './errors';
import { issueProblem } from './issues';
import { CommandRunSchema, DraftedFieldSchema, UserRequestSchema } from './draftFields';
import { ReasonKindSchema, TestRunSchema, TokenizerNameSchema, TurnSchema, type Turn } from './schema';

export { MAX_ITEM_CHARS, MAX_LINE_CHARS, MAX_LIST_ITEMS, MAX_REQUEST_CHARS, MAX_SUMMARY_CHARS } from './limits';

/** Tokens; Agent Zero's `handover_to_specialist` default. */
export const DEFAULT_MAX_CONTEXT_TOKENS = 3000;
/** The newest are kept; Agent Zero's default. */
export const DEFAULT_INCLUDE_RECENT_TURNS = 5;
export const DEFAULT_RETURN_CONDITION = 'user_request';
/** Tokens of the user's requests kept, newest first; the latest is always kept. */
export const DEFAULT_USER_REQUEST_TOKENS = 1500;
export const DEFAULT_FROM = 'developer';

/** The request's `budget` and the agent tools' `budget` argument. */
export const BudgetPresetSchema = z.enum(BUDGET_PRESET_NAMES, { error: `must be one of: ${BUDGET_PRESET_NAMES.join(', ')}` });

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/;

/** Bidi controls, zero-width and tag characters: refused in one-line fields, which end up in file names, headings and frontmatter. */
export const INVISIBLE_CHARS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u;

const oneLine = (what: string) =>
  z
    .string()
    .trim()
    .max(MAX_LINE_CHARS, `must be at most ${formatCount(MAX_LINE_CHARS)} characters`)
    .refine((v) => !CONTROL.test(v) && !/[\r\n]/.test(v), `must be one line of text without control characters (${what})`)
    .refine((v) => !INVISIBLE_CHARS.test(v), `must not contain invisible characters (bidi controls, zero-width or tag characters) (${what}) — retype it`);

const listOfText = z
  .array(z.string().max(MAX_ITEM_CHARS, `items must be at most ${formatCount(MAX_ITEM_CHARS)} characters`))
  .max(MAX_LIST_ITEMS, `must have at most ${formatCount(MAX_LIST_ITEMS)} items`)
  .default([])
  .transform((items) => items.map((s) => s.trim()).filter((s) => s.length > 0));

/** `recent_turns` strings are the assistant's words; `fit_to_budget` trims in docs/DESIGN.md §4 order; `parent` continues a chain. */
export const HandoverRequestSchema = z
  .object({
    specialist: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    topic: z
      .string({ error: 'is required' })
      .max(200, 'must be at most 200 characters')
      .refine((v) => !INVISIBLE_CHARS.test(v), 'must not contain invisible characters (bidi controls, zero-width or tag characters) — retype it'),
    summary: z
      .string()
      .max(MAX_SUMMARY_CHARS, `must be at most ${formatCount(MAX_SUMMARY_CHARS)} characters`)
      .default(''),
    decisions: listOfText,
    failed_approaches: listOfText,
    next_steps: listOfText,
    blockers: listOfText,
    artifacts: listOfText,
    recent_turns: z
      .array(z.union([TurnSchema, z.string().transform((text) => ({ role: 'assistant' as const, text }))]))
      .max(MAX_LIST_ITEMS, `must have at most ${formatCount(MAX_LIST_ITEMS)} turns`)
      // A turn is bounded like a list item, named by its index.
      .superRefine((turns, ctx) => {
        const i = turns.findIndex((t) => t.text.length > MAX_ITEM_CHARS);
        if (i >= 0) ctx.addIssue({ code: 'custom', path: [i], message: `items must be at most ${formatCount(MAX_ITEM_CHARS)} characters` });
      })
      .default([]),
    tests_run: z
      .array(TestRunSchema)
      .max(MAX_LIST_ITEMS * 10, 'has too many entries')
      .default([]),
    /** With `draft`, an empty list is drafted from the session's plan. */
    completed: listOfText,
    /** Oldest first. Absent: taken from the session log (the newest within `handoff.userRequestTokens`, the latest always). */
    user_requests: z
      .array(z.union([UserRequestSchema, z.string().transform((text) => ({ text, time: null, source: 'user' }))]))
      .max(MAX_LIST_ITEMS, `must have at most ${formatCount(MAX_LIST_ITEMS)} requests`)
      .superRefine((requests, ctx) => {
        const i = requests.findIndex((r) => r.text.length > MAX_ITEM_CHARS);
        if (i >= 0) ctx.addIssue({ code: 'custom', path: [i], message: `items must be at most ${formatCount(MAX_ITEM_CHARS)} characters` });
      })
      .transform((requests) => requests.filter((r) => r.text.trim().length > 0))
      .optional(),
    /** Not test runs. Absent: taken from the session log (capped, failures first). */
    commands_run: z
      .array(CommandRunSchema)
      .max(MAX_LIST_ITEMS, `must have at most ${formatCount(MAX_LIST_ITEMS)} entries`)
      .optional(),
    /** Fields the caller passes still as drafted (in the panel: not edited by the user). */
    drafted: z.array(DraftedFieldSchema).max(20, 'has too many entries').default([]),
    /** Fill each draftable field left empty from the evidence's draft (src/engine/draft/evidenceDraft.ts); a field given is never replaced. */
    draft: z.boolean().default(false),
    return_condition: oneLine('when the specialist hands back').optional(),
    handover_reason: z
      .string()
      .max(MAX_LINE_CHARS * 2, `must be at most ${formatCount(MAX_LINE_CHARS * 2)} characters`)
      .default(''),
    reason_kind: z._default(ReasonKindSchema, 'end_of_session'),
    from: oneLine('who hands over').pipe(z.string().min(1, 'must not be empty')).default(DEFAULT_FROM),
    max_context_tokens: z
      .number({ error: 'must be a number' })
      .max(10_000_000, 'must be at most 10,000,000')
      .int('must be a whole number')
      .positive('must be positive')
      .default(DEFAULT_MAX_CONTEXT_TOKENS),
    include_recent_turns: z
      .number({ error: 'must be a number' })
      .max(1_000, 'must be at most 1,000')
      .int('must be a whole number')
      .nonnegative('must be 0 or more')
      .default(DEFAULT_INCLUDE_RECENT_TURNS),
    /** A preset instead of `max_context_tokens`; not both. */
    budget: BudgetPresetSchema.optional(),
    tokenizer: TokenizerNameSchema.default('o200k_base'),
    fit_to_budget: z.boolean().default(true),
    session_id: oneLine('session id').pipe(z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters')).optional(),
    /** The user's explicit "hand over anyway" when the hop guard warns (recorded in the handoff). */
    hop_guard_confirmed: z.boolean().default(false),
    /** Its id, file name or `latest`: sets parent_id, root_id, hop and chain. */
    parent: z.string().trim().min(1).max(300, 'must be at most 300 characters').optional(),
  })
  .superRefine((r, ctx) => {
    const total =
      r.summary.length +
      [r.decisions, r.failed_approaches, r.next_steps, r.blockers, r.artifacts].reduce((n, list) => n + list.reduce((m, s) => m + s.length, 0), 0) +
      r.recent_turns.reduce((n, t) => n + t.text.length, 0) +
      r.completed.reduce((n, s) => n + s.length, 0) +
      (r.user_requests ?? []).reduce((n, u) => n + u.text.length, 0);
    if (total > MAX_REQUEST_CHARS) {
      ctx.addIssue({
        code: 'custom',
        path: ['summary'],
        message: `and the other texts add up to ${formatCount(total)} characters, more than ${formatCount(MAX_REQUEST_CHARS)} — put long material in a file and list it as an artifact`,
      });
    }
  });

export type HandoverRequestInput = z.input<typeof HandoverRequestSchema>;
export type HandoverRequest = z.output<typeof HandoverRequestSchema>;

/** The error carries its parts, so each surface can name the field its own way. */
export type RequestParse = { ok: true; request: HandoverRequest } | { ok: false; message: string; field: string; parts: ErrorParts };

/** How a list item's length message begins: "decisions.0 items must be at most …". */
const ITEM_MESSAGE_START = 'items ';

/** An item of a text list gets the subject `"<list>.<n> items"`, as its length message reads. */
export function issueParts(issuePath: ReadonlyArray<PropertyKey>, message: string): ErrorParts & { readonly path: Array<string | number> } {
  const pathOf = issuePath.map((p) => (typeof p === 'number' ? p : String(p)));
  const dotted = pathOf.map(String).join('.') || 'request';
  const item = typeof pathOf[pathOf.length - 1] === 'number' && message.startsWith(ITEM_MESSAGE_START);
  return item
    ? { path: pathOf, subject: `${dotted} items`, problem: message.slice(ITEM_MESSAGE_START.length) }
    : { path: pathOf, subject: dotted, problem: message };
}

/** In the request's words: `is required`, `must be a string`, `must be one of: a, b`; other issues keep the schema's message. */
export function issueMessage(issue: z.core.$ZodIssue | undefined, input: unknown): string {
  return issueProblem(issue, input);
}

export function parseHandoverRequest(input: unknown): RequestParse {
  const r = HandoverRequestSchema.safeParse(input);
  if (r.success) {
    if (r.data.budget === undefined) return { ok: true, request: r.data };
    // A preset stands for a number: never both, so neither silently wins.
    if ((input as { max_context_tokens?: unknown }).max_context_tokens !== undefined) {
      const parts = {
        path: ['budget'],
        subject: 'budget',
        problem: `and max_context_tokens are both given`,
        fix: `give one of them: a preset (${BUDGET_PRESET_NAMES.join(', ')}) or a number of tokens`,
      };
      return { ok: false, message: composeError(parts), field: 'budget', parts };
    }
    return { ok: true, request: { ...r.data, max_context_tokens: BUDGET_PRESETS[r.data.budget] } };
  }
  const issue = r.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'request';
  const parts = issueParts(issue?.path ?? [], issueMessage(issue, input));
  return { ok: false, message: composeError(parts), field, parts };
}

/**
 * Keeps the newest `n` turns, oldest first, fairly between roles: each role keeps its newest `max(1, floor(n / roles))`,
 * so the user's one request is not pushed out by five assistant messages.
 */
export function trimRecentTurns<T>(turns: readonly T[], n: number): T[] {
  if (n <= 0) {
    return [];
  }
  if (turns.length <= n) {
    return turns.slice();
  }
  const roleOf = (t: T): string | undefined =>
    t && typeof t === 'object' && typeof (t as { role?: unknown }).role === 'string' ? (t as unknown as { role: string }).role : undefined;
  const byRole = new Map<string, number[]>();
  for (let i = turns.length - 1; i >= 0; i--) {
    const role = roleOf(turns[i]);
    if (role !== undefined) byRole.set(role, [...(byRole.get(role) ?? []), i]);
  }
  const keep = new Set<number>();
  if (byRole.size > 1) {
    const quota = Math.max(1, Math.floor(n / byRole.size));
    // Roles in the order of their newest turn, newest first (Map keeps insertion order).
    for (const newestFirst of byRole.values()) {
      for (const i of newestFirst.slice(0, quota)) if (keep.size < n) keep.add(i);
    }
  }
  for (let i = turns.length - 1; i >= 0 && keep.size < n; i--) keep.add(i);
  return [...keep].sort((a, b) => a - b).map((i) => turns[i]);
}

/** `"ROLE: text"` (user, assistant, system, tool, any case); without a known prefix, the assistant's words whole. */
export function parseTurn(raw: string): Turn {
  const m = /^\s*(user|assistant|system|tool)\s*:\s*([\s\S]*)$/i.exec(raw);
  if (m) {
    return { role: m[1].toLowerCase() as Turn['role'], text: m[2] };
  }
  return { role: 'assistant', text: raw };
}
