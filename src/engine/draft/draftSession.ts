/**
 * A handoff drafted in the "Hand over" panel: the evidence collected once while the user
 * types (git, session log, the latest handoff whose chain it may continue), the evidence
 * minus what the user left out, the evidence as the panel lists it, and the preview of
 * the handoff as it would be written.
 *
 *   environment ─▶ collectDraftEvidence ─▶ DraftEvidence ─▶ draftEnvironment(exclusions) ─▶ prepareHandover ─▶ estimate, previewHandoff, writeHandover
 */
import type { Exclusions } from '../../core/panel/draft';
import { testKey } from '../../core/panel/draft';
import type { EvidenceView } from '../../core/panel/protocol';
import type { GitEvidence } from '../../core/handoff/gitEvidence';
import { handoffId } from '../../core/handoff/naming';
import { renderHandoff } from '../../core/handoff/render';
import type { HandoffFrontmatter } from '../../core/handoff/schema';
import { emptySessionLogState } from '../../core/session/events';
import type { Draft as SessionDraft } from '../../core/handoff/draftFields';
import { DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
import type { TokenizerName } from '../../core/handoff/schema';
import type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';
import { draftFromEvidence } from './evidenceDraft';
import { counterFor } from '../tokenizers/tokenizer';
import { collectEvidenceFor, latestHandoff, previewFit, readSessionLog, type HandoverEnvironment, type PreparedHandover } from '../handover/handover';

/** The evidence of a draft, collected once and reused while the user types. */
export interface DraftEvidence {
  /** Touched files, commits, branch and HEAD from git. */
  readonly git: GitEvidence;
  /** Tests run and recent turns from the session log; undefined when no session log is read. */
  readonly session: SessionLogEvidence | undefined;
  /** The newest complete handoff (its frontmatter and file name), whose chain the draft may continue. */
  readonly latest: (HandoffFrontmatter & { readonly file_ref: string }) | undefined;
}

/**
 * Collects the three parts of {@link DraftEvidence} at once (git from `env.evidence` when the
 * caller started it already). Never rejects for a git or session-log problem (those are notes).
 */
export async function collectDraftEvidence(env: HandoverEnvironment): Promise<DraftEvidence> {
  const [git, session, latest] = await Promise.all([env.evidence ?? collectEvidenceFor(env), readSessionLog(env).then((r) => r?.evidence), latestHandoff(env)]);
  return { git, session, latest };
}

/** Session-log evidence with nothing in it: what a handoff gets when no session log was read. */
function emptySessionEvidence(): SessionLogEvidence {
  return { tests_run: [], recent_turns: [], file_edits: [], transcripts: [], notes: [], next_state: emptySessionLogState() };
}

/**
 * The environment of a handoff from the draft: `env` with the collected evidence minus
 * what the user left out (touched files by path, commits by sha, tests by key, recent
 * turns by index), so the engine neither collects again nor includes the left-out items.
 */
export function draftEnvironment(env: HandoverEnvironment, evidence: DraftEvidence, excluded: Exclusions): HandoverEnvironment {
  const files = new Set(excluded.files);
  const commits = new Set(excluded.commits);
  const tests = new Set(excluded.tests);
  const turns = new Set(excluded.turns);
  const git: GitEvidence = {
    ...evidence.git,
    touchedFiles: evidence.git.touchedFiles.filter((f) => !files.has(f.path)),
    commits: evidence.git.commits.filter((c) => !commits.has(c.sha)),
  };
  const session: SessionLogEvidence | undefined = evidence.session && {
    ...evidence.session,
    tests_run: evidence.session.tests_run.filter((t) => !tests.has(testKey(t))),
    recent_turns: evidence.session.recent_turns.filter((_, i) => !turns.has(i)),
  };
  return { ...env, evidence: git, sessionEvidence: session ?? emptySessionEvidence() };
}

/** The evidence as the panel lists it (every item, left out or not: the webview marks what the draft excludes). */
export function evidenceView(evidence: DraftEvidence): EvidenceView {
  const { git, session, latest } = evidence;
  return {
    touched_files: [...git.touchedFiles],
    touched_files_omitted: git.touchedFilesOmitted,
    tests_run: session?.tests_run ?? [],
    commits: [...git.commits],
    recent_turns: session?.recent_turns ?? [],
    branch: git.branch,
    head_commit: git.headCommit,
    notes: [...git.notes, ...(session?.notes ?? [])],
    git_problem: git.problem,
    latest: latest ? { id: latest.id, specialist: latest.specialist, hop: latest.hop, chain: [...latest.chain] } : null,
  };
}

/**
 * The handoff file as it would be written now (status pending, no briefing or history
 * file yet), fitted to the budget first when `fit` is set and the package is over it.
 * Writes nothing.
 */
export function previewHandoff(prepared: PreparedHandover, fit: boolean, now = new Date()): string {
  const pkg = fit && prepared.pkg.oversize_warning ? previewFit(prepared).pkg : prepared.pkg;
  const meta = { id: handoffId(now, prepared.specialist.id), created: now.toISOString(), status: 'pending' as const, briefingFile: null, historyFile: null };
  return renderHandoff(pkg, meta, prepared.specialist);
}

/**
 * The session's draft of the panel and the end-of-session command: every field
 * the evidence answers, with its source, from {@link draftFromEvidence} — user requests
 * bounded by `handoff.userRequestTokens` (tokens, counted in the handoff's encoding
 * `handoff.tokenizer`; default {@link DEFAULT_USER_REQUEST_TOKENS}), the loss report's turns
 * counted against `handoff.includeRecentTurns`. Deterministic; writes nothing.
 */
export function sessionDraft(
  evidence: DraftEvidence,
  settings: { readonly userRequestTokens?: number; readonly tokenizer: TokenizerName; readonly includeRecentTurns?: number },
): SessionDraft {
  const counter = counterFor(settings.tokenizer);
  return draftFromEvidence(evidence, {
    userRequestTokens: settings.userRequestTokens ?? DEFAULT_USER_REQUEST_TOKENS,
    countTokens: (text) => counter.count(text).tokens,
    ...(settings.includeRecentTurns !== undefined ? { includeRecentTurns: settings.includeRecentTurns } : {}),
  });
}
