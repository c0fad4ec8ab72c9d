// The session-log half of the evidence (docs/DESIGN.md §6): finds the workspace's transcripts and reads what is new
// since the previous handoff into test runs, recent turns and file edits. Incremental: `state` holds per file the
// offset (or newest item time) read and a fingerprint of its start, so a handoff's cost grows with new work, not history.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { CommandRun, UserRequest } from '../../core/handoff/draftFields';
import {
  emptySessionLogState,
  type SessionCommand,
  type SessionCompaction,
  type SessionLogState,
  type SessionSource,
  type SessionTurn,
} from '../../core/session/events';
import type { Compaction, TestRun, Turn } from '../../core/handoff/schema';
import { userRequestText } from '../../core/session/requests';
import { badRecordsNote } from '../../core/session/badRecords';
import { testRunsFrom } from '../../core/session/testDetection';
import { sessionPlan } from './claudeTaskList';
import { isCursorDbRef } from './readers/cursorDb';
import { cannotRead } from './readers/common';
import { fsErrorCode } from '../../core/handoff/fsErrors';
import { openRegularForReading } from './lines';
import { discover, reader } from './agentReaders';
import { clineUiFile } from './readers/cline';
import { READ_AGENTS, detectTranscript, formatWords } from './detect';
import type { RecorderRead } from './recorderLog';
import type { FoundTranscript, SessionLocations } from './discovery';
import { RequestsAndCommands, shownCwd } from './requestsAndCommands';
import type { HostAgent } from '../../core/agents/hostAgent';
import { newestPlan, planAfterRead, type EvidencePlan, type PlanCandidate } from './plans';

export const REMEMBERED_TURNS = 20;

export interface SessionLogOptions {
  readonly workspaceRoot: string;
  /** `auto` (find transcripts), `none`, or the path of one transcript (file or Cline task folder). */
  readonly mode?: string;
  /** Default all. */
  readonly sources?: readonly SessionSource[];
  readonly locations?: SessionLocations;
  readonly recorderFile?: string;
  readonly state?: SessionLogState;
  /** Default: the user's home folder. */
  readonly home?: string;
  /** The VS Code fork the extension runs in, when its own agent is read (its transcripts first, ties theirs). */
  readonly host?: HostAgent;
}

/** Shown in the handoff, so the user sees where facts came from. */
export interface TranscriptSummary {
  readonly source: SessionSource;
  readonly file: string;
  /** Commands the reader saw, not only those kept. */
  readonly commands: number;
  /** Test runs up to 1,000 and the newest 50 others (docs/DESIGN.md §6). */
  readonly commands_kept: number;
  readonly test_runs: number;
  readonly turns: number;
  readonly edits: number;
  readonly malformed: number;
  readonly skipped: number;
  readonly invalid_utf8: number;
  readonly error?: string;
}

export interface SessionLogEvidence {
  /** Oldest first. */
  readonly tests_run: TestRun[];
  /** Of the newest transcript (new ones, else those remembered), oldest first. */
  readonly recent_turns: Turn[];
  /** Once each (newest edit). */
  readonly file_edits: Array<{ path: string; tool: string; source: SessionSource }>;
  /** Empty ones (nothing read or remembered, no problem) left out. */
  readonly transcripts: TranscriptSummary[];
  readonly notes: string[];
  /** To save once the handoff is written. */
  readonly next_state: SessionLogState;
  readonly recorder_session?: { session_id: string; base_commit: string | null };
  /** The latest plan snapshot of the newest transcript that has one. */
  readonly plan?: EvidencePlan;
  /** Typed requests and corrections only, verbatim, oldest first: the newest {@link MAX_KEPT_USER_REQUESTS} across transcripts. */
  readonly user_requests?: ReadonlyArray<UserRequest & { readonly file: string | null }>;
  /** Kept or not, for the loss report (as are the other `_seen` counts). */
  readonly user_requests_seen?: number;
  /** Non-test commands grouped by command and folder, failures first, then newest. */
  readonly commands_run?: readonly CommandRun[];
  readonly commands_seen?: number;
  readonly turns_seen?: number;
  /** The latest compaction (by time, else of the newest transcript), its summary in the agent's words; `count` over all transcripts. */
  readonly compaction?: Compaction;
}

export { MAX_KEPT_USER_REQUESTS } from './requestsAndCommands';

/** Rewritten whole as they grow (or rows of a database), but their items carry absolute times, so resuming by time works even when the start changed. */
const RESUMED_BY_TIME: ReadonlySet<SessionSource> = new Set(['gemini', 'opencode', 'amp', 'goose', 'zed', 'kiro']);

const HEAD_BYTES = 4096;

/** sha1 (hex) of the first `n` bytes: a rewritten file gets a different fingerprint. */
async function headFingerprint(file: string, n: number): Promise<string> {
  let fh;
  try {
    fh = await openRegularForReading(file);
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return createHash('sha1').update(buf.subarray(0, bytesRead)).digest('hex');
  } catch {
    return '';
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Undefined when it does not exist (the caller says so), can be opened, or is a folder. */
async function whyNotReadable(p: string): Promise<string | undefined> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(p)).isDirectory();
  } catch (err) {
    return fsErrorCode(err) === 'ENOENT' ? undefined : cannotRead(p, err);
  }
  if (isFolder) return undefined;
  try {
    await (await openRegularForReading(p)).close();
    return undefined;
  } catch (err) {
    // Not a regular file (a FIFO, a device): the error says so, naming the path.
    return fsErrorCode(err) === undefined ? (err as Error).message : cannotRead(p, err);
  }
}

/** Never throws: unreadable files are notes. */
export async function collectSessionLog(opts: SessionLogOptions): Promise<SessionLogEvidence> {
  const state = opts.state ?? emptySessionLogState();
  const next: SessionLogState = { version: 1, files: { ...state.files } };
  const notes: string[] = [];
  const mode = opts.mode ?? 'auto';
  let found: FoundTranscript[] = [];
  if (mode === 'auto') {
    found = await discover(opts);
  } else if (mode !== 'none') {
    const detected = await detectTranscript(mode);
    if (!detected) {
      const exists = await stat(mode).catch(() => undefined);
      // A FIFO, a device, an unreadable file or a link loop: say why it was not read.
      const unreadableWhy = await whyNotReadable(mode);
      notes.push(
        unreadableWhy
          ? `Session log ${unreadableWhy}`
          : exists
            ? `Session log ${mode}: nothing in it is a transcript format this extension reads (${READ_AGENTS}); give the agent's own log file or task folder`
            : `Session log ${mode} was not found; give the path of an agent's log file or task folder`,
      );
    } else {
      if (detected.note) notes.push(`Session log: ${detected.note}`);
      found = [
        { source: detected.source, format: detected.format, file: detected.file, mtimeMs: (await stat(detected.file).catch(() => undefined))?.mtimeMs ?? 0 },
      ];
    }
  }
  if (opts.recorderFile && mode !== 'none') {
    found.push({ source: 'recorder', file: opts.recorderFile, mtimeMs: 0 });
  }

  const tests: TestRun[] = [];
  const edits = new Map<string, { path: string; tool: string; source: SessionSource }>();
  const transcripts: TranscriptSummary[] = [];
  let turnsOf: { mtime: number; turns: SessionTurn[] } | undefined;
  let recorderSession: SessionLogEvidence['recorder_session'];
  const asked = new RequestsAndCommands(opts.workspaceRoot);
  const plans: PlanCandidate[] = [];
  let compaction: { readonly c: Compaction; readonly mtime: number } | undefined;
  let compactions = 0;

  for (const t of found) {
    const contentFile = (t.source === 'cline' || t.source === 'roo' || t.source === 'kilo') && t.format !== 'cline-api' ? await clineUiFile(t.file) : t.file;
    const st = await stat(contentFile).catch(() => undefined);
    const prev = state.files[t.file];
    // Resume only if the part read last time is still there unchanged (same start, not shrunk).
    const resume = !!prev && !!st && st.size >= prev.offset && prev.head === (await headFingerprint(contentFile, prev.head_bytes));
    const sinceTime = resume || (prev && (RESUMED_BY_TIME.has(t.source) || isCursorDbRef(t.file))) ? prev?.last_time : undefined;
    const resumed = (resume && prev.offset > 0) || sinceTime !== undefined;
    const r = await reader(t)(t.file, {
      fromOffset: resume ? prev.offset : 0,
      sinceTime,
      workspaceRoot: opts.workspaceRoot,
      ...(resumed && prev?.plan ? { plan: { kind: 'plan' as const, ...prev.plan } } : {}),
    });
    if (t.source === 'recorder') {
      recorderSession = (r as RecorderRead).session ?? recorderSession;
    }
    const commands = r.events.filter((e): e is SessionCommand => e.kind === 'command');
    const runs = testRunsFrom(commands, t.source);
    tests.push(...runs);
    for (const e of r.events) {
      if (e.kind === 'file_edit') edits.set(e.path, { path: e.path, tool: e.tool, source: t.source });
    }
    const newTurns = r.events.filter((e): e is SessionTurn => e.kind === 'turn');
    const remembered = newTurns.length ? newTurns.slice(-REMEMBERED_TURNS) : (resume ? prev.turns : []).map((x) => ({ kind: 'turn' as const, ...x }));
    if (t.source !== 'recorder' && remembered.length && (!turnsOf || t.mtimeMs > turnsOf.mtime)) {
      turnsOf = { mtime: t.mtimeMs, turns: remembered };
    }
    const rememberedRequests = asked.add(t, r, resume ? (prev.user_requests ?? []) : [], t.mtimeMs || st?.mtimeMs || 0);
    const compacted = r.events.filter((e): e is SessionCompaction => e.kind === 'compaction').pop();
    compactions += Math.max(r.seen?.compactions ?? 0, compacted ? 1 : 0);
    if (compacted && !r.error && newerCompaction(compacted, t.mtimeMs, compaction)) {
      compaction = {
        c: { source: t.source, file: t.file, time: compacted.time ?? null, trigger: compacted.trigger ?? null, count: 1, text: compacted.text },
        mtime: t.mtimeMs,
      };
    }
    // The newest snapshot read now, else (only new lines or items read) the one remembered.
    const { plan, from } = await sessionPlan(t, planAfterRead(r.events, prev?.plan, resumed), opts.workspaceRoot);
    if (plan && !r.error) plans.push({ plan, source: t.source, file: from, mtimeMs: t.mtimeMs });
    const summary: TranscriptSummary = {
      source: t.source,
      file: t.file,
      commands: Math.max(r.seen?.commands ?? 0, commands.length),
      commands_kept: commands.length,
      test_runs: runs.length,
      turns: newTurns.length,
      edits: r.events.filter((e) => e.kind === 'file_edit').length,
      malformed: r.stats.malformed,
      skipped: r.stats.skipped,
      invalid_utf8: r.stats.invalid_utf8,
      ...(r.error ? { error: r.error } : {}),
    };
    // An empty session is not a source (VS Code writes an empty Copilot chat session at every start); its state is
    // still saved, so what it gets later is read from here.
    const empty =
      !r.error &&
      !plan &&
      !commands.length &&
      !newTurns.length &&
      !remembered.length &&
      !summary.edits &&
      !summary.malformed &&
      !summary.skipped &&
      !summary.invalid_utf8;
    if (!empty) transcripts.push(summary);
    const bad = badRecordsNote(contentFile, r.stats, resume && prev.offset > 0);
    if (bad && !r.error) notes.push(`Session log ${bad}`);
    if (r.error) {
      notes.push(`Session log: ${r.error}`);
    } else if (
      !bad &&
      !resume &&
      r.events.length === 0 &&
      r.stats.lines > 0 &&
      t.format !== 'cline-metadata' &&
      !(t.source === 'recorder' && (r as RecorderRead).session)
    ) {
      // Read from the start and nothing understood: say so rather than report an empty session. (A recording whose
      // only record is session_start was understood.)
      notes.push(
        `Session log ${t.file}: nothing in it was understood as ${formatWords(t.format ?? t.source)} (${r.stats.lines} ${r.stats.lines === 1 ? 'line' : 'lines'} read, no turn, command or edit); check the file is the agent's own log`,
      );
    }
    if (!r.error) {
      const headBytes = Math.min(HEAD_BYTES, r.end_offset || st?.size || 0);
      next.files[t.file] = {
        offset: r.end_offset,
        head_bytes: headBytes,
        head: await headFingerprint(contentFile, headBytes),
        ...(r.last_time !== undefined ? { last_time: Math.max(r.last_time, prev?.last_time ?? 0) } : {}),
        size: st?.size ?? 0,
        turns: remembered.map(({ role, text, time }) => ({ role, text, ...(time ? { time } : {}) })),
        ...(rememberedRequests.length ? { user_requests: rememberedRequests } : {}),
        ...(plan ? { plan } : {}),
      };
    }
  }
  tests.sort((a, b) => (a.started_at ?? '').localeCompare(b.started_at ?? ''));
  const plan = newestPlan(plans, opts.host?.source);
  return {
    // Relative to the workspace, as the Commands run section shows it: verify re-runs it there.
    tests_run: tests.map((t) => (t.cwd ? { ...t, cwd: shownCwd(t.cwd, opts.workspaceRoot) } : t)),
    recent_turns: (turnsOf?.turns ?? []).map((t) => ({ role: turnRole(t), text: t.text, ...(t.time ? { time: t.time } : {}) })),
    file_edits: [...edits.values()],
    transcripts,
    notes,
    next_state: next,
    ...(recorderSession ? { recorder_session: recorderSession } : {}),
    ...asked.result(),
    ...(plan ? { plan } : {}),
    ...(compaction ? { compaction: { ...compaction.c, count: Math.max(1, compactions) } } : {}),
  };
}

/** By time where both have one, else by the transcript's age. */
function newerCompaction(c: SessionCompaction, mtime: number, than: { readonly c: Compaction; readonly mtime: number } | undefined): boolean {
  if (!than) return true;
  if (c.time && than.c.time) return c.time > than.c.time;
  return mtime > than.mtime;
}

/**
 * `system` for user-role text the agent wrote (hook feedback, compaction summary, injected context), so Recent turns
 * never shows it as the user's words; a slash command the user typed stays the user's.
 */
export function turnRole(t: Pick<SessionTurn, 'role' | 'text' | 'injected'>): Turn['role'] {
  if (t.role !== 'user' || userRequestText(t) !== undefined || (!t.injected && t.text.trimStart().startsWith('/'))) return t.role;
  return 'system';
}
