/**
 * The leaf pieces of a handoff package (docs/DESIGN.md §4) — the reason kind, a touched
 * file, a test run, a commit, a turn, a hop-guard finding, a drop-manifest entry — defined
 * once, with zod's mini build. The handoff schemas (`schema.ts`, full zod) are built from
 * these, and the panel's protocol (`src/core/panel/protocol.ts`) carries them, so the
 * webview validates what it receives with the same rules while its bundle ships zod/mini
 * without the locales (docs/ARCHITECTURE.md, the webview layer).
 *
 * zod/mini schemas have no methods: wrap them with `z.optional(…)`, `z.nullable(…)` or
 * `z._default(…)` (both builds export these) rather than `.optional()`.
 */
import * as z from 'zod/mini';

const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

/** Why the work is handed over (docs/DESIGN.md §4): `capability_boundary`, `specialization`, `escalation`, `load_balancing` or `end_of_session`. */
export const ReasonKindSchema = z.enum(['capability_boundary', 'specialization', 'escalation', 'load_balancing', 'end_of_session']);
/** One of the reason kinds, e.g. `end_of_session`. */
export type ReasonKind = z.infer<typeof ReasonKindSchema>;

/**
 * Status letter of a touched file, relative to HEAD: Added, Modified, Deleted, Renamed,
 * Copied, Unmerged (conflict), `?` untracked. A type change (file ↔ symlink) is `M`.
 */
export const FileStatusSchema = z.enum(['A', 'M', 'D', 'R', 'C', 'U', '?']);
/** A touched file's status letter. */
export type FileStatus = z.infer<typeof FileStatusSchema>;

/**
 * A submodule's change (a gitlink, mode 160000): the commit HEAD records (`from`, null for a
 * submodule added since), the commit its worktree is at now (`to`, null when removed), and
 * `dirty` when the submodule's own worktree has changes or untracked files (porcelain v2
 * `S.M.`/`S..U`). Commits are full object names, as `git diff --submodule=short` prints them.
 */
export const SubmoduleChangeSchema = z.object({
  from: z.nullable(z.string().check(z.regex(/^[0-9a-f]{4,64}$/))),
  to: z.nullable(z.string().check(z.regex(/^[0-9a-f]{4,64}$/))),
  dirty: z._default(z.boolean(), false),
});
/** A submodule's change. */
export type SubmoduleChange = z.infer<typeof SubmoduleChangeSchema>;

/**
 * One touched file (docs/DESIGN.md §4), as git reports it: `path` relative to the
 * repository root, exactly as the user sees it (UTF-8, spaces kept); `old_path` for renames
 * and copies; `added` / `deleted` line counts from numstat against HEAD (null when git
 * reports none: binary files, untracked files, conflicts); `xy` git's two-letter
 * index/worktree code from `status --porcelain=v2` (`?` for untracked); `submodule` when the
 * path is a submodule (its line counts are then null: git counts a gitlink as one line).
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
/** A touched file entry. */
export type TouchedFile = z.infer<typeof TouchedFileSchema>;

/** Counts parsed from a test runner's summary line. */
export const TestCountsSchema = z.object({
  passed: z.optional(nonNegativeInt()),
  failed: z.optional(nonNegativeInt()),
  skipped: z.optional(nonNegativeInt()),
});

/**
 * One test command that ran (docs/DESIGN.md §4). `result` comes from the exit code, or where
 * the log has none from the runner's printed summary (`basis` says which); `unknown` when the
 * source cannot tell (never guessed). `source` names where the fact came
 * from (e.g. `recorder`, `claude-code`, `user`). Times: ISO 8601; `duration_ms` in milliseconds.
 */
export const TestRunSchema = z.object({
  command: z.string().check(z.minLength(1)),
  cwd: z._default(z.nullable(z.string()), null),
  exit_code: z._default(z.nullable(z.number().check(z.int())), null),
  result: z.enum(['passed', 'failed', 'unknown']),
  /**
   * What `result` rests on: `exit code` (the command's exit code or the log's own failure flag),
   * `output` (no exit code exists: the runner's printed summary), `claim` (neither exists:
   * only the agent's words say how it ended; no evidence); absent when unknown.
   */
  basis: z.optional(z.enum(['exit code', 'output', 'claim'])),
  counts: z.optional(TestCountsSchema),
  source: z._default(z.string().check(z.minLength(1)), 'user'),
  started_at: z._default(z.nullable(z.string()), null),
  duration_ms: z._default(z.nullable(z.number().check(z.nonnegative())), null),
});
/** A test-run entry. */
export type TestRun = z.infer<typeof TestRunSchema>;

/** One commit since the base: full `sha` (40 or 64 hex digits), `subject` (first line), `author`, ISO `date`. */
export const CommitSchema = z.object({
  sha: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
  subject: z.string(),
  author: z.string(),
  date: z.string(),
});
/** A commit entry. */
export type Commit = z.infer<typeof CommitSchema>;

/** One conversation turn: who spoke (`role`), what was said (`text`), optional ISO `time`. */
export const TurnSchema = z.object({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  text: z.string(),
  time: z.optional(z.string()),
});
/** A recent turn. */
export type Turn = z.infer<typeof TurnSchema>;

/**
 * A hop-guard finding (docs/DESIGN.md §4 hop/cycle guard): the handoff goes deeper than
 * `handoff.maxHandoverDepth` (`depth`) or back to a specialist already in the chain
 * (`cycle`); `confirmed` records that the user handed over anyway; `allowed_by` what let a
 * guarded hop through: `confirmation` (a person confirmed it; absent in files written
 * before this field) or `progress` (an agent's return to a specialist the chain visited,
 * allowed because the code changed since: the progress guard).
 */
export const HopGuardSchema = z.object({
  reasons: z.array(z.enum(['depth', 'cycle'])),
  max_depth: z.number().check(z.int(), z.positive()),
  confirmed: z.boolean(),
  allowed_by: z.optional(z.enum(['confirmation', 'progress'])),
});
/** A hop-guard finding. */
export type HopGuard = z.infer<typeof HopGuardSchema>;

/** Sections fit-to-budget may shorten or cut (docs/DESIGN.md §4). */
export const DroppableSectionSchema = z.enum(['recent_turns', 'diff_excerpt', 'touched_files', 'tests_run', 'commands_run', 'summary', 'user_requests', 'compaction', 'completed']);
/** A section name fit-to-budget may shorten or cut. */
export type DroppableSection = z.infer<typeof DroppableSectionSchema>;

/**
 * One entry of the drop manifest: which `section` fit-to-budget shortened or cut, how many
 * items it cut (`count`: turns, diff lines, files, tests, command entries, summary characters,
 * user requests, characters of the agent's compaction summary or done items), how many it kept in a shorter form (`shortened`: a request or command to
 * its first line, a turn or the latest request to its head, files as paths or in folders with
 * counts, test runs grouped by command) and how many `tokens` that saved in all.
 */
export const DroppedSchema = z.object({
  section: DroppableSectionSchema,
  count: nonNegativeInt(),
  shortened: z.optional(nonNegativeInt()),
  tokens: nonNegativeInt(),
});
/** A drop-manifest entry. */
export type Dropped = z.infer<typeof DroppedSchema>;
