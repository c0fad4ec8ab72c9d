/**
 * zod schemas of the handoff package (docs/DESIGN.md §4), its frontmatter (docs/DESIGN.md §5) and the
 * result object every entry point returns (CLI `--json`, the VS Code commands, tests).
 * Field names are snake_case because they are written to files and read by other agents.
 */
import { z } from 'zod';
import { CommandRunSchema, DraftedFieldSchema, LeftOutSchema, UserRequestSchema } from './draftFields';
import type { HandoverError } from './errors';
import { ClaimCountsSchema, ClaimSchema } from '../receive/claimSchema';
import { SpecialistIdSchema } from './ids';
import {
  CommitSchema,
  DroppedSchema,
  HopGuardSchema,
  ReasonKindSchema,
  TestRunSchema,
  TouchedFileSchema,
  TurnSchema,
} from './fields';

// The leaf pieces are defined once in fields.ts (zod/mini: the panel carries them too).
export {
  CommitSchema,
  DroppableSectionSchema,
  DroppedSchema,
  FileStatusSchema,
  HopGuardSchema,
  ReasonKindSchema,
  TestCountsSchema,
  TestRunSchema,
  TouchedFileSchema,
  TurnSchema,
  type Commit,
  type DroppableSection,
  type Dropped,
  type FileStatus,
  type HopGuard,
  type ReasonKind,
  type TestRun,
  type TouchedFile,
  type Turn,
} from './fields';

/**
 * Topic slugs (docs/DESIGN.md §4): 1–64 characters of lower-case letters of any script,
 * their combining marks, digits and `-`, starting with a letter or digit, no ASCII capital
 * (`auth-refresh`, `рефакторинг`, `日本語のトピック`). Every slug written before Unicode letters
 * were kept (`^[a-z0-9][a-z0-9-]{0,63}$`) still matches. `slugifyTopic` also bounds it to 120 bytes.
 */
export const TOPIC_SLUG_PATTERN = /^(?!.*[A-Z])[\p{L}\p{N}][\p{L}\p{M}\p{N}-]{0,63}$/u;

/** Token encodings the budget can be counted in (setting `handoff.tokenizer`). */
export const TokenizerNameSchema = z.enum(['o200k_base', 'cl100k_base']);
/** A token encoding name: `o200k_base` (GPT-4o family, the default) or `cl100k_base` (GPT-4 / 3.5). */
export type TokenizerName = z.infer<typeof TokenizerNameSchema>;

/**
 * Where session-log facts came from: one entry per transcript read (the recorder, Claude
 * Code, Codex …), with the file's name and what it contributed to this handoff.
 */
export const SessionSourceSummarySchema = z.object({
  source: z.string(),
  file: z.string(),
  /** Commands seen in the transcript (reported beside those kept). */
  commands: z.number().int().nonnegative(),
  /** Commands kept for the handoff (bounded: docs/DESIGN.md §6); absent in handoffs written before it was recorded. */
  commands_kept: z.number().int().nonnegative().optional(),
  test_runs: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  edits: z.number().int().nonnegative(),
  malformed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
/** A session-source summary. */
export type SessionSourceSummary = z.infer<typeof SessionSourceSummarySchema>;

/** A file an agent edited or the user saved, per the session log. */
export const SessionEditSchema = z.object({ path: z.string(), tool: z.string(), source: z.string() });
/** A session-log edit. */
export type SessionEdit = z.infer<typeof SessionEditSchema>;

/**
 * The agent's own summary from when it compacted its conversation (docs/DESIGN.md §6
 * "Compaction"): the latest compaction of the transcripts read — `source` and `file` the
 * transcript, `time` and `trigger` (`manual`, `auto`) where the format says, `count` the
 * compactions read — and `text`, the summary as the agent wrote it (empty when the format keeps
 * none). Evidence in the agent's words: never a user request.
 */
export const CompactionSchema = z.object({
  source: z.string(),
  file: z.string().nullable(),
  time: z.string().nullable(),
  trigger: z.enum(['manual', 'auto']).nullable(),
  count: z.number().int().positive(),
  text: z.string(),
});
/** The agent's compaction summary. */
export type Compaction = z.infer<typeof CompactionSchema>;


/** A decision with its stable id (`D1`, `D2` …); `superseded_by` names a later decision id. */
export const DecisionSchema = z.object({
  id: z.string().regex(/^D\d+$/),
  text: z.string().min(1),
  superseded_by: z.string().optional(),
});
/** A decision entry. */
export type Decision = z.infer<typeof DecisionSchema>;

/** Handoff lifecycle status (docs/DESIGN.md §5). */
export const HandoffStatusSchema = z.enum(['pending', 'accepted', 'in_progress', 'complete', 'blocked', 'partial']);
/** A handoff status. */
export type HandoffStatus = z.infer<typeof HandoffStatusSchema>;

/**
 * Whether a timeline entry hands work over (`handoff`) or hands it back (`result`: the
 * receiving specialist's answer to a handoff, linked by parent_id).
 */
export const EntryKindSchema = z.enum(['handoff', 'result']);
/** An entry kind. */
export type EntryKind = z.infer<typeof EntryKindSchema>;

/** One acceptance criterion of a result and whether it was met (docs/DESIGN.md §5 "Results and session notes"). */
export const AcceptanceCheckSchema = z.object({ criterion: z.string().trim().min(1), met: z.boolean() }).strict();
/** An acceptance check. */
export type AcceptanceCheck = z.infer<typeof AcceptanceCheckSchema>;

/**
 * One status change of a handoff file (the one in-place change allowed): the status it
 * left (`from`), the one it took (`to`), when (ISO time) and by which session.
 */
export const StatusChangeSchema = z.object({
  from: HandoffStatusSchema,
  to: HandoffStatusSchema,
  at: z.string().min(1),
  session_id: z.string().min(1),
});
/** A status change. */
export type StatusChange = z.infer<typeof StatusChangeSchema>;

/**
 * A git operation left in progress in the worktree (docs/DESIGN.md §6), read from git's own
 * state files: `merge` (`MERGE_HEAD`), `rebase` (`rebase-merge/` or `rebase-apply/`), `am`
 * (`rebase-apply/applying`), `cherry-pick` (`CHERRY_PICK_HEAD`), `revert` (`REVERT_HEAD`) or
 * `bisect` (`BISECT_START`).
 * - `commit`: what the operation works with — the commit being merged, picked or reverted,
 *   the commit a rebase goes onto, the first bad commit bisect knows; null when git keeps none.
 * - `ref`: that commit's branch or tag name when one points at it (a merge's from `MERGE_MSG`).
 * - `branch`: the branch being rebased, or where bisect started; null when none.
 * - `step` / `total`: the rebase or am step (`msgnum`/`end`, `next`/`last`); null otherwise.
 * - `subject`: first line of the picked or reverted commit's message; null otherwise.
 */
export const GitOperationSchema = z.object({
  kind: z.enum(['merge', 'rebase', 'am', 'cherry-pick', 'revert', 'bisect']),
  commit: z.string().regex(/^[0-9a-f]{4,64}$/).nullable().default(null),
  ref: z.string().min(1).max(300).nullable().default(null),
  branch: z.string().min(1).max(300).nullable().default(null),
  step: z.number().int().nonnegative().nullable().default(null),
  total: z.number().int().nonnegative().nullable().default(null),
  subject: z.string().max(500).nullable().default(null),
});
/** A git operation in progress. */
export type GitOperation = z.infer<typeof GitOperationSchema>;

/** Git facts shared by the package and the frontmatter. */
const GIT_FIELDS = {
  base_commit: z.string().nullable(),
  head_commit: z.string().nullable(),
  branch: z.string().nullable(),
  detached: z.boolean(),
  upstream: z.string().nullable(),
  ahead: z.number().int().nonnegative().nullable(),
  behind: z.number().int().nonnegative().nullable(),
  diff_hash: z.string().nullable(),
  /** The operation in progress when the handoff was written (null: none; files written before it existed read as none). */
  git_operation: GitOperationSchema.nullable().default(null),
};

/**
 * What "nothing leaked" (docs/DESIGN.md §7, src/core/safety/redact.ts) did, shared by the package and the
 * frontmatter: `redactions` counts the secrets replaced by `[REDACTED:<kind>]`, per kind
 * (`{}` when none; files written before it existed read as `{}`); `invisible_stripped`
 * counts the invisible characters (bidi controls, zero-width, tag characters) removed from
 * text other agents wrote (default 0).
 */
const SANITIZE_FIELDS = {
  redactions: z.record(z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/), z.number().int().nonnegative()).default({}),
  invisible_stripped: z.number().int().nonnegative().default(0),
};

/** An empty loss report (files written before it existed read as this). */
const NO_LEFT_OUT = () => ({ older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 });

/**
 * Drafting facts shared by the package and the frontmatter (docs/DESIGN.md §8):
 * `user_requests_omitted` — the user's requests of the session not carried (older than the
 * token bound, or cut to fit); `commands_run_omitted` — command entries beyond the cap or cut
 * to fit; `left_out` — the loss report (counts of what the session log holds that the
 * handoff does not carry); `drafted` — the fields still as drafted from evidence, which no
 * person edited or typed. Files written before drafting read as zero, an empty report and `[]`.
 */
const DRAFT_FIELDS = {
  user_requests_omitted: z.number().int().nonnegative().default(0),
  commands_run_omitted: z.number().int().nonnegative().default(0),
  left_out: z._default(LeftOutSchema, NO_LEFT_OUT),
  drafted: z.array(DraftedFieldSchema).default([]),
};

/** Budget facts shared by the package and the frontmatter (tokens in the named encoding). */
const BUDGET_FIELDS = {
  max_context_tokens: z.number().int().positive(),
  estimated_tokens: z.number().int().nonnegative(),
  tokens_estimated: z.boolean(),
  tokenizer: TokenizerNameSchema,
  dropped: z.array(DroppedSchema),
  oversize_warning: z.boolean(),
};

/**
 * The handoff package (docs/DESIGN.md §4): everything the receiving specialist gets, before it
 * is rendered to Markdown. Lists are in display order; `*_omitted` count what evidence
 * collection left out ("… and N more"); `evidence_notes` say what could not be collected
 * (e.g. "not a git repository").
 */
export const HandoffPackageSchema = z.object({
  kind: EntryKindSchema.default('handoff'),
  specialist: SpecialistIdSchema,
  /** Who the entry is addressed to when that is not `specialist` (a result goes back to the handoff's sender). */
  to: z.string().min(1).nullable().default(null),
  acceptance: z.array(AcceptanceCheckSchema).default([]),
  topic: z.string().regex(TOPIC_SLUG_PATTERN),
  topic_title: z.string(),
  summary: z.string(),
  recent_turns: z.array(TurnSchema),
  decisions: z.array(DecisionSchema),
  failed_approaches: z.array(z.string()),
  next_steps: z.array(z.string()),
  blockers: z.array(z.string()),
  artifacts: z.array(z.string()),
  /** The plan items done (the "Done" section). */
  completed: z.array(z.string()).default([]),
  /** The agent's latest compaction summary, when the session compacted (the "Compaction summary" section); packages made before it read as null. */
  compaction: CompactionSchema.nullable().default(null),
  /** The user's own requests of the session, verbatim, oldest first (the "User requests" section). */
  user_requests: z.array(UserRequestSchema).default([]),
  /** Commands run that are not test runs, failures first (the "Commands run" section). */
  commands_run: z.array(CommandRunSchema).default([]),
  /** `compact`: fit-to-budget lists each command without its source, time and the workspace folder; absent: in full. */
  commands_run_form: z.literal('compact').optional(),
  /**
   * The statements of the summary, decisions, done items and user requests about the state of
   * the work, each with its verdict against the recorded evidence (docs/DESIGN.md §4
   * "Claims"; src/core/receive/claims.ts). Packages made before claims read as `[]`.
   */
  claims: z.array(ClaimSchema).default([]),
  ...DRAFT_FIELDS,
  touched_files: z.array(TouchedFileSchema),
  touched_files_omitted: z.number().int().nonnegative(),
  /**
   * How fit-to-budget has the touched files and the session's other edits listed: `paths` (no
   * line counts), `folders` (rolled up into folders with counts); absent: in full.
   */
  touched_files_form: z.enum(['paths', 'folders']).optional(),
  tests_run: z.array(TestRunSchema),
  tests_run_omitted: z.number().int().nonnegative(),
  /** `grouped`: fit-to-budget lists the runs of one command in one folder as one line (the latest run, how many, how many failed); absent: one line per run. */
  tests_run_form: z.literal('grouped').optional(),
  session_sources: z.array(SessionSourceSummarySchema),
  session_edits: z.array(SessionEditSchema),
  commits: z.array(CommitSchema),
  commits_omitted: z.number().int().nonnegative(),
  diff_excerpt: z.string().nullable(),
  diff_excerpt_truncated: z.boolean(),
  return_condition: z.string().min(1),
  handover_reason: z.string(),
  reason_kind: ReasonKindSchema,
  from: z.string().min(1),
  correlation_id: z.string().nullable(),
  parent_id: z.string().nullable(),
  hop: z.number().int().positive(),
  chain: z.array(z.string()),
  hop_guard: z.nullable(HopGuardSchema),
  session_id: z.string().min(1),
  ...GIT_FIELDS,
  ...BUDGET_FIELDS,
  ...SANITIZE_FIELDS,
  evidence_notes: z.array(z.string()),
});
/** A composed handoff package. */
export type HandoffPackage = z.infer<typeof HandoffPackageSchema>;

/**
 * The YAML frontmatter of a handoff file (docs/DESIGN.md §5): the package's scalar fields plus
 * `id`, `created`, `from`, `to` and `status`, the chain links (`parent_id`, `root_id` =
 * `correlation_id`), the drop manifest and a few counts. `schema` is the format version.
 * Unknown keys written by other tools are kept (`.loose()`), so a round trip loses nothing.
 */
/**
 * Handoff ids and the chain links that repeat them (`root_id`, `parent_id`,
 * `correlation_id`): 1–200 characters of letters, digits and `._:-` — what our file-name
 * stems are made of. Anything else in a file read back is refused, so an edited file
 * cannot smuggle a path or Markdown into the next handoff.
 */
export const HandoffIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/, 'must be a handoff id (letters, digits and ._:- only)');

export const HandoffFrontmatterSchema = z
  .object({
    schema: z.literal(1),
    id: HandoffIdSchema,
    created: z.string().min(1),
    from: z.string().min(1),
    to: z.string().min(1),
    status: HandoffStatusSchema,
    kind: EntryKindSchema.default('handoff'),
    status_history: z.array(StatusChangeSchema).default([]),
    acceptance: z.array(AcceptanceCheckSchema).default([]),
    specialist: SpecialistIdSchema,
    topic: z.string().regex(TOPIC_SLUG_PATTERN),
    topic_title: z.string(),
    return_condition: z.string(),
    handover_reason: z.string(),
    reason_kind: ReasonKindSchema,
    correlation_id: HandoffIdSchema,
    root_id: HandoffIdSchema,
    parent_id: HandoffIdSchema.nullable(),
    hop: z.number().int().positive(),
    chain: z.array(SpecialistIdSchema),
    hop_guard: z.nullable(HopGuardSchema).default(null),
    session_id: z.string().min(1),
    ...GIT_FIELDS,
    // Written since schema 1.1; older files read as "not known".
    detached: GIT_FIELDS.detached.default(false),
    upstream: GIT_FIELDS.upstream.default(null),
    ahead: GIT_FIELDS.ahead.default(null),
    behind: GIT_FIELDS.behind.default(null),
    ...BUDGET_FIELDS,
    ...SANITIZE_FIELDS,
    touched_files_count: z.number().int().nonnegative(),
    tests_run_count: z.number().int().nonnegative(),
    // Issue 21: the test runs listed as failed (insights' "tests failing at hand-back"); written when not 0, older files read as 0.
    tests_failed_count: z.number().int().nonnegative().default(0),
    // Issue 15: the drafted sections' lists are in the body; their counts and the loss report here.
    completed_count: z.number().int().nonnegative().default(0),
    user_requests_count: z.number().int().nonnegative().default(0),
    commands_run_count: z.number().int().nonnegative().default(0),
    // Issue 18: the claims are listed in the body's Claims section; their counts by verdict here (files written before read as zeros).
    claims: z._default(ClaimCountsSchema, () => ({ backed: 0, contradicted: 0, no_evidence: 0 })),
    ...DRAFT_FIELDS,
    session_sources: z.array(SessionSourceSummarySchema).default([]),
    briefing_file: z.string().nullable(),
    history_file: z.string().nullable(),
  })
  .loose();
/** Parsed handoff frontmatter. */
export type HandoffFrontmatter = z.infer<typeof HandoffFrontmatterSchema>;

/** Briefing-file facts in a result: absolute `path`, whether it existed, its size in bytes after the append. */
export const BriefingInfoSchema = z.object({
  path: z.string(),
  existed_before: z.boolean(),
  newly_created: z.boolean(),
  size_bytes: z.number().int().nonnegative(),
});

/**
 * The result of a handoff (docs/DESIGN.md §4). Success carries the persona marker, the package
 * (with `briefing_file`, token figures and `oversize_warning`), the briefing facts, the
 * absolute handoff file path, the history file (when something was cut) and a
 * one-line `next_step`. `warnings` holds `WARNING:` lines (over budget, evidence gaps).
 */
export const HandoverOkSchema = z.object({
  status: z.literal('ok'),
  persona_marker: z.string(),
  package: HandoffPackageSchema.extend({
    id: z.string(),
    created: z.string(),
    briefing_file: z.string(),
  }),
  briefing: BriefingInfoSchema,
  handoff_file: z.string(),
  history_file: z.string().nullable(),
  next_step: z.string(),
  warnings: z.array(z.string()),
  /**
   * Files outside the handoff root this handoff wrote or appended to, as absolute paths
   * (docs/AGENTS.md, itervox and Agent Zero): the itervox copy `.itervox/handoff/<id>.md`, the Agent Zero briefing
   * `.a0proj/handover/<specialist>-<topic>-<date>.md`, and `.gitignore` when itervox's
   * exceptions were appended to it. Absent when there were none.
   */
  mirrors: z.array(z.string()).optional(),
});
/** A successful handoff result. */
export type HandoverOk = z.infer<typeof HandoverOkSchema>;

/**
 * A failed handoff: `message` always starts with `ERROR:` and names the field or path at
 * fault; `code`, `problem` and `fix` as described in src/core/handoff/errors.ts.
 */
export const HandoverErrorSchema = z.object({
  status: z.literal('error'),
  message: z.string().startsWith('ERROR:'),
  /** Which input was at fault (`specialist`, `topic`, …) or `io` / `internal`. */
  field: z.string().optional(),
  code: z.enum(['bad_request', 'bad_setting', 'not_found', 'refused', 'io', 'internal']).optional(),
  problem: z.string().optional(),
  fix: z.string().optional(),
});
export { handoverError, type HandoverError } from './errors';

/** Either result. The engine returns this and never throws to its caller. */
export type HandoverResult = HandoverOk | HandoverError;
