/** The "Hand over" panel's draft: evidence collected once while the user types, minus what the user left out. */
import type { Exclusions } from '../../core/panel/draft';
import { testKey } from '../../core/panel/draft';
import type { EvidenceView } from '../../core/panel/protocol';
import type { GitEvidence } from '../../core/handoff/gitEvidence';
import { handoffId } from '../../core/handoff/naming';
import { renderHandoff } from '../../core/handoff/render';
import { emptySessionLogState } from '../../core/session/events';
import type { SessionDraft } from '../../core/handoff/draftFields';
import { DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
import type { TokenizerName } from '../../core/handoff/schema';
import type { SessionLogEvidence } from '../../evidence/session/collectSessionLog';
import { draftFromEvidence, type DraftEvidence } from './evidenceDraft';
import { counterFor } from '../tokenizers/tokenizer';
import { collectEvidenceFor, latestHandoff, previewFit, readSessionLog, type JobContext, type PreparedHandover } from '../handover/handover';

export type { DraftEvidence };

/** Git comes from `env.evidence` when the caller started it; git and session-log problems are notes, never rejections. */
export async function collectDraftEvidence(env: JobContext): Promise<DraftEvidence> {
  const [git, session, latest] = await Promise.all([env.evidence ?? collectEvidenceFor(env), readSessionLog(env).then((r) => r?.evidence), latestHandoff(env)]);
  return { git, session, latest };
}

function emptySessionEvidence(): SessionLogEvidence {
  return { tests_run: [], recent_turns: [], file_edits: [], transcripts: [], notes: [], next_state: emptySessionLogState() };
}

/** `env` with the collected evidence minus the user's exclusions, so the engine neither collects again nor includes them. */
export function draftEnvironment(env: JobContext, evidence: DraftEvidence, excluded: Exclusions): JobContext {
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

/** Every item, left out or not: the webview marks what the draft excludes. */
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

/** The handoff as it would be written now (pending, no briefing yet), fitted first when `fit` is set. Writes nothing. */
export function previewHandoff(prepared: PreparedHandover, fit: boolean, now = new Date()): string {
  const pkg = fit && prepared.pkg.oversize_warning ? previewFit(prepared).pkg : prepared.pkg;
  const meta = { id: handoffId(now, prepared.specialist.id), created: now.toISOString(), status: 'pending' as const, briefingFile: null, historyFile: null };
  return renderHandoff(pkg, meta, prepared.specialist);
}

/** The panel's draft, user requests bounded by `userRequestTokens` (in the handoff's encoding). Writes nothing. */
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
