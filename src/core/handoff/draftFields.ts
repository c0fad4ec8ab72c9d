// The drafted fields of a handoff: what the session log and git already answer, each item with its source, so the user
// sees it before anything is written. zod/mini, like ./fields.ts.
import * as z from 'zod/mini';

const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

/** `reader`: the session source (`claude-code`, `recorder` …), `git`, or `evidence` (put together from several); `file`: the transcript, absolute. */
export const ProvenanceSchema = z.object({
  reader: z.string().check(z.minLength(1)),
  file: z._default(z.nullable(z.string()), null),
  time: z._default(z.nullable(z.string()), null),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** One of the user's own messages, verbatim after redaction. */
export const UserRequestSchema = z.object({
  text: z.string().check(z.minLength(1)),
  time: z._default(z.nullable(z.string()), null),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
});
export type UserRequest = z.infer<typeof UserRequestSchema>;

/** By the command's first words; `git`: operations that change history (commit, merge, rebase, reset, push …). */
export const CommandKindSchema = z.enum(['build', 'install', 'migration', 'deploy', 'git', 'other']);
export type CommandKind = z.infer<typeof CommandKindSchema>;

/** Not a test run; repeated runs in one folder counted once, `exit_code` and `result` the latest's (`unknown`: never guessed). */
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
export type CommandRun = z.infer<typeof CommandRunSchema>;

/** Counts of what the session log holds that the handoff does not carry; what fit-to-budget cut is the drop manifest instead. */
export const LeftOutSchema = z.object({
  older_requests: z._default(nonNegativeInt(), 0),
  commands_beyond_cap: z._default(nonNegativeInt(), 0),
  collapsed_todos: z._default(nonNegativeInt(), 0),
  turns: z._default(nonNegativeInt(), 0),
});
export type LeftOut = z.infer<typeof LeftOutSchema>;

/** One drafted list item with its source; `in_progress` marks the plan item the agent was on. */
export const DraftItemSchema = z.object({
  text: z.string().check(z.minLength(1)),
  source: ProvenanceSchema,
  in_progress: z.optional(z.boolean()),
});
export type DraftItem = z.infer<typeof DraftItemSchema>;

/** The fields a draft fills (and the panel marks as drafted until the user edits them). */
export const DraftedFieldSchema = z.enum(['summary', 'decisions', 'failed_approaches', 'next_steps', 'blockers', 'completed', 'user_requests', 'commands_run']);
export type DraftedField = z.infer<typeof DraftedFieldSchema>;

/** Deterministic: the same evidence gives the same draft. `next_steps`: the in-progress plan item, then pending ones; `commands_run`: failures first, then newest. */
export const SessionDraftSchema = z.object({
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
export type SessionDraft = z.infer<typeof SessionDraftSchema>;
