/**
 * OpenCode sessions in its JSON file storage, `~/.local/share/opencode/storage/`
 * (`$XDG_DATA_HOME/opencode/storage`), used up to OpenCode 1.1 (1.2 moved to `opencode.db`:
 * ./opencodeDb.ts). anomalyco/opencode, formerly sst/opencode: `packages/opencode/src/storage/storage.ts`,
 * the layout `storage/json-migration.ts` reads:
 *
 * - `project/<projectID>.json` — `{id, worktree, vcs, time}` (the id is the repository's first
 *   root commit, or `global` outside git);
 * - `session/<projectID>/<sessionID>.json` — `{id: "ses_…", projectID, directory, parentID?, title,
 *   time: {created, updated}}` (`parentID`: a sub-agent session started by the `task` tool);
 * - `message/<sessionID>/<messageID>.json` — `{id: "msg_…", sessionID, role: user|assistant,
 *   time: {created, completed?}, path?: {cwd, root}, summary?}`;
 * - `part/<messageID>/<partID>.json` — `{id: "prt_…", messageID, sessionID, type, …}`.
 *
 * The events of messages and parts are in ./opencodeEvents.ts. IDs sort in creation order, so
 * files are read in name order, one at a time, each capped at {@link MAX_LINE_BYTES} (a larger
 * one is skipped and counted). Incremental reads use `sinceTime` (message `time.created`, tool
 * `time.end`), since every file is rewritten as it grows.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { countBadRecord, emptyStats, type ReadStats, type TranscriptRead } from '../../../core/session/events';
import { MAX_LINE_BYTES, openRegularForReading } from '../lines';
import { accumulator, obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { isOpenCodeDbRef, readOpenCodeDb } from './opencodeDb';
import { OpenCodeEvents } from './opencodeEvents';

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
    const text = await fh.readFile('utf8');
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      v = undefined;
    }
    const o = obj(v);
    if (!o) countBadRecord(stats, stats.lines, 'item');
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

/**
 * Reads one OpenCode session: `file` is its session file in the JSON storage (a message or part
 * file of the session also works), or OpenCode 1.2+'s `opencode.db` (`opencode.db#<sessionID>`
 * names one session; see ./opencodeDb.ts). Never throws: a session with no message folder is an
 * error in `error`; unreadable or oversized files are counted in `stats`.
 */
export async function readOpenCode(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  if (isOpenCodeDbRef(file)) return readOpenCodeDb(file, opts);
  const stats = emptyStats();
  const ref = await openCodeSessionOf(file).catch(() => undefined);
  if (!ref) return { ...transcriptRead('opencode', file, accumulator(), { ...stats, skipped: 1 }, 0), error: `${file} is not in an OpenCode storage folder (storage/session/<project>/<session>.json); it was not read` };
  const messageDir = path.join(ref.storage, 'message', ref.sessionID);
  try {
    await readdir(messageDir);
  } catch (err) {
    return unreadable('opencode', messageDir, err);
  }
  const session = ref.sessionFile ? await readStorageJson(ref.sessionFile, emptyStats()) : undefined;
  const events = new OpenCodeEvents(opts.sinceTime ?? -Infinity, str(session?.directory), opts.workspaceRoot);
  for (const m of await jsonFiles(messageDir)) {
    const msg = await readStorageJson(path.join(messageDir, m), stats);
    if (!msg) continue;
    const partDir = path.join(ref.storage, 'part', str(msg.id) ?? path.basename(m, '.json'));
    const parts: Array<Record<string, unknown>> = [];
    for (const p of await jsonFiles(partDir)) {
      const part = await readStorageJson(path.join(partDir, p), stats);
      if (part) parts.push(part);
    }
    events.message(msg, parts, stats);
  }
  return { ...transcriptRead('opencode', ref.sessionFile ?? file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
}
