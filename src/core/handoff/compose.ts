/**
 * Package composition (docs/DESIGN.md §4): a validated request plus the collected evidence
 * become a {@link HandoffPackage}; its size is the token count of the rendered handoff file,
 * and over budget it is compressed, then cut, by ./fit.ts.
 */
import { claimsOfPackage } from '../receive/claims';
import type { Draft } from './draftFields';
import { mergeDraft } from './drafted';
import type { GitEvidence } from './gitEvidence';
import { DEFAULT_FROM, DEFAULT_RETURN_CONDITION, trimRecentTurns, type HandoverRequest } from './request';
import type { AcceptanceCheck, Compaction, HandoffFrontmatter, HandoffPackage, SessionEdit, SessionSourceSummary, TestRun, Turn } from './schema';
import type { Specialist } from '../specialists/registry';

/** Default of `handoff.maxHandoverDepth`: 3 hops (Agent Zero `max_handover_depth = 3`). */
export const DEFAULT_MAX_HANDOVER_DEPTH = 3;
/** Highest hop limit accepted (setting and CLI): 100 hops; a deeper chain is a loop, not a plan. */
export const MAX_HOP_DEPTH = 100;

/**
 * The hop guard: a handoff that would be hop `parent.hop + 1` beyond `maxDepth`, or that
 * goes back to a specialist already in the parent's chain, needs an explicit confirmation.
 * @returns the finding (with `confirmed`), or null when the hop is fine
 */
export function hopGuard(parent: HandoffFrontmatter | undefined, specialist: string, maxDepth: number, confirmed: boolean): HandoffPackage['hop_guard'] {
  if (!parent) {
    return null;
  }
  const reasons: Array<'depth' | 'cycle'> = [];
  // The parent's own fields are cross-checked: an edited file with a short chain or a low
  // hop number must not switch the guard off.
  if (Math.max(parent.hop, parent.chain.length) + 1 > maxDepth) reasons.push('depth');
  if (parent.chain.includes(specialist) || parent.specialist === specialist || parent.to === specialist) reasons.push('cycle');
  return reasons.length ? { reasons, max_depth: maxDepth, confirmed } : null;
}

/** An earlier handoff of a chain to a specialist: its id and the worktree it described. */
export interface ChainVisit {
  readonly id: string;
  /** sha256 of the working-tree diff against HEAD when it was written (docs/DESIGN.md §4), or null. */
  readonly diff_hash: string | null;
  readonly head_commit: string | null;
}

/**
 * The progress guard for agent calls (Agent Zero's loop guard, made progress-aware): a
 * chain that returns to a specialist it already visited while the code is exactly as it
 * was then (same HEAD and same `diff_hash`) is going round in circles.
 * @param visits the chain's earlier handoffs to that specialist
 * @returns the earlier visit with the same worktree, or undefined when there was progress
 *   (or the worktree state is unknown: no diff hash)
 */
export function visitWithoutProgress(visits: readonly ChainVisit[], now: { diff_hash: string | null; head_commit: string | null }): ChainVisit | undefined {
  if (!now.diff_hash) return undefined;
  return visits.find((v) => v.diff_hash === now.diff_hash && v.head_commit === now.head_commit);
}

/** Inputs of {@link composePackage} besides the request. */
export interface ComposeContext {
  readonly specialist: Specialist;
  readonly topic: { slug: string; title: string };
  readonly evidence: GitEvidence;
  readonly sessionId: string;
  /** The handoff this one continues, when it is a hop in an existing chain. */
  readonly parent?: HandoffFrontmatter;
  /** Most hops a chain may take before the hop guard warns (`handoff.maxHandoverDepth`, default 3). */
  readonly maxHandoverDepth?: number;
  /**
   * A result (hand-back) instead of a handoff: written by `specialist` (the receiver of
   * `parent`) back to `to`, with the acceptance checks; not a new hop of the chain for the
   * hop guard (the chain stays the parent's).
   */
  readonly result?: { readonly to: string; readonly acceptance: readonly AcceptanceCheck[] };
  /**
   * The draft of the evidence (src/engine/drafting.ts): user requests and commands run when
   * the request has none, the prose fields the request leaves empty when it asks for a draft
   * (`draft: true`), and the loss report (./drafted.ts `mergeDraft`).
   */
  readonly draft?: Draft;
  /** Session-log evidence: test runs, turns (used when the request brings none), edits and sources. */
  readonly session?: {
    readonly tests_run: readonly TestRun[];
    readonly recent_turns: readonly Turn[];
    readonly file_edits: readonly SessionEdit[];
    readonly sources: readonly SessionSourceSummary[];
    /** The agent's latest compaction summary, when the session compacted. */
    readonly compaction?: Compaction;
  };
}

/**
 * Builds the package from a request and the evidence. Pure; token figures are zero
 * until {@link measurePackage} or {@link fitToBudget} fills them. `claims` are found in the
 * summary, decisions, done items and user requests and judged against the test runs, commands
 * run and commits (src/core/receive/claims.ts `claimsOfPackage`); a caller that
 * sanitizes the package judges them again on the sanitized texts.
 */
export function composePackage(req: HandoverRequest, ctx: ComposeContext): HandoffPackage {
  const pkg = composeFields(req, ctx);
  return { ...pkg, claims: claimsOfPackage(pkg) };
}

/**
 * {@link composePackage} without judging the claims (`claims: []`), for a caller that
 * sanitizes the package and then judges them on the sanitized texts (src/engine/handover.ts,
 * src/engine/recordResult.ts): finding and judging claims is a pass of the claim rules over
 * every sentence (a large part of a CLI hook's critical path), and judged before
 * sanitizing they were always thrown away.
 */
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
