/** The Claude Code hook job: a safety-net handoff on `SessionEnd` and `PreCompact`, written only inside git unless a folder is named. */
import { statSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_HOOK_SPECIALIST,
  SAFETY_NET_EVENTS,
  defaultHookTopic,
  describeHookEvent,
  hookHandoverReason,
  hookSummary,
  parseClaudeHookInput,
  safetyNetNotes,
} from '../../core/agents/claudeHook';
import { jobError, partsError, type JobError } from '../../core/handoff/errors';
import { LINK_LOOP_WORDS, fsErrorCode } from '../../core/handoff/fsErrors';
import type { HandoverOk } from '../../core/handoff/schema';
import { redactKnown, redactSecrets } from '../../core/safety/redact';
import { cliSessionLogStatePath } from '../project/cliSession';
import type { JobContext } from '../project/jobContext';
import { draftSummaryFromEvidence } from '../draft/evidenceDraft';
import { collectEvidenceFor, prepareHandover, readSessionLog, writeHandover } from '../handover/handover';
import { workspaceFolderOf } from '../project/project';

/** Why a path is no regular file (or is a link loop), else undefined. Only stats it: a FIFO is never opened, so this never blocks. */
export function notARegularFile(file: string): string | undefined {
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    return fsErrorCode(err) === 'ELOOP' ? `is ${LINK_LOOP_WORDS}` : undefined;
  }
  if (st.isFile()) return undefined;
  if (st.isFIFO()) return 'is a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'is a character device';
  if (st.isBlockDevice()) return 'is a block device';
  if (st.isSocket()) return 'is a socket';
  return st.isDirectory() ? 'is a folder' : 'is not a regular file';
}

export interface ClaudeHookOptions {
  readonly specialist?: string;
  /** Default the git branch, else `session <short id>`. */
  readonly topic?: string;
  /** A folder named explicitly (`--cwd`): used instead of the input's `cwd`, and written to even outside git. */
  readonly folder?: string;
  readonly handoffDirectory?: string;
  readonly onCountingDone?: () => void;
}

/**
 * `skipped` when the event is no safety-net one, or outside git with no folder named; an error for unusable
 * input (`stdin`), a missing folder (`cwd`) or a failed handoff (then with the redacted `event`).
 */
export type ClaudeHookOutcome =
  | { readonly status: 'written'; readonly event: string; readonly workspaceRoot: string; readonly result: HandoverOk; readonly notes: readonly string[] }
  | { readonly status: 'skipped'; readonly because: 'outside-git'; readonly event: string; readonly workspaceRoot: string }
  | { readonly status: 'skipped'; readonly because: 'event'; readonly event: string }
  | (JobError & { readonly event?: string });

/** Reads git and the transcript (git only when it is missing). Never throws for bad input or a failed handoff. */
export async function runClaudeHook(rawInput: string, options: ClaudeHookOptions = {}): Promise<ClaudeHookOutcome> {
  const parsed = parseClaudeHookInput(rawInput);
  if (!parsed.ok) {
    return jobError(parsed.message, 'stdin');
  }
  const input = parsed.input;
  // The event in words, redacted before any outcome: a redaction failure ends the hook before it writes.
  // Redaction loads secretlint on the main thread, so it starts once git's processes are spawned and runs beside them.
  let redacting: Promise<string> | undefined;
  const redacted = (): Promise<string> => (redacting ??= redactSecrets(describeHookEvent(input)).then((r) => r.text));
  if (!SAFETY_NET_EVENTS.includes(input.hook_event_name)) {
    return { status: 'skipped', because: 'event', event: await redacted() };
  }
  const folder = await workspaceFolderOf(path.resolve(options.folder ?? input.cwd));
  if (!folder.ok) {
    await redacted();
    const named = options.folder !== undefined;
    return partsError('cwd', {
      path: named ? ['cwd'] : ['hook_input', 'cwd'],
      subject: named ? 'cwd' : "the hook input's cwd",
      problem: folder.problem,
      ...(folder.fix ? { fix: folder.fix } : {}),
    });
  }
  const cwd = folder.path;
  // A hook set up for every project also runs outside any repository (~, /tmp) and must leave no .handoff folder there.
  if (options.folder === undefined && !folder.repository) {
    return { status: 'skipped', because: 'outside-git', event: await redacted(), workspaceRoot: cwd };
  }
  const transcript = path.resolve(input.cwd, input.transcript_path);
  // stat never opens the file: a FIFO or a device named here is refused, never read (it would block or never end).
  const refused = notARegularFile(transcript);
  let transcriptFound: boolean;
  try {
    transcriptFound = statSync(transcript).isFile();
  } catch {
    transcriptFound = false;
  }
  const env: JobContext = {
    workspaceRoot: cwd,
    handoffDirectory: options.handoffDirectory,
    sessionId: input.session_id,
    sessionLog: { mode: transcriptFound ? transcript : 'none', statePath: cliSessionLogStatePath(cwd) },
    ...(options.onCountingDone ? { onCountingDone: options.onCountingDone } : {}),
    ...(folder.repository ? { gitProbe: folder.gitProbe } : {}),
  };
  let gitStarted!: () => void;
  const spawned = new Promise<void>((resolve) => (gitStarted = resolve));
  // Git and the transcript are read once: for the draft, the branch as the default topic, and the handoff.
  const collecting = Promise.all([collectEvidenceFor({ ...env, onGitStarted: gitStarted }), readSessionLog(env)]);
  // After the microtasks in which simple-git spawns the processes asked for.
  const redaction = spawned.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(redacted);
  redaction.catch(() => undefined); // awaited below, after the evidence
  const [evidence, session] = await collecting;
  const event = await redaction;
  // Only the summary is drafted here (it counts no tokens); the handoff drafts the rest itself (`draft: true`).
  const draftedSummary = draftSummaryFromEvidence({ git: evidence, session: session?.evidence, latest: undefined });
  const request = {
    specialist: options.specialist ?? DEFAULT_HOOK_SPECIALIST,
    topic: options.topic ?? defaultHookTopic(evidence.branch, input.session_id),
    summary: [hookSummary(input, transcriptFound), draftedSummary.text].filter((s) => s.trim()).join('\n\n'),
    draft: true,
    ...(draftedSummary.text.trim() ? { drafted: ['summary' as const] } : {}),
    handover_reason: hookHandoverReason(input),
    reason_kind: 'end_of_session',
    from: 'claude-code',
    session_id: input.session_id,
  };
  const prepared = await prepareHandover(request, { ...env, evidence, ...(session ? { sessionEvidence: session.evidence } : {}) });
  if (prepared.status === 'error') {
    return { ...prepared, event };
  }
  const result = await writeHandover(prepared.prepared);
  // The event's line is the job's too: a secret the handoff found is redacted in it.
  const said = redactKnown([event], prepared.prepared.secrets).texts[0];
  if (result.status === 'error') {
    return { ...result, event: said };
  }
  const p = result.package;
  const notes = safetyNetNotes(
    { files: p.touched_files.length + p.touched_files_omitted, testRuns: p.tests_run.length, turns: p.recent_turns.length, warnings: result.warnings.length },
    transcriptFound,
    refused && `${input.transcript_path} ${refused}`,
  );
  return { status: 'written', event: said, workspaceRoot: cwd, result, notes };
}
