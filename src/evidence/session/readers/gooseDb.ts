// Goose's SQLite `sessions.db` (block/goose `session/session_manager.rs`, beside the JSON Lines it replaced in the same
// `sessions` folder): table `sessions` (`id`, `working_dir`, `updated_at` as SQLite date text …) and `messages`
// (`session_id`, `role`, `content_json`: a `Message`'s content list, `created_timestamp` in seconds, `timestamp`, the
// order Goose reads them in). Read-only (sqliteFile.ts), rows iterated, so memory stays
// bounded by one message; without it the read says so in `error`, naming the fix.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { countBadRecord, emptyStats, type TranscriptRead } from '../../../core/session/events';
import { transcriptRead, unreadable, type ReaderOptions } from './common';
import { GooseEvents, readGoose } from './goose';
import { isSqliteFile, rows, sqliteStoreOf, withReadOnlyDb, type SqliteDatabase } from './sqliteFile';

export const GOOSE_DB = 'sessions.db';

export const GooseDbSessionSchema = z.looseObject({
  id: z.string(),
  working_dir: z.string(),
  /** Milliseconds since the epoch, from `updated_at` (both `datetime('now')` text and RFC 3339). */
  updated: z.number().nullable().catch(null),
});
export const GooseDbMessageSchema = z.looseObject({
  role: z.string(),
  content_json: z.string(),
  /** Seconds since the epoch. */
  created_timestamp: z.number().nullable().catch(null),
});

export interface GooseDbSession {
  readonly id: string;
  readonly workingDir: string;
  /** Milliseconds since the epoch; 0 when unknown. */
  readonly updated: number;
}

/** The database of `ref` (a file, or `…/sessions.db#<sessionID>`) when it is Goose's, by its tables (sqliteStoreOf). */
export async function gooseDbOf(ref: string): Promise<{ dbFile: string; id?: string } | undefined> {
  return sqliteStoreOf(ref, GOOSE_DB, hasGooseTables, splitGooseDbRef);
}

/** `sessions.db` (or one of its sessions) or a JSON Lines session. Never throws. */
export async function readGooseSession(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const whole = (await stat(file).catch(() => undefined))?.isFile();
  const dbFile = whole ? file : splitGooseDbRef(file).dbFile;
  return (await isSqliteFile(dbFile)) ? readGooseDb(file, opts) : readGoose(file, opts);
}

/** `…/sessions.db#<sessionID>`: one session of the database; the part before `#` is the database file. */
export function gooseDbRef(dbFile: string, sessionID: string): string {
  return `${dbFile}#${sessionID}`;
}

/** The database file and the session id of a `…#<id>` reference (no `#`: the database alone). */
export function splitGooseDbRef(ref: string): { dbFile: string; id?: string } {
  const m = /^(.*)#([\w.-]+)$/.exec(ref);
  return m ? { dbFile: m[1], id: m[2] } : { dbFile: ref };
}

/** @throws as {@link withReadOnlyDb} */
function withGooseDb<T>(dbFile: string, use: (db: SqliteDatabase) => T): T {
  return withReadOnlyDb(dbFile, `Goose sessions in ${path.basename(dbFile)}`, use);
}

/** Whether the tables Goose keeps its sessions in are there: the content, not the name, says it is Goose's. */
function hasGooseTables(db: SqliteDatabase): boolean {
  const columns = (table: string): Set<string> =>
    new Set(
      db
        .prepare('SELECT name FROM pragma_table_info(?)')
        .all(table)
        .map((r) => String((r as { name?: unknown }).name)),
    );
  const s = columns('sessions');
  const m = columns('messages');
  return s.has('id') && s.has('working_dir') && m.has('session_id') && m.has('content_json') && m.has('created_timestamp');
}

const UPDATED_MS = `CAST(ROUND((julianday(updated_at) - 2440587.5) * 86400000) AS INTEGER)`;

/** Newest first. @throws when no SQLite can be loaded or the file is no Goose database */
export function gooseDbSessions(dbFile: string, limit = 2000): GooseDbSession[] {
  return withGooseDb(dbFile, (db) => {
    if (!hasGooseTables(db)) throw new Error(`${dbFile} holds no Goose sessions table`);
    const out: GooseDbSession[] = [];
    for (const r of rows(db.prepare(`SELECT id, working_dir, ${UPDATED_MS} AS updated FROM sessions ORDER BY updated DESC LIMIT ?`), limit)) {
      const s = GooseDbSessionSchema.safeParse(r);
      if (s.success) out.push({ id: s.data.id, workingDir: s.data.working_dir, updated: s.data.updated ?? 0 });
    }
    return out;
  });
}

/** `ref`: `…/sessions.db#<id>`, or the database alone (its newest session in `opts.workspaceRoot`). Never throws. */
export async function readGooseDb(ref: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const { dbFile, id: wanted } = (await stat(ref).catch(() => undefined))?.isFile() ? { dbFile: ref, id: undefined } : splitGooseDbRef(ref);
  const stats = emptyStats();
  try {
    return withGooseDb(dbFile, (db) => {
      if (!hasGooseTables(db)) throw new Error(`${dbFile} holds no Goose sessions table`);
      const found = wanted
        ? db.prepare('SELECT id, working_dir FROM sessions WHERE id = ?').all(wanted)[0]
        : db
            .prepare(`SELECT id, working_dir FROM sessions WHERE working_dir = ? ORDER BY ${UPDATED_MS} DESC LIMIT 1`)
            .all(path.resolve(opts.workspaceRoot ?? '.'))[0];
      const session = z.looseObject({ id: z.string(), working_dir: z.string() }).safeParse(found);
      if (!session.success) {
        const events = new GooseEvents(opts);
        return {
          ...transcriptRead('goose', ref, events.acc, { ...stats, skipped: 1 }, 0),
          error: `${ref}: no such Goose session${wanted ? '' : ` for ${opts.workspaceRoot ?? 'this folder'}`}`,
        };
      }
      const events = new GooseEvents(opts, session.data.working_dir);
      let last: number | undefined;
      for (const r of rows(
        db.prepare('SELECT role, content_json, created_timestamp FROM messages WHERE session_id = ? ORDER BY timestamp, id'),
        session.data.id,
      )) {
        stats.lines++;
        const m = GooseDbMessageSchema.safeParse(r);
        let content: unknown;
        try {
          content = m.success ? JSON.parse(m.data.content_json) : undefined;
        } catch {
          content = undefined;
        }
        if (!m.success || content === undefined) {
          countBadRecord(stats, stats.lines, 'item');
          continue;
        }
        const created = m.data.created_timestamp ?? undefined;
        if (!events.message({ role: m.data.role, content, ...(created !== undefined ? { created } : {}) })) stats.skipped++;
        else if (created !== undefined) last = Math.max(last ?? created, created);
      }
      const read = transcriptRead('goose', gooseDbRef(dbFile, session.data.id), events.acc, stats, 0);
      return last !== undefined ? { ...read, last_time: last * 1000 } : read;
    });
  } catch (err) {
    return unreadable('goose', dbFile, err);
  }
}
