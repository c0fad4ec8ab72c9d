/**
 * The Claude Code hook job: a safety-net handoff written from Claude Code's `SessionEnd`
 * and `PreCompact` hooks (docs/DESIGN.md §6; Claude Code hooks reference). The hook's JSON
 * input names the session, its transcript and its folder; the job finds the workspace,
 * decides whether to write (only inside a git project unless a folder is named), reads git
 * and the transcript, drafts what the transcript answers (the plan's open and done items,
 * the user's requests, the commands run, a summary: src/engine/draft/evidenceDraft.ts) and hands over
 * to the default specialist on the branch's topic.
 * The pure parts (the input schema, the texts) are in src/core/agents/claudeHook.ts; the
 * CLI's `hook` subcommand (src/cli/hook.ts) reads standard input and prints the outcome.
 *
 *   hook JSON ─▶ parseClaudeHookInput ─▶ workspace ─▶ (git project?) ─▶ evidence ─▶ draft ─▶ handover ─▶ outcome
 */
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
import { handoverError, partsError, type HandoverError } from '../../core/handoff/errors';
import { LINK_LOOP_WORDS, fsErrorCode } from '../../core/handoff/fsErrors';
import type { HandoverOk } from '../../core/handoff/schema';
import { redactKnown, redactSecrets } from '../../core/safety/redact';
import { cliSessionLogStatePath } from '../project/cliSession';
import type { HandoverEnvironment } from '../project/environment';
import { draftSummaryFromEvidence } from '../draft/evidenceDraft';
import { collectEvidenceFor, prepareHandover, readSessionLog, writeHandover } from '../handover/handover';
import { workspaceFolderOf } from '../project/project';

/**
 * What a path names when it exists but is no regular file (links followed): `is a FIFO
 * (named pipe)`, `is a character device`, `is a block device`, `is a socket` or `is a
 * folder`, or when it is a link loop (`is a link loop (…)`). Only stat is called: a FIFO is
 * never opened, so this never blocks.
 * @returns the words, or undefined for a regular file or a path that does not exist
 */
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

/** What the hook's caller chose besides the hook input. */
export interface ClaudeHookOptions {
  /** Who receives the safety net; default {@link DEFAULT_HOOK_SPECIALIST}. */
  readonly specialist?: string;
  /** The topic; default the git branch, else `session <short id>`. */
  readonly topic?: string;
  /**
   * A folder named explicitly (the CLI's `--cwd`, absolute): the workspace is found from
   * it instead of the input's `cwd`, and a safety net is written there even outside git.
   */
  readonly folder?: string;
  /** `handoff.directory` (the CLI's `--dir`); default `.handoff`. */
  readonly handoffDirectory?: string;
  /** Called once the handoff will count no more tokens ({@link HandoverEnvironment.onCountingDone}). */
  readonly onCountingDone?: () => void;
}

/**
 * Outcome of {@link runClaudeHook}. `event` is the hook event in words, without secrets
 * (`SessionEnd (reason: clear)`).
 * - `written`: the safety net, with the notes of the hook's one line ({@link safetyNetNotes});
 * - `skipped`: nothing written — `because` the event is not one of {@link SAFETY_NET_EVENTS}
 *   (`event`), or the workspace is not in a git repository and no folder was named (`outside-git`);
 * - an error: the hook input is unusable (`field: "stdin"`), its folder is missing
 *   (`field: "cwd"`; path `["cwd"]` for the folder named explicitly, `["hook_input", "cwd"]`
 *   for the input's), or the handoff failed (then `event` is set).
 */
export type ClaudeHookOutcome =
  | { readonly status: 'written'; readonly event: string; readonly workspaceRoot: string; readonly result: HandoverOk; readonly notes: readonly string[] }
  | { readonly status: 'skipped'; readonly because: 'outside-git'; readonly event: string; readonly workspaceRoot: string }
  | { readonly status: 'skipped'; readonly because: 'event'; readonly event: string }
  | (HandoverError & { readonly event?: string });

/**
 * Runs the hook: reads the hook input, finds the workspace (the explicit folder, else the
 * input's `cwd`), skips folders outside git unless a folder was named, and writes a
 * safety-net handoff from git and the session transcript (git only when the transcript is
 * missing), recording Claude Code's `session_id`.
 * @param rawInput the hook's JSON, as read from standard input
 * @returns the outcome; never throws for bad input or a failed handoff
 */
export async function runClaudeHook(rawInput: string, options: ClaudeHookOptions = {}): Promise<ClaudeHookOutcome> {
  const parsed = parseClaudeHookInput(rawInput);
  if (!parsed.ok) {
    return handoverError(parsed.message, 'stdin');
  }
  const input = parsed.input;
  // The event in words for the hook's line, without a secret a reason might carry (docs/DESIGN.md §7, "Nothing leaked"),
  // awaited before any outcome: a failure to redact still ends the hook before it writes.
  // The first redaction loads secretlint and compiles its rules on the main thread: on the way
  // to a handoff it starts once the evidence's git processes have been spawned, so that they run
  // while it loads (started first, it held back the workspace's git process and every one after
  // it; one turn of the event loop after the collection is still before status is spawned,
  // which waits for the pathspec's realpath).
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
  // A hook set up for every project (~/.claude/settings.json) also runs in sessions outside
  // any repository — the home folder, /tmp, / — and must not leave a .handoff folder there.
  // Only an explicitly named folder is written to outside git.
  // Whether git answered the folder above: asking git again about its own top level (what
  // repositoryRootOf did here) answers the same, one process later.
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
  const env: HandoverEnvironment = {
    workspaceRoot: cwd,
    handoffDirectory: options.handoffDirectory,
    sessionId: input.session_id,
    sessionLog: { mode: transcriptFound ? transcript : 'none', statePath: cliSessionLogStatePath(cwd) },
    ...(options.onCountingDone ? { onCountingDone: options.onCountingDone } : {}),
    // git's answers from finding the workspace: the evidence starts from them (one process fewer).
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
  // Issue 15: the summary says the hook wrote it, then what the transcript answers; the rest is drafted by the engine (`draft`).
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
