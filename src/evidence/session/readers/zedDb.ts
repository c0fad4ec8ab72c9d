// Zed's agent threads: `threads/threads.db` under Zed's data folder (zed-industries/zed `crates/agent/src/db.rs`), table
// `threads` (`id`, `summary`, `updated_at` RFC 3339, `data_type` 'zstd' | 'json', `data`, and in later builds
// `folder_paths` — the workspace folders, one a line — and `created_at`). `data` is a `DbThread` as serde JSON
// (zstd-compressed when `data_type` is 'zstd'): `messages` of `{"User": {id, content: [{"Text": …} | {"Mention": …}]}}`,
// `{"Agent": {content: [{"Text": …} | {"ToolUse": {id, name, input}} …], tool_results: {<id>: {is_error, content}}}}` or
// "Resume"; `initial_project_snapshot.worktree_snapshots[].worktree_path` names the folders in builds before
// `folder_paths`. Read-only (sqliteFile.ts); zstd with Node's zlib where it has it (22.15+), else with fzstd.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import * as z from 'zod';
import { cleanTurnText, emptyStats, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions } from './common';
import { splitAtHash, sqliteStoreOf, withReadOnlyDb, type SqliteDatabase } from './sqliteFile';

export const ZED_DB = 'threads.db';

export const ZedThreadRowSchema = z.looseObject({
  id: z.string(),
  updated_at: z.string(),
  data_type: z.enum(['zstd', 'json']),
  folder_paths: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
});
export const ZedToolUseSchema = z.looseObject({ id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()).catch({}) });
export const ZedToolResultSchema = z.looseObject({ is_error: z.boolean().catch(false), content: z.unknown().optional() });
export const ZedMessageSchema = z.union([
  z.literal('Resume'),
  z.object({ User: z.looseObject({ content: z.array(z.unknown()).catch([]) }) }),
  z.object({
    Agent: z.looseObject({
      content: z.array(z.unknown()).catch([]),
      tool_results: z.record(z.string(), z.unknown()).catch({}),
    }),
  }),
]);
export const ZedThreadSchema = z.looseObject({
  messages: z.array(z.unknown()),
  initial_project_snapshot: z
    .looseObject({ worktree_snapshots: z.array(z.looseObject({ worktree_path: z.string() })).catch([]) })
    .nullable()
    .optional()
    .catch(undefined),
});

export interface ZedThread {
  readonly id: string;
  /** The workspace folders (`folder_paths`, one a line); empty when the row has none. */
  readonly folders: readonly string[];
  /** Milliseconds since the epoch. */
  readonly updated: number;
}

/** The terminal tool's result on a non-zero exit (`terminal_tool.rs` `process_content`). */
const FAILED = /^Command "[\s\S]*" failed with exit code (-?\d+)\./;
/** Results that say the command ran to no exit code: stopped by the user, timed out, terminated. */
const NO_EXIT = /^(?:The user stopped this command|Command "[\s\S]*" timed out|Command terminated unexpectedly)/;
/** Tools that change a file, with the input field that names it. */
const EDIT_TOOLS: Record<string, readonly string[]> = {
  edit_file: ['path'],
  streaming_edit_file: ['path'],
  delete_path: ['path'],
  move_path: ['source_path', 'destination_path'],
  copy_path: ['destination_path'],
};

/** `…/threads.db#<threadID>`: one thread of the database. */
export function zedDbRef(dbFile: string, id: string): string {
  return `${dbFile}#${id}`;
}

/** @throws as {@link withReadOnlyDb} */
function withZedDb<T>(dbFile: string, use: (db: SqliteDatabase) => T): T {
  return withReadOnlyDb(dbFile, `Zed's agent threads in ${path.basename(dbFile)}`, use);
}

function columns(db: SqliteDatabase): Set<string> {
  return new Set(
    db
      .prepare("SELECT name FROM pragma_table_info('threads')")
      .all()
      .map((r) => String((r as { name?: unknown }).name)),
  );
}

/** Zed's `CREATE TABLE threads`: the content, not the name, says it is Zed's. */
function isZedTable(cols: Set<string>): boolean {
  return ['id', 'summary', 'updated_at', 'data_type', 'data'].every((c) => cols.has(c));
}

/** The database of `ref` (a file, or `…/threads.db#<id>`) when it is Zed's, by its table (sqliteStoreOf). */
export async function zedDbOf(ref: string): Promise<{ dbFile: string; id?: string } | undefined> {
  return sqliteStoreOf(ref, ZED_DB, (db) => isZedTable(columns(db)));
}

const selectColumns = (cols: Set<string>): string =>
  ['id', 'updated_at', 'data_type', ...(cols.has('folder_paths') ? ['folder_paths'] : []), ...(cols.has('created_at') ? ['created_at'] : [])].join(', ');

/** The thread's JSON. @throws when the data cannot be decompressed or parsed */
function threadJson(dataType: 'zstd' | 'json', data: unknown): unknown {
  const bytes = data instanceof Uint8Array ? Buffer.from(data) : typeof data === 'string' ? Buffer.from(data, 'utf8') : undefined;
  if (!bytes) throw new Error('thread data is no blob');
  if (dataType === 'json') return JSON.parse(bytes.toString('utf8'));
  const unzstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (unzstd) return JSON.parse(unzstd(bytes).toString('utf8'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first zstd thread of a Node without zstd only
  const fzstd = require('fzstd') as { decompress(b: Uint8Array): Uint8Array };
  return JSON.parse(Buffer.from(fzstd.decompress(bytes)).toString('utf8'));
}

const foldersOf = (folderPaths: string | null | undefined, thread?: z.infer<typeof ZedThreadSchema>): string[] =>
  folderPaths
    ? folderPaths.split('\n').filter(Boolean)
    : (thread?.initial_project_snapshot?.worktree_snapshots ?? []).map((w) => w.worktree_path).filter(Boolean);

/**
 * Newest first, with the folders each thread was made in (`folder_paths`; a row without it, from builds before the
 * column, is decompressed for its project snapshot's worktrees). @throws when no SQLite can be loaded or the file is no Zed database
 */
export function zedDbThreads(dbFile: string, limit = 2000): ZedThread[] {
  return withZedDb(dbFile, (db) => {
    const cols = columns(db);
    if (!isZedTable(cols)) throw new Error(`${dbFile} holds no Zed threads table`);
    const out: ZedThread[] = [];
    for (const r of db.prepare(`SELECT ${selectColumns(cols)} FROM threads ORDER BY updated_at DESC LIMIT ?`).all(limit)) {
      const row = ZedThreadRowSchema.safeParse(r);
      if (!row.success) continue;
      let folders = foldersOf(row.data.folder_paths);
      if (!folders.length) {
        try {
          const data = (db.prepare('SELECT data FROM threads WHERE id = ?').all(row.data.id)[0] as { data?: unknown } | undefined)?.data;
          const thread = ZedThreadSchema.safeParse(threadJson(row.data.data_type, data));
          folders = thread.success ? foldersOf(undefined, thread.data) : [];
        } catch {
          folders = [];
        }
      }
      out.push({ id: row.data.id, folders, updated: Date.parse(row.data.updated_at) || 0 });
    }
    return out;
  });
}

/** Text of a tool result's content: `{"Text": …}`, a plain string, or `{type: "text", text}`. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  const o = content && typeof content === 'object' ? (content as Record<string, unknown>) : undefined;
  if (!o) return '';
  if (typeof o.Text === 'string') return o.Text;
  return typeof o.text === 'string' ? o.text : '';
}

/** `edit_file`'s path starts with the worktree's root name (`project/src/main.rs`); relative to it, or to `base`. */
function editPath(p: string, folders: readonly string[], base: string | undefined): string {
  if (path.isAbsolute(p)) return relativePath(p, base);
  const [first, ...rest] = p.split(/[\\/]/);
  return rest.length && folders.some((f) => path.basename(f) === first) ? rest.join('/') : p;
}

function addToolUse(
  acc: SessionAccumulator,
  use: z.infer<typeof ZedToolUseSchema>,
  result: z.infer<typeof ZedToolResultSchema> | undefined,
  folders: readonly string[],
  opts: ReaderOptions,
  time: string,
): void {
  if (!result) return;
  const text = resultText(result.content);
  if (use.name === 'terminal') {
    const command = typeof use.input.command === 'string' ? use.input.command : undefined;
    if (!command) return;
    const cd = typeof use.input.cd === 'string' ? use.input.cd : '.';
    const cwd = path.isAbsolute(cd) ? cd : (folders.find((f) => cd === '.' || path.basename(f) === cd) ?? null);
    // An error result is the tool's own (permission refused, `cd` outside the project): the command never ran.
    const ran = !result.is_error;
    const failed = FAILED.exec(text);
    const exit = !ran || NO_EXIT.test(text) ? null : failed ? Number(failed[1]) : 0;
    acc.add({ kind: 'command', command, cwd, exit_code: exit, ran, output_tail: outputTail(text), time });
    return;
  }
  const fields = EDIT_TOOLS[use.name];
  if (!fields || result.is_error) return;
  const base = opts.workspaceRoot ?? folders[0];
  for (const f of fields) {
    const p = use.input[f];
    if (typeof p === 'string' && p) acc.add({ kind: 'file_edit', path: editPath(p, folders, base), tool: use.name, time });
  }
}

/** The words of `{"Text": …}` blocks (mentions and images are context, not the request). */
function texts(content: readonly unknown[]): string {
  return content
    .map((b) => (b && typeof b === 'object' && typeof (b as { Text?: unknown }).Text === 'string' ? (b as { Text: string }).Text : ''))
    .filter(Boolean)
    .join('\n')
    .trim();
}

/**
 * `ref`: `…/threads.db#<id>`, or the database alone (its newest thread in `opts.workspaceRoot`). Messages carry no time
 * of their own: each is 1 ms after the one before it, from the thread's creation, so a message added later is newer
 * than the last one read and only messages after `opts.sinceTime` count. Never throws.
 */
export async function readZedDb(ref: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const { dbFile, id: wanted } = (await stat(ref).catch(() => undefined))?.isFile() ? { dbFile: ref, id: undefined } : splitAtHash(ref);
  const stats = emptyStats();
  try {
    const id = wanted ?? zedDbThreads(dbFile).find((t) => t.folders.some((f) => path.resolve(f) === path.resolve(opts.workspaceRoot ?? '.')))?.id;
    return withZedDb(dbFile, (db) => {
      const cols = columns(db);
      if (!isZedTable(cols)) throw new Error(`${dbFile} holds no Zed threads table`);
      const raw = id === undefined ? undefined : (db.prepare(`SELECT ${selectColumns(cols)}, data FROM threads WHERE id = ?`).all(id)[0] as { data?: unknown });
      const row = ZedThreadRowSchema.safeParse(raw);
      if (!row.success)
        return {
          ...transcriptRead('zed', ref, accumulator(), { ...stats, skipped: 1 }, 0),
          error: `${ref}: no such Zed agent thread${wanted ? '' : ` for ${opts.workspaceRoot ?? 'this folder'}`}`,
        };
      const thread = ZedThreadSchema.parse(threadJson(row.data.data_type, raw?.data));
      const folders = foldersOf(row.data.folder_paths, thread);
      const acc = accumulator(opts);
      const since = opts.sinceTime ?? -Infinity;
      let time = Date.parse(row.data.created_at ?? row.data.updated_at) || 0;
      for (const m of thread.messages) {
        stats.lines++;
        time++;
        const msg = ZedMessageSchema.safeParse(m);
        if (!msg.success) {
          stats.skipped++;
          continue;
        }
        if (time <= since || msg.data === 'Resume') continue;
        const at = new Date(time).toISOString();
        if ('User' in msg.data) {
          const text = cleanTurnText(texts(msg.data.User.content));
          if (text) acc.add({ kind: 'turn', role: 'user', text, time: at });
          continue;
        }
        const agent = msg.data.Agent;
        const words: string[] = [];
        for (const b of agent.content) {
          const o = b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
          if (typeof o.Text === 'string') words.push(o.Text);
          const use = ZedToolUseSchema.safeParse(o.ToolUse);
          if (use.success) {
            const result = ZedToolResultSchema.safeParse(agent.tool_results[use.data.id]);
            addToolUse(acc, use.data, result.success ? result.data : undefined, folders, opts, at);
          }
        }
        const text = cleanTurnText(words.join('\n').trim());
        if (text) acc.add({ kind: 'turn', role: 'assistant', text, time: at });
      }
      return { ...transcriptRead('zed', zedDbRef(dbFile, row.data.id), acc, stats, 0), ...(stats.lines ? { last_time: time } : {}) };
    });
  } catch (err) {
    return unreadable('zed', dbFile, err);
  }
}
