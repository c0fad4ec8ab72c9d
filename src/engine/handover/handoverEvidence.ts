/** A handoff's evidence: git, the session log and the latest handoff. None throws: a problem is a note, or undefined. */
import path from 'node:path';
import { homedir } from 'node:os';
import { emptyGitEvidence, type GitEvidence } from '../../core/handoff/gitEvidence';
import { HANDOFFS_DIR } from '../../core/handoff/naming';
import type { HandoffFrontmatter, SessionSourceSummary } from '../../core/handoff/schema';
import { emptySessionLogState } from '../../core/session/events';
import { collectGitEvidence } from '../../evidence/git/collectGit';
import { collectSessionLog, type SessionLogEvidence } from '../../evidence/session/collectSessionLog';
import { loadSessionLogState } from '../../store/sessionLogState';
import { readLatestHandoff, readLatestHandoffFile } from '../../store/handoffs/handoffIndex';
import { otherToolsHandoffFolders } from '../../store/handoffs/timelineFiles';
import type { JobContext } from '../project/jobContext';
import { handoffRootOf } from '../project/project';

/** The base commit is the latest handoff's HEAD unless `env.baseCommit` says otherwise. */
export async function collectEvidenceFor(env: JobContext): Promise<GitEvidence> {
  try {
    const rootCheck = handoffRootOf(env);
    const root = rootCheck.ok ? rootCheck.path : undefined;
    const latest = root ? await readLatestHandoff(path.join(root, HANDOFFS_DIR)) : undefined;
    const baseCommit = env.baseCommit !== undefined ? env.baseCommit : (latest?.frontmatter.head_commit ?? env.sessionBaseCommit ?? null);
    return await collectGitEvidence({
      cwd: env.workspaceRoot,
      handoffRoot: root,
      alsoExclude: otherToolsHandoffFolders(env.workspaceRoot),
      baseCommit,
      binary: env.gitBinary,
      signal: env.signal,
      probe: env.gitProbe,
      onGitStarted: env.onGitStarted,
    });
  } catch (err) {
    env.onGitStarted?.(); // no git process was asked for
    return emptyGitEvidence(`Collecting git evidence failed: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** A transcript's name for the handoff: workspace-relative inside it, else `~/…` or the file name, never a full home path. */
export function displayFile(file: string, workspaceRoot: string): string {
  const rel = path.relative(workspaceRoot, file);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  const home = homedir();
  const fromHome = path.relative(home, file);
  if (fromHome && !fromHome.startsWith('..') && !path.isAbsolute(fromHome)) return `~/${fromHome.split(path.sep).join('/')}`;
  return path.basename(file);
}

export async function readSessionLog(env: JobContext): Promise<{ evidence: SessionLogEvidence } | undefined> {
  const cfg = env.sessionLog;
  if (!cfg || cfg.mode === 'none') {
    return undefined;
  }
  try {
    const state = cfg.statePath ? await loadSessionLogState(cfg.statePath) : undefined;
    const evidence = await collectSessionLog({
      workspaceRoot: env.workspaceRoot,
      mode: cfg.mode,
      sources: cfg.sources,
      locations: cfg.locations,
      recorderFile: cfg.recorderFile,
      state,
      home: cfg.home,
      host: cfg.host,
    });
    return { evidence };
  } catch (err) {
    return {
      evidence: {
        tests_run: [],
        recent_turns: [],
        file_edits: [],
        transcripts: [],
        notes: [`Reading the session log failed: ${(err as Error)?.message ?? String(err)}`],
        next_state: emptySessionLogState(),
      },
    };
  }
}

export function sessionSources(evidence: SessionLogEvidence, workspaceRoot: string): SessionSourceSummary[] {
  return evidence.transcripts.map((t) => ({
    source: t.source,
    file: displayFile(t.file, workspaceRoot),
    commands: t.commands,
    commands_kept: t.commands_kept,
    test_runs: t.test_runs,
    turns: t.turns,
    edits: t.edits,
    malformed: t.malformed,
    skipped: t.skipped,
  }));
}

/** Undefined when there is none or the handoff folder setting is invalid. */
export async function latestHandoff(
  env: Pick<JobContext, 'workspaceRoot' | 'handoffDirectory'>,
): Promise<(HandoffFrontmatter & { readonly file_ref: string }) | undefined> {
  const root = handoffRootOf(env);
  if (!root.ok) {
    return undefined;
  }
  const latest = await readLatestHandoffFile(path.join(root.path, HANDOFFS_DIR));
  // file_ref: the file name, which `parent` finds whatever the frontmatter's id says.
  return latest && { ...latest.handoff.frontmatter, file_ref: path.basename(latest.file) };
}
