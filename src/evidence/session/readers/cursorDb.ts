// The Cursor IDE's own chat store: SQLite key-value tables in `User/globalStorage/state.vscdb` (`cursorDiskKV`:
// `composerData:<composerId>` lists a chat's messages in `fullConversationHeadersOnly`, each message is
// `bubbleId:<composerId>:<bubbleId>`, `type` 1 the user's, 2 the agent's with its tool call in `toolFormerData`),
// and per workspace `User/workspaceStorage/<hash>/state.vscdb` (`ItemTable` `composer.composerData` naming its
// chats; `workspace.json` its folder). Cursor is closed source: these are the shapes open-source readers of real
// stores document. Read-only (sqliteFile.ts), one message at a time.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as z from 'zod';
import { cleanTurnText, countBadRecord, emptyStats, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { accumulator, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { CursorTodos, SHELL_TOOLS, TODO_TOOLS, editPaths } from './cursor';
import { withReadOnlyDb, type SqliteDatabase } from './sqliteFile';

export const CURSOR_STATE_DB = 'state.vscdb';
const USER_BUBBLE = 1;
const AGENT_BUBBLE = 2;
/** Of a command's output, kept for its test summary. */
const OUTPUT_TAIL_CHARS = 4000;

/** `rawArgs` (the model's arguments), `params` (Cursor's) and `result` are JSON text, or already objects in some builds. */
const JsonField = z.union([z.string(), z.record(z.string(), z.unknown())]);
export const CursorToolFormerDataSchema = z.object({
  name: z.string().optional(),
  status: z.string().optional(),
  rawArgs: JsonField.optional(),
  params: JsonField.optional(),
  result: JsonField.optional(),
  additionalData: z.object({ status: z.string().optional() }).passthrough().optional(),
});
export const CursorBubbleSchema = z.object({
  type: z.number(),
  text: z.string().optional(),
  /** ISO time in current builds, epoch ms in some older ones; absent in the oldest. */
  createdAt: z.union([z.string(), z.number()]).optional(),
  toolFormerData: CursorToolFormerDataSchema.optional(),
});
export const CursorComposerDataSchema = z.object({
  composerId: z.string().optional(),
  createdAt: z.number().optional(),
  /** Current builds: the order, each message in its own `bubbleId:` row. */
  fullConversationHeadersOnly: z.array(z.object({ bubbleId: z.string(), type: z.number().optional() })).optional(),
  /** Older builds: the messages themselves. */
  conversation: z.array(z.unknown()).optional(),
});
/** The workspace's `composer.composerData`. */
export const CursorWorkspaceComposersSchema = z.object({
  allComposers: z.array(z.object({ composerId: z.string(), createdAt: z.number().optional(), lastUpdatedAt: z.number().optional() })),
});
/** A terminal command's `result`: `rejected` when the user refused it (it did not run). */
export const CursorShellResultSchema = z.object({ exitCode: z.number().int().optional(), output: z.string().optional(), rejected: z.boolean().optional() });

/** `…/globalStorage/state.vscdb#<composerId>`, or the database alone (found where no SQLite can be loaded). */
export function isCursorDbRef(ref: string): boolean {
  return /(?:^|[\\/])state\.vscdb(?:#[\w-]+)?$/.test(ref);
}

export function cursorDbRef(globalDb: string, composerId: string): string {
  return `${globalDb}#${composerId}`;
}

/** @throws when no SQLite can be loaded or the file cannot be opened */
function withDb<T>(file: string, use: (db: SqliteDatabase) => T): T {
  return withReadOnlyDb(file, `the Cursor IDE's chats in ${path.basename(file)}`, use);
}

function json(value: unknown): unknown {
  const text = typeof value === 'string' ? value : value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : undefined;
  if (text === undefined) return typeof value === 'object' ? value : undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function valueOf(db: SqliteDatabase, table: 'cursorDiskKV' | 'ItemTable', key: string): unknown {
  return json((db.prepare(`SELECT value FROM ${table} WHERE key = ?`).all(key)[0] as { value?: unknown } | undefined)?.value);
}

/** The folder a `workspaceStorage/<hash>/workspace.json` names: its `folder`, a `file:` URI. */
export function cursorWorkspaceFolder(folderUri: unknown): string | undefined {
  const folder = str(folderUri);
  if (!folder?.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(folder);
  } catch {
    return undefined;
  }
}

/** The chats a workspace's `state.vscdb` names, newest first (last update, else creation). @throws as opening the database */
export function cursorWorkspaceComposers(workspaceDb: string): Array<{ id: string; updated: number }> {
  return withDb(workspaceDb, (db) => {
    const parsed = CursorWorkspaceComposersSchema.safeParse(valueOf(db, 'ItemTable', 'composer.composerData'));
    if (!parsed.success) return [];
    return parsed.data.allComposers.map((c) => ({ id: c.composerId, updated: c.lastUpdatedAt ?? c.createdAt ?? 0 })).sort((a, b) => b.updated - a.updated);
  });
}

function argsOf(field: unknown): Record<string, unknown> {
  const v = json(field);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function timeOf(createdAt: string | number | undefined): number | undefined {
  const t = typeof createdAt === 'number' ? createdAt : createdAt ? Date.parse(createdAt) : NaN;
  return Number.isFinite(t) ? t : undefined;
}

/** `ref`: `…/globalStorage/state.vscdb#<composerId>`. Only messages after `opts.sinceTime` count. Never throws. */
export async function readCursorDb(ref: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const hash = ref.lastIndexOf('#');
  const [dbFile, composerId] = hash < 0 ? [ref, ''] : [ref.slice(0, hash), ref.slice(hash + 1)];
  const stats = emptyStats();
  try {
    return withDb(dbFile, (db) => {
      const composer = CursorComposerDataSchema.safeParse(valueOf(db, 'cursorDiskKV', `composerData:${composerId}`));
      if (!composer.success)
        return {
          ...transcriptRead('cursor', ref, accumulator(), { ...stats, skipped: 1 }, 0),
          error: composerId ? `${ref}: no such Cursor chat in ${path.basename(dbFile)}` : `${ref}: give one chat, as ${dbFile}#<composerId>`,
        };
      const acc = accumulator(opts);
      const todos = new CursorTodos(opts.plan);
      const since = opts.sinceTime ?? -Infinity;
      // A message without its own time (older builds write none) is 1 ms after the one before it, from the chat's
      // creation: the headers only grow, so a message added later is always newer than the last one read.
      let time = composer.data.createdAt ?? 0;
      let last: number | undefined;
      const bubble = db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?');
      const headers = composer.data.fullConversationHeadersOnly;
      const count = headers ? headers.length : (composer.data.conversation?.length ?? 0);
      for (let i = 0; i < count; i++) {
        stats.lines++;
        const raw = headers
          ? json((bubble.all(`bubbleId:${composerId}:${headers[i].bubbleId}`)[0] as { value?: unknown } | undefined)?.value)
          : composer.data.conversation?.[i];
        const b = CursorBubbleSchema.safeParse(raw);
        time = (b.success ? timeOf(b.data.createdAt) : undefined) ?? time + 1;
        last = Math.max(last ?? time, time);
        if (!b.success) {
          countBadRecord(stats, stats.lines, 'item');
          continue;
        }
        if (time <= since) continue;
        addBubble(acc, b.data, todos, opts);
      }
      return { ...transcriptRead('cursor', ref, acc, stats, 0), ...(last !== undefined ? { last_time: last } : {}) };
    });
  } catch (err) {
    return unreadable('cursor', dbFile, err);
  }
}

function addBubble(acc: SessionAccumulator, b: z.infer<typeof CursorBubbleSchema>, todos: CursorTodos, opts: ReaderOptions): void {
  const text = cleanTurnText(b.text ?? '');
  // The IDE stores what the user typed as it was typed; only the agent's bubbles carry tool calls.
  if (b.type === USER_BUBBLE) {
    if (text) acc.add({ kind: 'turn', role: 'user', text });
    return;
  }
  if (b.type !== AGENT_BUBBLE) return;
  if (text) acc.add({ kind: 'turn', role: 'assistant', text });
  const tool = b.toolFormerData;
  if (!tool?.name) return;
  const args = { ...argsOf(tool.params), ...argsOf(tool.rawArgs) };
  if (SHELL_TOOLS.has(tool.name)) {
    const command = str(args.command);
    if (!command) return;
    const parsed = CursorShellResultSchema.safeParse(json(tool.result));
    const result = parsed.success ? parsed.data : {};
    const status = tool.status ?? '';
    // Refused: the user rejected or skipped it, or Cursor cancelled it; none of these ran.
    const refused = result.rejected === true || tool.additionalData?.status === 'rejected' || ['rejected', 'skipped', 'cancelled'].includes(status);
    const cwd = str(args.cwd) || str(args.working_directory);
    const output = result.output ? result.output.slice(-OUTPUT_TAIL_CHARS) : undefined;
    acc.add({
      kind: 'command',
      command,
      cwd: cwd ?? null,
      exit_code: !refused && result.exitCode !== undefined ? result.exitCode : null,
      ran: !refused,
      ...(!refused && output ? { output_tail: output } : {}),
    });
    return;
  }
  if (TODO_TOOLS.has(tool.name)) {
    if (todos.apply(args)) {
      const plan = todos.plan(tool.name);
      if (plan) acc.add(plan);
    }
    return;
  }
  // An edit the user rejected or Cursor cancelled changed nothing.
  if (tool.status === 'cancelled' || tool.status === 'error' || tool.additionalData?.status === 'rejected') return;
  for (const p of editPaths(tool.name, args)) acc.add({ kind: 'file_edit', path: relativePath(p, opts.workspaceRoot), tool: tool.name });
}
