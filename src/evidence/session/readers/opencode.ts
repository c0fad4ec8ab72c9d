// OpenCode sessions in its JSON file storage (up to 1.1; 1.2+ keeps them in `opencode.db`, ./opencodeDb.ts).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { countBadRecord, emptyStats, type ReadStats, type TranscriptRead } from '../../../core/session/events';
import { MAX_LINE_BYTES, openRegularForReading } from '../lines';
import { accumulator, obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { isOpenCodeDbRef, readOpenCodeDb } from './opencodeDb';
import { OpenCodeEvents } from './opencodeEvents';

/** Ids carry their kind as a prefix (`ses_`, `msg_`, `prt_`); every storage file ends in `.json`. */
export function looksLikeOpenCode(head: string, fileName: string): boolean {
  if (!fileName.endsWith('.json') || !head.trimStart().startsWith('{')) return false;
  const id = /"id"\s*:\s*"(ses|msg|prt)_[A-Za-z0-9]+"/.exec(head)?.[1];
  if (id === 'ses') return /"projectID"\s*:\s*"/.test(head) && /"directory"\s*:\s*"/.test(head);
  if (id === 'msg') return /"sessionID"\s*:\s*"ses_/.test(head) && /"role"\s*:\s*"(?:user|assistant)"/.test(head);
  if (id === 'prt') return /"messageID"\s*:\s*"msg_/.test(head) && /"sessionID"\s*:\s*"ses_/.test(head);
  return false;
}

/** Read whole only when at most {@link MAX_LINE_BYTES}; undefined (counted in `stats`) when too large, unreadable or not an object. */
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

/** Name order is creation order. */
async function jsonFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

export interface OpenCodeSessionRef {
  readonly storage: string;
  readonly sessionID: string;
  readonly sessionFile?: string;
}

/** From the path and, for a part, its `sessionID` field. */
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
 * `file`: the session file (or one of its message or part files), or `opencode.db#<sessionID>`. The storage
 * `~/.local/share/opencode/storage/`, IDs sorting in creation order:
 * - `project/<projectID>.json` `{id, worktree, vcs, time}`; `session/<projectID>/<sessionID>.json` `{id: "ses_…",
 *   projectID, directory, parentID?, title, time: {created, updated}}` (`parentID`: a `task` sub-agent)
 * - `message/<sessionID>/<messageID>.json` `{id: "msg_…", sessionID, role, time: {created, completed?}, path?, summary?}`
 * - `part/<messageID>/<partID>.json` `{id: "prt_…", messageID, sessionID, type, …}`
 * Every file is rewritten as it grows, so incremental reads go by `sinceTime`. Never throws: a session with no
 * message folder says so in `error`.
 */
export async function readOpenCode(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  if (isOpenCodeDbRef(file)) return readOpenCodeDb(file, opts);
  const stats = emptyStats();
  const ref = await openCodeSessionOf(file).catch(() => undefined);
  if (!ref)
    return {
      ...transcriptRead('opencode', file, accumulator(), { ...stats, skipped: 1 }, 0),
      error: `${file} is not in an OpenCode storage folder (storage/session/<project>/<session>.json); it was not read`,
    };
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
