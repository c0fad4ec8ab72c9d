// Kiro CLI's SQLite database, `data.sqlite3` in its data folder (`dirs::data_local_dir()/kiro-cli`; Amazon Q Developer
// CLI's `amazon-q`): table `conversations_v2` (`key` the working directory, `conversation_id`, `value` the
// `ConversationState` JSON of ./kiroCli.ts, `created_at` / `updated_at` in ms; migration
// `008_multiple_conversations_per_path.sql`), or in builds before it `conversations` (`key`, `value`, one a directory;
// `007_conversations_table.sql`). Read-only (sqliteFile.ts), one conversation's row at a time.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { emptyStats, type TranscriptRead } from '../../../core/session/events';
import { transcriptRead, unreadable, type ReaderOptions } from './common';
import { KiroEvents } from './kiroCli';
import { splitAtHash, sqliteStoreOf, withReadOnlyDb, type SqliteDatabase } from './sqliteFile';

export const KIRO_DB = 'data.sqlite3';
const WHERE_MISSING = 'Kiro CLI conversations';

export const KiroConversationRowSchema = z.looseObject({
  key: z.string(),
  conversation_id: z.string(),
  /** Milliseconds since the epoch; 0 in the older table, which keeps no time. */
  updated_at: z.number().catch(0),
});
const ValueRowSchema = z.looseObject({ key: z.string(), value: z.string() });
const StateSchema = z.looseObject({ conversation_id: z.string().optional(), history: z.array(z.unknown()).catch([]), latest_summary: z.unknown().optional() });

export interface KiroConversation {
  readonly id: string;
  /** The working directory the conversation belongs to (`key`). */
  readonly cwd: string;
  /** Milliseconds since the epoch; 0 when unknown. */
  readonly updated: number;
}

/** `…/data.sqlite3#<conversation_id>`: one conversation of the database. */
export function kiroDbRef(dbFile: string, id: string): string {
  return `${dbFile}#${id}`;
}

function columns(db: SqliteDatabase, table: string): Set<string> {
  return new Set(
    db
      .prepare('SELECT name FROM pragma_table_info(?)')
      .all(table)
      .map((r) => String((r as { name?: unknown }).name)),
  );
}

/** Which of the two conversation tables the database has, by their columns; undefined when neither. */
function conversationTable(db: SqliteDatabase): 'conversations_v2' | 'conversations' | undefined {
  const v2 = columns(db, 'conversations_v2');
  if (['key', 'conversation_id', 'value', 'updated_at'].every((c) => v2.has(c))) return 'conversations_v2';
  const v1 = columns(db, 'conversations');
  const legacy = ['key', 'value'].every((c) => v1.has(c)) && columns(db, 'migrations').has('version');
  return legacy ? 'conversations' : undefined;
}

/** The database of `ref` (a file, or `…/data.sqlite3#<id>`) when it is Kiro CLI's, by its tables (sqliteStoreOf). */
export async function kiroDbOf(ref: string): Promise<{ dbFile: string; id?: string } | undefined> {
  return sqliteStoreOf(ref, KIRO_DB, (db) => conversationTable(db) !== undefined);
}

/** The conversation id of a legacy row, read from its JSON (the table keeps only the directory). */
function legacyId(value: string): string | undefined {
  try {
    return StateSchema.parse(JSON.parse(value)).conversation_id;
  } catch {
    return undefined;
  }
}

/** Newest first. @throws when no SQLite can be loaded or the file is no Kiro CLI database */
export function kiroDbConversations(dbFile: string, limit = 2000): KiroConversation[] {
  return withReadOnlyDb(dbFile, WHERE_MISSING, (db) => {
    const table = conversationTable(db);
    if (!table) throw new Error(`${dbFile} holds no Kiro CLI conversations table`);
    const out: KiroConversation[] = [];
    if (table === 'conversations_v2') {
      for (const r of db.prepare('SELECT key, conversation_id, updated_at FROM conversations_v2 ORDER BY updated_at DESC LIMIT ?').all(limit)) {
        const row = KiroConversationRowSchema.safeParse(r);
        if (row.success) out.push({ id: row.data.conversation_id, cwd: row.data.key, updated: row.data.updated_at });
      }
      return out;
    }
    for (const r of db.prepare('SELECT key, value FROM conversations LIMIT ?').all(limit)) {
      const row = ValueRowSchema.safeParse(r);
      const id = row.success ? legacyId(row.data.value) : undefined;
      if (row.success && id) out.push({ id, cwd: row.data.key, updated: 0 });
    }
    return out;
  });
}

/** The row of conversation `id`, or the newest one of `cwd`. */
function conversationRow(
  db: SqliteDatabase,
  table: 'conversations_v2' | 'conversations',
  id: string | undefined,
  cwd: string,
): { key: string; value: string } | undefined {
  if (table === 'conversations_v2') {
    const r = id
      ? db.prepare('SELECT key, value FROM conversations_v2 WHERE conversation_id = ?').all(id)[0]
      : db.prepare('SELECT key, value FROM conversations_v2 WHERE key = ? ORDER BY updated_at DESC LIMIT 1').all(cwd)[0];
    const row = ValueRowSchema.safeParse(r);
    return row.success ? row.data : undefined;
  }
  const rows = id ? db.prepare('SELECT key, value FROM conversations').all() : db.prepare('SELECT key, value FROM conversations WHERE key = ?').all(cwd);
  for (const r of rows) {
    const row = ValueRowSchema.safeParse(r);
    if (row.success && (!id || legacyId(row.data.value) === id)) return row.data;
  }
  return undefined;
}

/** `ref`: `…/data.sqlite3#<conversation_id>`, or the database alone (the newest conversation of `opts.workspaceRoot`). Never throws. */
export async function readKiroDb(ref: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const { dbFile, id: wanted } = (await stat(ref).catch(() => undefined))?.isFile() ? { dbFile: ref, id: undefined } : splitAtHash(ref);
  const stats = emptyStats();
  try {
    return withReadOnlyDb(dbFile, WHERE_MISSING, (db) => {
      const table = conversationTable(db);
      if (!table) throw new Error(`${dbFile} holds no Kiro CLI conversations table`);
      const row = conversationRow(db, table, wanted, path.resolve(opts.workspaceRoot ?? '.'));
      const state = row ? StateSchema.safeParse(JSON.parse(row.value)) : undefined;
      if (!row || !state?.success) {
        return {
          ...transcriptRead('kiro', ref, new KiroEvents(opts).acc, { ...stats, skipped: 1 }, 0),
          error: `${ref}: no such Kiro CLI conversation${wanted ? '' : ` for ${opts.workspaceRoot ?? 'this folder'}`}`,
        };
      }
      const events = new KiroEvents(opts, row.key);
      events.summary(state.data.latest_summary);
      for (const e of state.data.history) {
        stats.lines++;
        if (!events.entry(e)) stats.skipped++;
      }
      const file = state.data.conversation_id ? kiroDbRef(dbFile, state.data.conversation_id) : dbFile;
      return { ...transcriptRead('kiro', file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
    });
  } catch (err) {
    return unreadable('kiro', dbFile, err);
  }
}
