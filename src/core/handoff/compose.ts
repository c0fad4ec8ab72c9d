// Composes a validated request and the evidence into a package; over budget, ./fit.ts compresses and cuts it.
import { claimsOfPackage } from '../receive/claims';
import type { SessionDraft } from './draftFields';
import { mergeDraft } from './drafted';
import type { GitEvidence } from './gitEvidence';
import { DEFAULT_FROM, DEFAULT_RETURN_CONDITION, trimRecentTurns, type HandoverRequest } from './request';
import type { AcceptanceCheck, Compaction, HandoffFrontmatter, HandoffPackage, SessionEdit, SessionSourceSummary, TestRun, Turn } from './schema';
import type { Specialist } from '../specialists/registry';

/** Agent Zero's `max_handover_depth`. */
export const DEFAULT_MAX_HANDOVER_DEPTH = 3;
/** A deeper chain is a loop, not a plan. */
export const MAX_HOP_DEPTH = 100;

/** Past `maxDepth`, or back to a specialist already in the chain: needs an explicit confirmation. Null when the hop is fine. */
export function hopGuard(parent: HandoffFrontmatter | undefined, specialist: string, maxDepth: number, confirmed: boolean): HandoffPackage['hop_guard'] {
  if (!parent) {
    return null;
  }
  const reasons: Array<'depth' | 'cycle'> = [];
  // Cross-checked, so an edited file with a short chain or a low hop cannot switch the guard off.
  if (Math.max(parent.hop, parent.chain.length) + 1 > maxDepth) reasons.push('depth');
  if (parent.chain.includes(specialist) || parent.specialist === specialist || parent.to === specialist) reasons.push('cycle');
  return reasons.length ? { reasons, max_depth: maxDepth, confirmed } : null;
}

export interface ChainVisit {
  readonly id: string;
  /** sha256 of the working-tree diff against HEAD when it was written, or null. */
  readonly diff_hash: string | null;
  readonly head_commit: string | null;
}

/** Returning to a visited specialist with the same HEAD and `diff_hash` is going round in circles; undefined when there was progress or no diff hash. */
export function visitWithoutProgress(visits: readonly ChainVisit[], now: { diff_hash: string | null; head_commit: string | null }): ChainVisit | undefined {
  if (!now.diff_hash) return undefined;
  return visits.find((v) => v.diff_hash === now.diff_hash && v.head_commit === now.head_commit);
}

export interface ComposeContext {
  readonly specialist: Specialist;
  readonly topic: { slug: string; title: string };
  readonly evidence: GitEvidence;
  readonly sessionId: string;
  readonly parent?: HandoffFrontmatter;
  /** `handoff.maxHandoverDepth`. */
  readonly maxHandoverDepth?: number;
  /** A hand-back from the receiver of `parent` to `to`; not a new hop for the hop guard. */
  readonly result?: { readonly to: string; readonly acceptance: readonly AcceptanceCheck[] };
  /** Fills the user requests and commands run the request lacks, and empty prose fields when it asks for a draft. */
  readonly draft?: SessionDraft;
  /** Turns are used when the request brings none. */
  readonly session?: {
    readonly tests_run: readonly TestRun[];
    readonly recent_turns: readonly Turn[];
    readonly file_edits: readonly SessionEdit[];
    readonly sources: readonly SessionSourceSummary[];
    readonly compaction?: Compaction;
  };
}

/** Pure; token figures stay zero until {@link measurePackage} or {@link fitToBudget}. */
export function composePackage(req: HandoverRequest, ctx: ComposeContext): HandoffPackage {
  const pkg = composeFields(req, ctx);
  return { ...pkg, claims: claimsOfPackage(pkg) };
}

/** For a caller that sanitizes the package first: claims judged before sanitizing would be thrown away. */
export function composeUnjudgedPackage(req: HandoverRequest, ctx: ComposeContext): HandoffPackage {
  return composeFields(req, ctx);
}

function composeFields(req: HandoverRequest, ctx: ComposeContext): HandoffPackage {
  const ev = ctx.evidence;
  const parent = ctx.parent;
  const tests = [...req.tests_run, ...(ctx.session?.tests_run ?? [])];
  const turns = req.recent_turns.length ? req.recent_turns : [...(ctx.session?.recent_turns ?? [])];
  const gitPaths = new Set(ev.touchedFiles.flatMap((f) => (f.old_path ? [f.path, f.old_path] : [f.path])));
  const result = ctx.result;
  const drafted = mergeDraft(req, ctx.draft);
  return {
    kind: result ? 'result' : 'handoff',
    specialist: ctx.specialist.id,
    to: result ? result.to : null,
    acceptance: result ? result.acceptance.map((a) => ({ ...a })) : [],
    topic: ctx.topic.slug,
    topic_title: ctx.topic.title,
    summary: drafted.summary,
    recent_turns: trimRecentTurns(turns, req.include_recent_turns),
    decisions: drafted.decisions.map((text, i) => ({ id: `D${i + 1}`, text })),
    failed_approaches: drafted.failed_approaches,
    next_steps: drafted.next_steps,
    blockers: drafted.blockers,
    artifacts: req.artifacts,
    completed: drafted.completed,
    compaction: ctx.session?.compaction ? { ...ctx.session.compaction } : null,
    user_requests: drafted.user_requests,
    commands_run: drafted.commands_run,
    claims: [],
    user_requests_omitted: drafted.user_requests_omitted,
    commands_run_omitted: drafted.commands_run_omitted,
    left_out: drafted.left_out,
    drafted: drafted.drafted,
    touched_files: ev.touchedFiles.map((f) => ({ ...f })),
    touched_files_omitted: ev.touchedFilesOmitted,
    tests_run: tests,
    tests_run_omitted: 0,
    session_sources: [...(ctx.session?.sources ?? [])],
    // Edits git already lists are shown there; these are the others (reverted, or outside the repository).
    session_edits: (ctx.session?.file_edits ?? []).filter((e) => !gitPaths.has(e.path)).slice(0, 200),
    commits: ev.commits.map((c) => ({ ...c })),
    commits_omitted: ev.commitsOmitted,
    diff_excerpt: ev.diffExcerpt,
    diff_excerpt_truncated: ev.diffExcerptTruncated,
    return_condition: req.return_condition || ctx.specialist.returnCondition || DEFAULT_RETURN_CONDITION,
    handover_reason: req.handover_reason.trim(),
    reason_kind: req.reason_kind,
    from: result ? ctx.specialist.id : req.from !== DEFAULT_FROM || !parent ? req.from : parent.to,
    correlation_id: parent ? parent.root_id : null,
    parent_id: parent ? parent.id : null,
    hop: parent ? parent.hop + 1 : 1,
    chain: parent ? (result ? [...parent.chain] : [...parent.chain, ctx.specialist.id]) : [ctx.specialist.id],
    hop_guard: result ? null : hopGuard(parent, ctx.specialist.id, ctx.maxHandoverDepth ?? DEFAULT_MAX_HANDOVER_DEPTH, req.hop_guard_confirmed),
    session_id: ctx.sessionId,
    base_commit: ev.baseCommit,
    head_commit: ev.headCommit,
    branch: ev.detached ? null : ev.branch,
    detached: ev.detached,
    upstream: ev.upstream,
    ahead: ev.ahead,
    behind: ev.behind,
    diff_hash: ev.diffHash,
    git_operation: ev.operation ? { ...ev.operation } : null,
    max_context_tokens: req.max_context_tokens,
    estimated_tokens: 0,
    tokens_estimated: false,
    tokenizer: req.tokenizer,
    dropped: [],
    oversize_warning: false,
    // Filled by sanitizePackage (src/core/safety/packageGate.ts) before the package is measured and written.
    redactions: {},
    invisible_stripped: 0,
    evidence_notes: [...ev.notes],
  };
}

export { FLOOR_FOLDERS, SUMMARY_TRUNCATED_MARKER, fitToBudget, measurePackage, type FitResult } from './fit';
