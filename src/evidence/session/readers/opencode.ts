/**
 * OpenCode sessions in its JSON file storage, `~/.local/share/opencode/storage/`
 * (`$XDG_DATA_HOME/opencode/storage`; anomalyco/opencode, formerly sst/opencode:
 * `packages/opencode/src/storage/storage.ts`, the layout `storage/json-migration.ts` reads):
 *
 * - `project/<projectID>.json` — `{id, worktree, vcs, time}` (the id is the repository's first
 *   root commit, or `global` outside git);
 * - `session/<projectID>/<sessionID>.json` — `{id: "ses_…", projectID, directory, parentID?, title,
 *   time: {created, updated}}` (`parentID`: a sub-agent session started by the `task` tool);
 * - `message/<sessionID>/<messageID>.json` — `{id: "msg_…", sessionID, role: user|assistant,
 *   time: {created, completed?}, path?: {cwd, root}, summary?}`;
 * - `part/<messageID>/<partID>.json` — `{id: "prt_…", messageID, sessionID, type, …}`
 *   (`session/message-v2.ts`): `text` (`synthetic` / `ignored` ones are not shown to the user),
 *   `tool` with `tool`, `callID` and `state: {status: pending|running|completed|error, input,
 *   output?, error?, metadata?, time: {start, end}}`, `patch` with the `files` a step changed.
 *
 * Events: user and assistant text → turns (compaction summaries left out); the `bash` tool →
 * a command (`input.command`, `input.workdir`), its exit code from `metadata.exit` (`tool/bash.ts`),
 * its output from `metadata.output`; an `error` state (permission rejected, aborted) did not run;
 * `edit`, `write`, `multiedit` (`input.filePath`) and `apply_patch` / `patch` (`input.patchText`)
 * that completed → file edits; `patch` parts → file edits (`tool: "snapshot"`). IDs sort in
 * creation order, so files are read in name order, one at a time, each capped at
 * {@link MAX_LINE_BYTES} (a larger one is skipped and counted). Incremental reads use `sinceTime`
 * (message `time.created`, tool `time.end`), since every file is rewritten as it grows.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { cleanTurnText, emptyStats, outputTail, type ReadStats, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { MAX_LINE_BYTES, openRegularForReading } from '../lines';
import { patchPaths } from './codex';
import { accumulator, obj, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';

/** OpenCode tools that edit one file named by `input.filePath`. */
const FILE_TOOLS = new Set(['edit', 'write', 'multiedit']);
/** OpenCode tools that apply a patch in `input.patchText` (`*** Update File: …` lines). */
const PATCH_TOOLS = new Set(['apply_patch', 'patch']);

/**
 * Whether a file is an OpenCode storage session, message or part file, from its first bytes
 * (`head`) — ids carry their kind as a prefix (`ses_`, `msg_`, `prt_`). `fileName` is unused
 * beyond the `.json` ending every storage file has.
 */
export function looksLikeOpenCode(head: string, fileName: string): boolean {
  if (!fileName.endsWith('.json') || !head.trimStart().startsWith('{')) return false;
  const id = /"id"\s*:\s*"(ses|msg|prt)_[A-Za-z0-9]+"/.exec(head)?.[1];
  if (id === 'ses') return /"projectID"\s*:\s*"/.test(head) && /"directory"\s*:\s*"/.test(head);
  if (id === 'msg') return /"sessionID"\s*:\s*"ses_/.test(head) && /"role"\s*:\s*"(?:user|assistant)"/.test(head);
  if (id === 'prt') return /"messageID"\s*:\s*"msg_/.test(head) && /"sessionID"\s*:\s*"ses_/.test(head);
  return false;
}

/**
 * One storage JSON file as an object, read whole only when at most {@link MAX_LINE_BYTES}.
 * @returns undefined (counted in `stats`) for a file too large, unreadable or not a JSON object
 */
export async function readStorageJson(file: string, stats: ReadStats): Promise<Record<string, unknown> | undefined> {
  stats.lines++;
  let fh;
  try {
    fh = await openRegularForReading(file);
    if ((await fh.stat()).size > MAX_LINE_BYTES) {
      stats.skipped++;
      return undefined;
    }
    const v: unknown = JSON.parse(await fh.readFile('utf8'));
    const o = obj(v);
    if (!o) stats.malformed++;
    return o;
  } catch {
    stats.malformed++;
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** The `.json` files of a storage folder in name (= creation) order; none when it is missing. */
async function jsonFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

/** Where a storage file sits: the storage folder and the session it belongs to. */
export interface OpenCodeSessionRef {
  readonly storage: string;
  readonly sessionID: string;
  /** The session file, when known. */
  readonly sessionFile?: string;
}

/**
 * The storage folder and session of a session, message or part file, from its path
 * (`<storage>/session/<projectID>/<id>.json`, `<storage>/message/<sessionID>/<id>.json`,
 * `<storage>/part/<messageID>/<id>.json`) and, for a part, its `sessionID` field.
 */
export async function openCodeSessionOf(file: string): Promise<OpenCodeSessionRef | undefined> {
  const abs = path.resolve(file);
  const kind = path.basename(path.dirname(path.dirname(abs)));
  const storage = path.dirname(path.dirname(path.dirname(abs)));
  if (kind === 'session') return { storage, sessionID: path.basename(abs, '.json'), sessionFile: abs };
  if (kind === 'message') return { storage, sessionID: path.basename(path.dirname(abs)) };
  if (kind === 'part') {
    const sessionID = str((await readStorageJson(abs, emptyStats()))?.sessionID);
    return sessionID ? { storage, sessionID } : undefined;
  }
  return undefined;
}

/** Adds the events of one finished tool part. */
function addTool(acc: SessionAccumulator, part: Record<string, unknown>, cwd: string | undefined, time: string | undefined, workspaceRoot: string | undefined): void {
  const tool = str(part.tool) ?? '';
  const state = obj(part.state) ?? {};
  const input = obj(state.input) ?? {};
  const meta = obj(state.metadata) ?? {};
  const done = state.status === 'completed';
  const at = time ? { time } : {};
  const base = cwd ?? workspaceRoot;
  if (tool === 'bash') {
    const command = str(input.command);
    if (!command) return;
    const output = str(meta.output) ?? str(state.output);
    // `<bash_metadata>` notes a command the user aborted (tool/bash.ts): no result.
    const aborted = !done || /<bash_metadata>[\s\S]*User aborted the command/.test(output ?? '');
    acc.add({
      kind: 'command',
      command,
      cwd: str(input.workdir) ?? cwd ?? null,
      exit_code: !aborted && typeof meta.exit === 'number' ? meta.exit : null,
      ran: !aborted,
      output_tail: outputTail(output ?? str(state.error)),
      ...at,
    });
  } else if (done && FILE_TOOLS.has(tool)) {
    const p = str(input.filePath);
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool, ...at });
  } else if (done && PATCH_TOOLS.has(tool)) {
    for (const p of patchPaths(str(input.patchText) ?? '')) {
      acc.add({ kind: 'file_edit', path: base ? relativePath(path.resolve(base, p), base) : p, tool, ...at });
    }
  }
}

/** Epoch milliseconds of a `time` field's member, or NaN. */
function timeOf(o: Record<string, unknown> | undefined, key: string): number {
  const t = obj(o?.time)?.[key];
  return typeof t === 'number' ? t : Number.NaN;
}

/**
 * Reads one OpenCode session from its storage files: `file` is the session file (a message or
 * part file of the session also works). Never throws: a session with no message folder is an
 * error in `error`; unreadable or oversized files are counted in `stats`.
 */
export async function readOpenCode(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator();
  const stats = emptyStats();
  const since = opts.sinceTime ?? -Infinity;
  const ref = await openCodeSessionOf(file).catch(() => undefined);
  if (!ref) return { ...transcriptRead('opencode', file, acc, { ...stats, skipped: 1 }, 0), error: `${file} is not in an OpenCode storage folder (storage/session/<project>/<session>.json); it was not read` };
  const messageDir = path.join(ref.storage, 'message', ref.sessionID);
  try {
    await readdir(messageDir);
  } catch (err) {
    return unreadable('opencode', messageDir, err);
  }
  const session = ref.sessionFile ? await readStorageJson(ref.sessionFile, emptyStats()) : undefined;
  const sessionDir = str(session?.directory);
  let lastTime = 0;
  const seen = (t: number): boolean => {
    if (Number.isFinite(t)) lastTime = Math.max(lastTime, t);
    return !(Number.isFinite(t) && t <= since);
  };
  for (const m of await jsonFiles(messageDir)) {
    const msg = await readStorageJson(path.join(messageDir, m), stats);
    const msgID = str(msg?.id) ?? path.basename(m, '.json');
    const role = msg?.role === 'user' ? 'user' : msg?.role === 'assistant' ? 'assistant' : undefined;
    if (!msg || !role) {
      if (msg) stats.skipped++;
      continue;
    }
    const created = timeOf(msg, 'created');
    const fresh = seen(created);
    const time = Number.isFinite(created) ? new Date(created).toISOString() : undefined;
    const cwd = str(obj(msg.path)?.cwd) ?? sessionDir;
    const texts: string[] = [];
    const partDir = path.join(ref.storage, 'part', msgID);
    for (const p of await jsonFiles(partDir)) {
      const part = await readStorageJson(path.join(partDir, p), stats);
      if (!part) continue;
      if (part.type === 'text') {
        if (typeof part.text === 'string' && part.synthetic !== true && part.ignored !== true) texts.push(part.text);
      } else if (part.type === 'tool') {
        const state = obj(part.state);
        const end = timeOf(state, 'end');
        // Pending and running tools are read when they finish (their end time is then new).
        if ((state?.status === 'completed' || state?.status === 'error') && seen(end)) {
          addTool(acc, part, cwd, Number.isFinite(end) ? new Date(end).toISOString() : time, opts.workspaceRoot ?? sessionDir);
        }
      } else if (part.type === 'patch' && fresh && Array.isArray(part.files)) {
        for (const f of part.files) {
          if (typeof f === 'string') acc.add({ kind: 'file_edit', path: relativePath(f, opts.workspaceRoot ?? sessionDir), tool: 'snapshot', ...(time ? { time } : {}) });
        }
      }
    }
    const text = fresh && !(role === 'assistant' && msg.summary === true) ? cleanTurnText(texts.join('\n\n')) : undefined;
    if (text) acc.add({ kind: 'turn', role, text, ...(time ? { time } : {}) });
  }
  return { ...transcriptRead('opencode', ref.sessionFile ?? file, acc, stats, 0), ...(lastTime ? { last_time: lastTime } : {}) };
}
