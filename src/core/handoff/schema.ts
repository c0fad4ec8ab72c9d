// zod schemas of the handoff package, its frontmatter and the result every entry point returns.
// snake_case: the fields are written to files other agents read.
import * as z from 'zod';
import { CommandRunSchema, DraftedFieldSchema, LeftOutSchema, UserRequestSchema } from './draftFields';
import type { JobError } from './errors';
import { ClaimCountsSchema, ClaimSchema } from '../receive/claimSchema';
import { SpecialistIdSchema } from './ids';
import { CommitSchema, DroppedSchema, HopGuardSchema, ReasonKindSchema, TestRunSchema, TouchedFileSchema, TurnSchema } from './fields';

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

/** Lower-case letters of any script, their marks, digits and `-` (`auth-refresh`, `рефакторинг`); `slugifyTopic` also bounds it to 120 bytes. */
export const TOPIC_SLUG_PATTERN = /^(?!.*[A-Z])[\p{L}\p{N}][\p{L}\p{M}\p{N}-]{0,63}$/u;

export const TokenizerNameSchema = z.enum(['o200k_base', 'cl100k_base']);
/** `o200k_base` (GPT-4o family, the default) or `cl100k_base` (GPT-4 / 3.5). */
export type TokenizerName = z.infer<typeof TokenizerNameSchema>;

/** One entry per transcript read, with what it contributed to this handoff. */
export const SessionSourceSummarySchema = z.object({
  source: z.string(),
  file: z.string(),
  /** Seen in the transcript, reported beside those kept. */
  commands: z.number().int().nonnegative(),
  commands_kept: z.number().int().nonnegative().optional(),
  test_runs: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  edits: z.number().int().nonnegative(),
  malformed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
export type SessionSourceSummary = z.infer<typeof SessionSourceSummarySchema>;

export const SessionEditSchema = z.object({ path: z.string(), tool: z.string(), source: z.string() });
export type SessionEdit = z.infer<typeof SessionEditSchema>;

/** The agent's latest compaction summary: evidence in the agent's words, never a user request; `text` is empty when the format keeps none. */
export const CompactionSchema = z.object({
  source: z.string(),
  file: z.string().nullable(),
  time: z.string().nullable(),
  trigger: z.enum(['manual', 'auto']).nullable(),
  count: z.number().int().positive(),
  text: z.string(),
});
export type Compaction = z.infer<typeof CompactionSchema>;

/** A decision with its stable id (`D1`, `D2` …); `superseded_by` names a later decision id. */
export const DecisionSchema = z.object({
  id: z.string().regex(/^D\d+$/),
  text: z.string().min(1),
  superseded_by: z.string().optional(),
});
export type Decision = z.infer<typeof DecisionSchema>;

export const HandoffStatusSchema = z.enum(['pending', 'accepted', 'in_progress', 'complete', 'blocked', 'partial']);
export type HandoffStatus = z.infer<typeof HandoffStatusSchema>;

/** `result`: the receiving specialist's answer to a handoff, linked by parent_id. */
export const EntryKindSchema = z.enum(['handoff', 'result']);
export type EntryKind = z.infer<typeof EntryKindSchema>;

export const AcceptanceCheckSchema = z.object({ criterion: z.string().trim().min(1), met: z.boolean() }).strict();
export type AcceptanceCheck = z.infer<typeof AcceptanceCheckSchema>;

/** The one in-place change a handoff file allows. */
export const StatusChangeSchema = z.object({
  from: HandoffStatusSchema,
  to: HandoffStatusSchema,
  at: z.string().min(1),
  session_id: z.string().min(1),
});
export type StatusChange = z.infer<typeof StatusChangeSchema>;

/**
 * A git operation left in progress, from git's state files (`MERGE_HEAD`, `rebase-merge/`, `rebase-apply/`, `CHERRY_PICK_HEAD`,
 * `REVERT_HEAD`, `BISECT_START`). `commit`: the commit merged, picked or reverted, the one a rebase goes onto, or bisect's first bad;
 * `ref`: a name pointing at it; `branch`: the branch rebased or where bisect started; `step`/`total`: rebase or am progress.
 */
export const GitOperationSchema = z.object({
  kind: z.enum(['merge', 'rebase', 'am', 'cherry-pick', 'revert', 'bisect']),
  commit: z
    .string()
    .regex(/^[0-9a-f]{4,64}$/)
    .nullable()
    .default(null),
  ref: z.string().min(1).max(300).nullable().default(null),
  branch: z.string().min(1).max(300).nullable().default(null),
  step: z.number().int().nonnegative().nullable().default(null),
  total: z.number().int().nonnegative().nullable().default(null),
  subject: z.string().max(500).nullable().default(null),
});
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
  /** The operation in progress when the handoff was written; null: none. */
  git_operation: GitOperationSchema.nullable().default(null),
};

/** `redactions`: secrets replaced by `[REDACTED:<kind>]`, per kind; `invisible_stripped`: invisible characters removed from text other agents wrote. */
const SANITIZE_FIELDS = {
  redactions: z.record(z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/), z.number().int().nonnegative()).default({}),
  invisible_stripped: z.number().int().nonnegative().default(0),
};

const NO_LEFT_OUT = () => ({ older_requests: 0, commands_beyond_cap: 0, collapsed_todos: 0, turns: 0 });

/** `*_omitted`: requests and commands not carried; `left_out`: the loss report; `drafted`: fields still as drafted from evidence, which no person edited. */
const DRAFT_FIELDS = {
  user_requests_omitted: z.number().int().nonnegative().default(0),
  commands_run_omitted: z.number().int().nonnegative().default(0),
  left_out: z._default(LeftOutSchema, NO_LEFT_OUT),
  drafted: z.array(DraftedFieldSchema).default([]),
};

const BUDGET_FIELDS = {
  max_context_tokens: z.number().int().positive(),
  estimated_tokens: z.number().int().nonnegative(),
  tokens_estimated: z.boolean(),
  tokenizer: TokenizerNameSchema,
  dropped: z.array(DroppedSchema),
  oversize_warning: z.boolean(),
};

/** Everything the receiving specialist gets, before rendering; `*_omitted` count what evidence collection left out ("… and N more"). */
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
  completed: z.array(z.string()).default([]),
  compaction: CompactionSchema.nullable().default(null),
  /** Verbatim, oldest first. */
  user_requests: z.array(UserRequestSchema).default([]),
  /** Not test runs; failures first. */
  commands_run: z.array(CommandRunSchema).default([]),
  /** `compact`: fit-to-budget dropped each command's source, time and folder. */
  commands_run_form: z.literal('compact').optional(),
  /** Statements about the state of the work, each with its verdict against the recorded evidence (src/core/receive/claims.ts). */
  claims: z.array(ClaimSchema).default([]),
  ...DRAFT_FIELDS,
  touched_files: z.array(TouchedFileSchema),
  touched_files_omitted: z.number().int().nonnegative(),
  /** Fit-to-budget's form: `paths` (no line counts) or `folders` (rolled up with counts); absent: in full. */
  touched_files_form: z.enum(['paths', 'folders']).optional(),
  tests_run: z.array(TestRunSchema),
  tests_run_omitted: z.number().int().nonnegative(),
  /** `grouped`: fit-to-budget lists the runs of one command in one folder as one line. */
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
export type HandoffPackage = z.infer<typeof HandoffPackageSchema>;

/** Letters, digits and `._:-`, like our file-name stems: a file read back cannot smuggle a path or Markdown into the next handoff. */
export const HandoffIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/, 'must be a handoff id (letters, digits and ._:- only)');

/** The package's scalar fields plus id, created, status, chain links and counts; `.loose()` keeps other tools' keys through a round trip. */
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
    // May be absent: read as "not known".
    detached: GIT_FIELDS.detached.default(false),
    upstream: GIT_FIELDS.upstream.default(null),
    ahead: GIT_FIELDS.ahead.default(null),
    behind: GIT_FIELDS.behind.default(null),
    ...BUDGET_FIELDS,
    ...SANITIZE_FIELDS,
    touched_files_count: z.number().int().nonnegative(),
    tests_run_count: z.number().int().nonnegative(),
    // The test runs listed as failed; written when not 0.
    tests_failed_count: z.number().int().nonnegative().default(0),
    // The drafted sections' lists are in the body; their counts here.
    completed_count: z.number().int().nonnegative().default(0),
    user_requests_count: z.number().int().nonnegative().default(0),
    commands_run_count: z.number().int().nonnegative().default(0),
    // The claims are listed in the body; their counts by verdict here.
    claims: z._default(ClaimCountsSchema, () => ({ backed: 0, contradicted: 0, no_evidence: 0 })),
    ...DRAFT_FIELDS,
    session_sources: z.array(SessionSourceSummarySchema).default([]),
    briefing_file: z.string().nullable(),
    history_file: z.string().nullable(),
  })
  .loose();
export type HandoffFrontmatter = z.infer<typeof HandoffFrontmatterSchema>;

/** Briefing-file facts in a result: absolute `path`, whether it existed, its size in bytes after the append. */
export const BriefingInfoSchema = z.object({
  path: z.string(),
  existed_before: z.boolean(),
  newly_created: z.boolean(),
  size_bytes: z.number().int().nonnegative(),
});

/** `warnings` holds `WARNING:` lines (over budget, evidence gaps); `history_file` is set when something was cut. */
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
  /** Absolute paths outside the handoff root this handoff wrote or appended to (the itervox and Agent Zero copies, `.gitignore`); absent when none. */
  mirrors: z.array(z.string()).optional(),
});
export type HandoverOk = z.infer<typeof HandoverOkSchema>;

/** `message` starts with `ERROR:` and names the field or path at fault (./errors.ts). */
export const JobErrorSchema = z.object({
  status: z.literal('error'),
  message: z.string().startsWith('ERROR:'),
  /** Which input was at fault (`specialist`, `topic`, …) or `io` / `internal`. */
  field: z.string().optional(),
  code: z.enum(['bad_request', 'bad_setting', 'not_found', 'refused', 'io', 'internal']).optional(),
  problem: z.string().optional(),
  fix: z.string().optional(),
});
export { jobError, type JobError } from './errors';

/** Either result. The engine returns this and never throws to its caller. */
export type HandoverResult = HandoverOk | JobError;
