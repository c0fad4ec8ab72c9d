/**
 * The drafted fields of a handoff (docs/DESIGN.md §4): what the session log and git
 * already answer — the agent's plan (done and open items), the user's own requests verbatim,
 * the commands run beside tests, a summary from evidence alone — each item with where it came
 * from, so the user sees the source and edits before anything is written.
 *
 * Defined with zod's mini build, like ./fields.ts: the package schema (`schema.ts`), the
 * engine and the panel's protocol (`src/core/panel/protocol.ts`) share these shapes.
 */
import * as z from 'zod/mini';

const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

/**
 * Where a drafted item came from: `reader` is the session source that read it
 * (`claude-code`, `codex`, `recorder` …), `git` (commits, HEAD), or `evidence` (put together
 * from several, e.g. the draft summary); `file` the transcript (absolute path) or null;
 * `time` the ISO 8601 time of the event, or null when the format records none.
 */
export const ProvenanceSchema = z.object({
  reader: z.string().check(z.minLength(1)),
  file: z._default(z.nullable(z.string()), null),
  time: z._default(z.nullable(z.string()), null),
});
/** A drafted item's source. */
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * One of the user's own messages of the session, verbatim (after redaction): `text`, its ISO
 * `time` (null when the format has none) and `source` (the reader that saw it).
 */
export const UserRequestSchema = z.object({
  text: z.string().check(z.minLength(1)),
  time: z._default(z.nullable(z.string()), null),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
});
/** A user request. */
export type UserRequest = z.infer<typeof UserRequestSchema>;

/**
 * What a non-test command does, by its first words: `build`, `install`
 * (package managers), `migration` (database migrations), `deploy`, `git` (operations that
 * change history: commit, merge, rebase, reset, cherry-pick, revert, push, tag, stash), `other`.
 */
export const CommandKindSchema = z.enum(['build', 'install', 'migration', 'deploy', 'git', 'other']);
/** A command kind. */
export type CommandKind = z.infer<typeof CommandKindSchema>;

/**
 * A command run that is not a test run (test runs stay in `tests_run`), repeated runs
 * of the same command in the same folder counted once: `exit_code` and `result` of the latest
 * run (`unknown` when the log cannot tell: never guessed), `count` runs in all, `failed_count`
 * of them failed, `last_at` the latest run's ISO time.
 */
export const CommandRunSchema = z.object({
  command: z.string().check(z.minLength(1)),
  cwd: z._default(z.nullable(z.string()), null),
  kind: CommandKindSchema,
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  result: z.enum(['succeeded', 'failed', 'unknown']),
  count: z._default(z.number().check(z.int(), z.positive()), 1),
  failed_count: z._default(nonNegativeInt(), 0),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
  last_at: z._default(z.nullable(z.string()), null),
});
/** A command-run entry. */
export type CommandRun = z.infer<typeof CommandRunSchema>;

/**
 * The loss report: what the session log holds that the handoff does not carry,
 * as counts — `older_requests` (user requests beyond the token bound), `commands_beyond_cap`
 * (commands not listed), `collapsed_todos` (plan items not carried), `turns` (turns of the
 * session not in `recent_turns`). What fit-to-budget cut is the drop manifest (`dropped`).
 */
export const LeftOutSchema = z.object({
  older_requests: z._default(nonNegativeInt(), 0),
  commands_beyond_cap: z._default(nonNegativeInt(), 0),
  collapsed_todos: z._default(nonNegativeInt(), 0),
  turns: z._default(nonNegativeInt(), 0),
});
/** A loss report. */
export type LeftOut = z.infer<typeof LeftOutSchema>;

/** One drafted list item with its source; `in_progress` marks the plan item the agent was on. */
export const DraftItemSchema = z.object({
  text: z.string().check(z.minLength(1)),
  source: ProvenanceSchema,
  in_progress: z.optional(z.boolean()),
});
/** A drafted item. */
export type DraftItem = z.infer<typeof DraftItemSchema>;

/** The fields a draft fills (and the panel marks as drafted until the user edits them). */
export const DraftedFieldSchema = z.enum(['summary', 'decisions', 'failed_approaches', 'next_steps', 'blockers', 'completed', 'user_requests', 'commands_run']);
/** A drafted field's name. */
export type DraftedField = z.infer<typeof DraftedFieldSchema>;

/**
 * A draft of a handoff from evidence alone, deterministic: the same evidence gives
 * the same draft. `summary.text` is short (what was asked, what was done, where it stands);
 * `next_steps` are the in-progress plan item, then the pending ones, in plan order;
 * `completed` the done items; `user_requests` oldest first within the token bound (the latest
 * always kept); `commands_run` failures first, then newest; `left_out` the loss report.
 */
export const DraftSchema = z.object({
  summary: z.object({ text: z.string(), sources: z.array(ProvenanceSchema) }),
  decisions: z.array(DraftItemSchema),
  failed_approaches: z.array(DraftItemSchema),
  next_steps: z.array(DraftItemSchema),
  blockers: z.array(DraftItemSchema),
  completed: z.array(DraftItemSchema),
  user_requests: z.array(z.extend(UserRequestSchema, { file: z._default(z.nullable(z.string()), null) })),
  commands_run: z.array(CommandRunSchema),
  commands_run_omitted: z._default(nonNegativeInt(), 0),
  left_out: LeftOutSchema,
});
/** A draft. */
export type Draft = z.infer<typeof DraftSchema>;
