/**
 * OpenCode 1.2 and later keep every session in one SQLite database, `opencode.db` beside the
 * old `storage/` folder (`~/.local/share/opencode/opencode.db`, WAL journal; anomalyco/opencode
 * `packages/opencode/src/session/session.sql.ts`): tables `session` (`id`, `project_id`,
 * `parent_id`, `directory`, `time_created`, `time_updated`, `time_archived` …), `message`
 * (`id`, `session_id`, `time_created`, `data`: the message JSON without its ids) and `part`
 * (`id`, `message_id`, `session_id`, `data`: the part JSON without its ids) — the JSON shapes of
 * the file storage, so the events are the same (./opencodeEvents.ts).
 *
 * Read-only, with Node's own `node:sqlite` (Node 22.13 and later; VS Code's extension host has
 * it): SQLite reads pages on demand and rows are iterated, so memory stays bounded by one
 * message and its parts. Where the running Node has no `node:sqlite` (Node 20), the database
 * cannot be read and the read says so in `error`, naming the fix.
 */
import path from 'node:path';
import { countBadRecord, emptyStats, type TranscriptRead } from '../../../core/session/events';
import { accumulator, obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { OpenCodeEvents } from './opencodeEvents';

/** OpenCode's database file name. */
export const OPENCODE_DB = 'opencode.db';

/** The part of `node:sqlite` used here. */
interface Statement {
  all(...params: unknown[]): unknown[];
  iterate?(...params: unknown[]): IterableIterator<unknown>;
}
interface Database {
  prepare(sql: string): Statement;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => Database;
}

/** Node's `node:sqlite`, or undefined when this Node has none (before 22.13). */
export function nodeSqlite(): SqliteModule | undefined {
  try {
    const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    return get?.('node:sqlite') as SqliteModule | undefined;
  } catch {
    return undefined;
  }
}

/** Whether `ref` names OpenCode's database (`…/opencode.db`) or one session in it (`…/opencode.db#ses_…`). */
export function isOpenCodeDbRef(ref: string): boolean {
  return /(?:^|[\\/])opencode\.db(?:#ses_[\w-]+)?$/.test(ref);
}

/** `opencode.db#<sessionID>` for one session of the database. */
export function openCodeDbRef(dbFile: string, sessionID: string): string {
  return `${dbFile}#${sessionID}`;
}

/** One session row, as discovery needs it. */
export interface OpenCodeDbSession {
  readonly id: string;
  readonly parentID?: string;
  readonly directory: string;
  readonly updated: number;
}

function rows(st: Statement, ...params: unknown[]): Iterable<unknown> {
  return st.iterate ? st.iterate(...params) : st.all(...params);
}

/** Opens the database read-only, runs `use`, closes it. @throws when `node:sqlite` is missing or the file cannot be opened */
export function withOpenCodeDb<T>(dbFile: string, use: (db: Database) => T): T {
  const sqlite = nodeSqlite();
  if (!sqlite) throw new Error(`this Node (${process.version}) has no node:sqlite; OpenCode 1.2+ sessions in ${path.basename(dbFile)} are read with Node 22.13 or later (VS Code's own, or the CLI run with a newer node)`);
  const db = new sqlite.DatabaseSync(dbFile, { readOnly: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** The sessions not archived, newest first (at most `limit`). @throws as {@link withOpenCodeDb} */
export function openCodeDbSessions(dbFile: string, limit = 2000): OpenCodeDbSession[] {
  return withOpenCodeDb(dbFile, (db) => {
    const out: OpenCodeDbSession[] = [];
    for (const r of rows(db.prepare('SELECT id, parent_id, directory, time_updated FROM session WHERE time_archived IS NULL ORDER BY time_updated DESC LIMIT ?'), limit)) {
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

/**
 * Reads one session of OpenCode's database: `ref` is `…/opencode.db#<sessionID>`, or the
 * database alone (then its newest session in `opts.workspaceRoot`). Never throws.
 */
export async function readOpenCodeDb(ref: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const [dbFile, wanted] = ref.split('#');
  const stats = emptyStats();
  try {
    return withOpenCodeDb(dbFile, (db) => {
      const session = obj(
        wanted
          ? db.prepare('SELECT id, directory FROM session WHERE id = ?').all(wanted)[0]
          : db.prepare('SELECT id, directory FROM session WHERE parent_id IS NULL AND directory = ? ORDER BY time_updated DESC LIMIT 1').all(path.resolve(opts.workspaceRoot ?? '.'))[0],
      );
      const id = str(session?.id);
      if (!id) return { ...transcriptRead('opencode', ref, accumulator(), { ...stats, skipped: 1 }, 0), error: `${ref}: no such OpenCode session${wanted ? '' : ` for ${opts.workspaceRoot ?? 'this folder'}`}` };
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
