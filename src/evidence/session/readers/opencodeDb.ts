// OpenCode 1.2+'s SQLite `opencode.db` (`session/session.sql.ts`): tables `session` (`id`, `parent_id`, `directory`,
// `time_updated`, `time_archived` …), `message` and `part` (`id`, `session_id`, `data`: the file storage's JSON without
// its ids), so the events are the same. Read-only (sqliteFile.ts), rows iterated, so
// memory stays bounded by one message; without it the read says so in `error`, naming the fix.
import path from 'node:path';
import { countBadRecord, emptyStats, type TranscriptRead } from '../../../core/session/events';
import { accumulator, obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { OpenCodeEvents } from './opencodeEvents';
import { rows, withReadOnlyDb, type SqliteDatabase } from './sqliteFile';

export const OPENCODE_DB = 'opencode.db';

/** `…/opencode.db` or `…/opencode.db#ses_…`. */
export function isOpenCodeDbRef(ref: string): boolean {
  return /(?:^|[\\/])opencode\.db(?:#ses_[\w-]+)?$/.test(ref);
}

export function openCodeDbRef(dbFile: string, sessionID: string): string {
  return `${dbFile}#${sessionID}`;
}

export interface OpenCodeDbSession {
  readonly id: string;
  readonly parentID?: string;
  readonly directory: string;
  readonly updated: number;
}

/** @throws as {@link withReadOnlyDb} */
export function withOpenCodeDb<T>(dbFile: string, use: (db: SqliteDatabase) => T): T {
  return withReadOnlyDb(dbFile, `OpenCode 1.2+ sessions in ${path.basename(dbFile)}`, use);
}

/** Not archived, newest first. @throws as {@link withOpenCodeDb} */
export function openCodeDbSessions(dbFile: string, limit = 2000): OpenCodeDbSession[] {
  return withOpenCodeDb(dbFile, (db) => {
    const out: OpenCodeDbSession[] = [];
    for (const r of rows(
      db.prepare('SELECT id, parent_id, directory, time_updated FROM session WHERE time_archived IS NULL ORDER BY time_updated DESC LIMIT ?'),
      limit,
    )) {
      const o = obj(r);
      const id = str(o?.id);
      if (!o || !id) continue;
      out.push({ id, ...(str(o.parent_id) ? { parentID: str(o.parent_id) } : {}), directory: str(o.directory) ?? '', updated: Number(o.time_updated) || 0 });
    }
    return out;
  });
}

function parse(data: unknown): Record<string, unknown> | undefined {
  try {
    return typeof data === 'string' ? obj(JSON.parse(data)) : undefined;
  } catch {
    return undefined;
  }
}

/** `ref`: `…/opencode.db#<sessionID>`, or the database alone (its newest session in `opts.workspaceRoot`). Never throws. */
export async function readOpenCodeDb(ref: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const [dbFile, wanted] = ref.split('#');
  const stats = emptyStats();
  try {
    return withOpenCodeDb(dbFile, (db) => {
      const session = obj(
        wanted
          ? db.prepare('SELECT id, directory FROM session WHERE id = ?').all(wanted)[0]
          : db
              .prepare('SELECT id, directory FROM session WHERE parent_id IS NULL AND directory = ? ORDER BY time_updated DESC LIMIT 1')
              .all(path.resolve(opts.workspaceRoot ?? '.'))[0],
      );
      const id = str(session?.id);
      if (!id)
        return {
          ...transcriptRead('opencode', ref, accumulator(), { ...stats, skipped: 1 }, 0),
          error: `${ref}: no such OpenCode session${wanted ? '' : ` for ${opts.workspaceRoot ?? 'this folder'}`}`,
        };
      const events = new OpenCodeEvents(opts.sinceTime ?? -Infinity, str(session?.directory), opts.workspaceRoot);
      const partsOf = db.prepare('SELECT id, data FROM part WHERE message_id = ? ORDER BY id');
      for (const r of rows(db.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id'), id)) {
        stats.lines++;
        const m = obj(r);
        const msg = parse(m?.data);
        if (!m || !msg) {
          countBadRecord(stats, stats.lines, 'item');
          continue;
        }
        const parts: Array<Record<string, unknown>> = [];
        for (const pr of rows(partsOf, m.id)) {
          stats.lines++;
          const part = parse(obj(pr)?.data);
          if (part) parts.push({ id: obj(pr)?.id, ...part });
          else countBadRecord(stats, stats.lines, 'item');
        }
        events.message({ id: m.id, ...msg }, parts, stats);
      }
      return { ...transcriptRead('opencode', openCodeDbRef(dbFile, id), events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
    });
  } catch (err) {
    return unreadable('opencode', dbFile, err);
  }
}
