// The leaf pieces of a handoff package, in zod/mini so the webview validates with the same rules.
// zod/mini schemas have no methods: wrap them with `z.optional(…)`, `z._default(…)`, not `.optional()`.
import * as z from 'zod/mini';

const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

export const ReasonKindSchema = z.enum(['capability_boundary', 'specialization', 'escalation', 'load_balancing', 'end_of_session']);
export type ReasonKind = z.infer<typeof ReasonKindSchema>;

/** Relative to HEAD; `U` unmerged, `?` untracked; a type change (file ↔ symlink) is `M`. */
export const FileStatusSchema = z.enum(['A', 'M', 'D', 'R', 'C', 'U', '?']);
export type FileStatus = z.infer<typeof FileStatusSchema>;

/** A gitlink's change: `from` HEAD's commit (null: added), `to` the worktree's (null: removed); `dirty`: its own worktree has changes. */
export const SubmoduleChangeSchema = z.object({
  from: z.nullable(z.string().check(z.regex(/^[0-9a-f]{4,64}$/))),
  to: z.nullable(z.string().check(z.regex(/^[0-9a-f]{4,64}$/))),
  dirty: z._default(z.boolean(), false),
});
export type SubmoduleChange = z.infer<typeof SubmoduleChangeSchema>;

/**
 * `path` relative to the repository root as the user sees it; `added`/`deleted` from numstat against HEAD (null: binary,
 * untracked, conflicts, submodules); `xy`: git's porcelain v2 index/worktree code.
 */
export const TouchedFileSchema = z.object({
  path: z.string().check(z.minLength(1)),
  status: FileStatusSchema,
  old_path: z._default(z.nullable(z.string().check(z.minLength(1))), null),
  added: z._default(z.nullable(nonNegativeInt()), null),
  deleted: z._default(z.nullable(nonNegativeInt()), null),
  binary: z._default(z.boolean(), false),
  xy: z.optional(z.string().check(z.maxLength(2))),
  submodule: z.optional(SubmoduleChangeSchema),
});
export type TouchedFile = z.infer<typeof TouchedFileSchema>;

/** Counts parsed from a test runner's summary line. */
export const TestCountsSchema = z.object({
  passed: z.optional(nonNegativeInt()),
  failed: z.optional(nonNegativeInt()),
  skipped: z.optional(nonNegativeInt()),
});

/** `result` is never guessed: `unknown` when the source cannot tell. `source`: where the fact came from (`recorder`, `claude-code`, `user`). */
export const TestRunSchema = z.object({
  command: z.string().check(z.minLength(1)),
  cwd: z._default(z.nullable(z.string()), null),
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  result: z.enum(['passed', 'failed', 'unknown']),
  /** `exit code` (or the log's failure flag), `output` (the runner's summary), `claim` (only the agent's words: no evidence). */
  basis: z.optional(z.enum(['exit code', 'output', 'claim'])),
  counts: z.optional(TestCountsSchema),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
  started_at: z._default(z.nullable(z.string()), null),
  duration_ms: z._default(z.nullable(z.number().check(z.nonnegative())), null),
});
export type TestRun = z.infer<typeof TestRunSchema>;

/** One commit since the base: full `sha` (40 or 64 hex digits), `subject` (first line), `author`, ISO `date`. */
export const CommitSchema = z.object({
  sha: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
  subject: z.string(),
  author: z.string(),
  date: z.string(),
});
export type Commit = z.infer<typeof CommitSchema>;

export const TurnSchema = z.object({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  text: z.string(),
  time: z.optional(z.string()),
});
export type Turn = z.infer<typeof TurnSchema>;

/**
 * `depth` past `handoff.maxHandoverDepth`, or a `cycle` back to a specialist in the chain; `allowed_by`: a person's
 * `confirmation`, or `progress` (an agent's return allowed because the code changed since).
 */
export const HopGuardSchema = z.object({
  reasons: z.array(z.enum(['depth', 'cycle'])),
  max_depth: z.number().check(z.int(), z.positive()),
  confirmed: z.boolean(),
  allowed_by: z.optional(z.enum(['confirmation', 'progress'])),
});
export type HopGuard = z.infer<typeof HopGuardSchema>;

/** Sections fit-to-budget may shorten or cut (docs/DESIGN.md §4). */
export const DroppableSectionSchema = z.enum([
  'recent_turns',
  'diff_excerpt',
  'touched_files',
  'tests_run',
  'commands_run',
  'summary',
  'user_requests',
  'compaction',
  'completed',
]);
export type DroppableSection = z.infer<typeof DroppableSectionSchema>;

/** `count`: items cut (characters for the summary and compaction); `shortened`: items kept shorter; `tokens`: saved in all. */
export const DroppedSchema = z.object({
  section: DroppableSectionSchema,
  count: nonNegativeInt(),
  shortened: z.optional(nonNegativeInt()),
  tokens: nonNegativeInt(),
});
export type Dropped = z.infer<typeof DroppedSchema>;
