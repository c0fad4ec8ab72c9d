// The Cursor Agent CLI's own chat store: `~/.cursor/chats/<md5 of the workspace path>/<chat id>/store.db`, one SQLite
// database per chat. `meta` row `0` holds hex-encoded JSON (`agentId`, `name`, `createdAt` in ms, `latestRootBlobId`);
// `blobs` is content-addressed (`id` the SHA-256 of `data`): messages are JSON in the AI SDK's shape (`role`
// system/user/assistant/tool, `content` text or parts `text`, `reasoning`, `tool-call {toolCallId, toolName, args}`,
// `tool-result {toolCallId, result, isError}`), and the root is protobuf whose field 1 lists the message blobs in order
// (a child may itself be such a list). Cursor is closed source: these are the shapes open-source readers of real
// stores document. Messages carry no time. Read-only (sqliteFile.ts).
import { createHash } from 'node:crypto';
import path from 'node:path';
import * as z from 'zod';
import { emptyStats, countBadRecord, type SessionAccumulator, type SessionCommand, type TranscriptRead } from '../../../core/session/events';
import { accumulator, transcriptRead, unreadable, type ReaderOptions } from './common';
import { CursorTodos, SHELL_TOOLS, addTool, addTurn } from './cursor';
import { isSqliteFile } from './sqliteFile';
import { hasSqlite } from './sqliteFile';
import { withReadOnlyDb, type SqliteDatabase } from './sqliteFile';

export const CURSOR_CLI_STORE = 'store.db';
/** Of a command's output, kept for its test summary. */
const OUTPUT_TAIL_CHARS = 4000;
/** Nesting of list blobs followed from the root; deeper ones are counted as unreadable. */
const MAX_DEPTH = 16;

export const CursorCliMetaSchema = z.looseObject({
  agentId: z.string().optional(),
  name: z.string().optional(),
  createdAt: z.union([z.number(), z.string()]).optional(),
  latestRootBlobId: z.string().regex(/^[0-9a-f]{64}$/),
});
const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolCallPart = z.looseObject({
  type: z.literal('tool-call'),
  toolCallId: z.string().optional(),
  toolName: z.string(),
  args: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});
const ToolResultPart = z.looseObject({
  type: z.literal('tool-result'),
  toolCallId: z.string().optional(),
  /** Text, or text parts. */
  result: z.unknown().optional(),
  isError: z.boolean().optional(),
});
export const CursorCliMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.unknown())]),
});

/** The folder name under `~/.cursor/chats/` for a workspace: the MD5 of its absolute path, in hex. */
export function cursorCliWorkspaceHash(workspaceRoot: string): string {
  return createHash('md5').update(path.resolve(workspaceRoot)).digest('hex');
}

/** @throws when no SQLite can be loaded or the file cannot be opened */
function withDb<T>(file: string, use: (db: SqliteDatabase) => T): T {
  return withReadOnlyDb(file, `the Cursor Agent CLI's chats (${CURSOR_CLI_STORE})`, use);
}

/**
 * Whether `file` is a Cursor Agent CLI chat, by its tables `meta` and `blobs`. Without SQLite an SQLite file
 * named `store.db` is taken for one, so that its read says what is missing.
 */
export async function isCursorCliStore(file: string): Promise<boolean> {
  if (!(await isSqliteFile(file))) return false;
  if (!hasSqlite()) return path.basename(file) === CURSOR_CLI_STORE;
  try {
    return withDb(file, (db) => {
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'blobs')").all();
      return names.length === 2;
    });
  } catch {
    return false;
  }
}

/** The chat's metadata, or undefined when row `0` is missing or not hex-encoded JSON in the documented shape. @throws as opening */
export function cursorCliMeta(file: string): z.infer<typeof CursorCliMetaSchema> | undefined {
  return withDb(file, (db) => metaOf(db));
}

function metaOf(db: SqliteDatabase): z.infer<typeof CursorCliMetaSchema> | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = '0'").all()[0] as { value?: unknown } | undefined;
  const raw = row?.value;
  const hex = typeof raw === 'string' ? raw : raw instanceof Uint8Array ? Buffer.from(raw).toString('latin1') : '';
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  try {
    const parsed = CursorCliMetaSchema.safeParse(JSON.parse(Buffer.from(hex, 'hex').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The 32-byte children a list blob's field 1 names, in order, and how many 32-byte values its other fields hold (the
 * references of a store format not read here); undefined when `data` is not protobuf.
 */
export function blobChildren(data: Uint8Array): { children: string[]; otherRefs: number } | undefined {
  const children: string[] = [];
  let otherRefs = 0;
  let i = 0;
  const varint = (): number | undefined => {
    let v = 0;
    for (let shift = 0; shift < 35 && i < data.length; shift += 7) {
      const b = data[i++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
    return undefined;
  };
  while (i < data.length) {
    const tag = varint();
    if (tag === undefined) return undefined;
    const wire = tag % 8;
    if (wire === 0) {
      if (varint() === undefined) return undefined;
    } else if (wire === 2) {
      const len = varint();
      if (len === undefined || i + len > data.length) return undefined;
      if (Math.floor(tag / 8) === 1 && len === 32) children.push(Buffer.from(data.subarray(i, i + len)).toString('hex'));
      else if (len === 32) otherRefs++;
      i += len;
    } else if (wire === 1 || wire === 5) {
      i += wire === 1 ? 8 : 4;
    } else return undefined;
  }
  return i === data.length ? { children, otherRefs } : undefined;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((p) => TextPart.safeParse(p))
      .filter((p) => p.success)
      .map((p) => p.data.text)
      .join('\n');
  return '';
}

/** A chat's `store.db`. Messages have no time: each is 1 ms after the one before, from the chat's creation; only those after `opts.sinceTime` count. Never throws. */
export async function readCursorCli(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const stats = emptyStats();
  try {
    return withDb(file, (db) => {
      const meta = metaOf(db);
      if (!meta)
        return {
          ...transcriptRead('cursor', file, accumulator(), { ...stats, skipped: 1 }, 0),
          error: `${file}: no Cursor Agent CLI chat metadata (meta row 0)`,
        };
      const acc = accumulator(opts);
      const todos = new CursorTodos(opts.plan);
      const since = opts.sinceTime ?? -Infinity;
      const created = typeof meta.createdAt === 'number' ? meta.createdAt : Date.parse(meta.createdAt ?? '');
      let time = Number.isFinite(created) ? created : 0;
      const blob = db.prepare('SELECT data FROM blobs WHERE id = ?');
      const pending = new Map<string, SessionCommand>();
      const flush = () => {
        for (const c of pending.values()) acc.add(c);
        pending.clear();
      };
      // Depth-first from the root, children in order; each blob's JSON is parsed only when it is reached.
      const stack: Array<{ id: string; depth: number }> = [{ id: meta.latestRootBlobId, depth: 0 }];
      const seen = new Set<string>();
      let unreadRefs = 0;
      while (stack.length) {
        const { id, depth } = stack.pop()!;
        if (seen.has(id)) continue;
        seen.add(id);
        const raw = (blob.all(id)[0] as { data?: unknown } | undefined)?.data;
        const data = raw instanceof Uint8Array ? raw : typeof raw === 'string' ? Buffer.from(raw, 'utf8') : undefined;
        if (!data) continue;
        if (data[0] !== 0x7b) {
          const list = depth < MAX_DEPTH ? blobChildren(data) : undefined;
          if (list) {
            unreadRefs += list.otherRefs;
            for (let c = list.children.length - 1; c >= 0; c--) stack.push({ id: list.children[c], depth: depth + 1 });
          } else countBadRecord(stats, ++stats.lines, 'item');
          continue;
        }
        stats.lines++;
        let message: z.infer<typeof CursorCliMessageSchema> | undefined;
        try {
          const parsed = CursorCliMessageSchema.safeParse(JSON.parse(Buffer.from(data).toString('utf8')));
          message = parsed.success ? parsed.data : undefined;
        } catch {
          message = undefined;
        }
        if (!message) {
          countBadRecord(stats, stats.lines, 'item');
          continue;
        }
        time += 1;
        if (time <= since) continue;
        addMessage(acc, message, todos, pending, flush, opts);
      }
      flush();
      const read = { ...transcriptRead('cursor', file, acc, stats, 0), last_time: time };
      // A store whose root lists its turns in other fields (newer builds nest them) would otherwise read as empty.
      return stats.lines === 0 && unreadRefs > 0
        ? { ...read, error: `${file}: this Cursor Agent CLI chat lists its messages in a store format not read here (no message list in its root blob)` }
        : read;
    });
  } catch (err) {
    return unreadable('cursor', file, err);
  }
}

function addMessage(
  acc: SessionAccumulator,
  m: z.infer<typeof CursorCliMessageSchema>,
  todos: CursorTodos,
  pending: Map<string, SessionCommand>,
  flush: () => void,
  opts: ReaderOptions,
): void {
  const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  if (m.role === 'tool') {
    // A shell command's result follows its call: its output is kept for the test summary. No exit code is stored.
    for (const p of parts) {
      const r = ToolResultPart.safeParse(p);
      const call = r.success && r.data.toolCallId ? pending.get(r.data.toolCallId) : undefined;
      if (!r.success || !call) continue;
      const output = textOf(r.data.result).slice(-OUTPUT_TAIL_CHARS);
      pending.set(r.data.toolCallId!, output ? { ...call, ran: true, output_tail: output } : { ...call, ran: true });
    }
    return;
  }
  flush();
  if (m.role === 'system') return;
  if (m.role === 'user') {
    const text = textOf(parts);
    if (text) addTurn(acc, 'user', text);
    return;
  }
  const texts: string[] = [];
  for (const p of parts) {
    const text = TextPart.safeParse(p);
    if (text.success) {
      texts.push(text.data.text);
      continue;
    }
    const call = ToolCallPart.safeParse(p);
    if (!call.success) continue;
    if (texts.length) addTurn(acc, 'assistant', texts.splice(0).join('\n'));
    const name = call.data.toolName;
    const args = typeof call.data.args === 'string' ? argsOf(call.data.args) : call.data.args;
    addTool(acc, name, args, todos, opts, (c) => {
      // Not run until its result comes: a call left without one was refused or cut off, as the other readers count it.
      if (SHELL_TOOLS.has(name) && call.data.toolCallId) pending.set(call.data.toolCallId, { ...c, ran: false });
      else acc.add(c);
    });
  }
  if (texts.length) addTurn(acc, 'assistant', texts.join('\n'));
}

function argsOf(text: string): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}
