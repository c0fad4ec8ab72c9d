// Sourcegraph Amp threads: the JSON document `amp threads export <id>` prints, and the same document Amp keeps per
// thread under `~/.local/share/amp/threads/T-<uuid>.json`. The CLI is closed source; the shapes below are those of
// real exported threads and of the CLI bundle's tool-run states (`done`, `error`, `cancelled`, `rejected-by-user`,
// while running `in-progress`, `blocked-on-user`). Messages are streamed one at a time; the document is rewritten
// as the thread grows, so incremental reads go by `sinceTime`.
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { cleanTurnText, countBadRecord, emptyStats, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { readJsonValueAt } from '../jsonStream';
import type { RecordHead } from '../jsonLinesFormat';
import { patchPaths } from './codex';
import { PendingCalls, accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions, readArrayItemsKeepingCutShort } from './common';
import { ampTodoWritePlan } from './planTools';

/** `T-` and a UUID. */
const THREAD_ID = /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `shell_command` `{command, workdir}` (GPT-backed modes), `Bash` `{cmd, cwd}` (Claude-backed modes). */
const SHELL_TOOLS = new Set(['Bash', 'bash', 'shell_command']);
/** They take `input.path`. */
const PATH_EDIT_TOOLS = new Set(['edit_file', 'create_file', 'undo_edit']);

export const AmpTreeSchema = z.looseObject({
  uri: z.union([z.string(), z.looseObject({ fsPath: z.string().optional(), path: z.string().optional() })]).optional(),
});
export const AmpEnvSchema = z.looseObject({
  initial: z.looseObject({ trees: z.array(z.unknown()).optional(), cwd: z.string().optional() }).optional(),
});

export const AmpToolUseSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()).catch({}),
});
/** `run.result` depends on the tool: `{output, exitCode}` (shell), `{files: [{uri, type}], summary}` (apply_patch), a string (Task). */
export const AmpToolRunSchema = z.looseObject({
  status: z.string(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
  reason: z.unknown().optional(),
});
export const AmpToolResultSchema = z.looseObject({ type: z.literal('tool_result'), toolUseID: z.string(), run: AmpToolRunSchema });
export const AmpTextSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
/** An `info` message's compaction: `{type: "summary", summary: {type: "message", summary}}`. */
export const AmpSummarySchema = z.looseObject({
  type: z.literal('summary'),
  summary: z.looseObject({ type: z.string(), summary: z.string().optional() }),
});
export const AmpMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'info']),
  content: z.union([z.string(), z.array(z.unknown())]),
  /** `sentAt` (ms since epoch) on user messages. */
  meta: z.looseObject({ sentAt: z.number().optional() }).nullish(),
  /** `timestamp` (ISO 8601) on assistant messages. */
  usage: z.looseObject({ timestamp: z.string().optional() }).nullish(),
});
export const ShellResultSchema = z.looseObject({ output: z.string().optional(), exitCode: z.number().int().nullish() });
export const PatchResultSchema = z.looseObject({ files: z.array(z.looseObject({ uri: z.string() })) });

type ToolUse = z.infer<typeof AmpToolUseSchema>;
type ToolRun = z.infer<typeof AmpToolRunSchema>;

/** A document whose `id` is a thread id, with its messages or environment. */
export function isAmpThread(head: RecordHead): boolean {
  const id = head.values.get('id');
  return typeof id === 'string' && THREAD_ID.test(id) && (head.keys.has('messages') || head.keys.has('env') || head.keys.has('created'));
}

function pathOfUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string') {
    const o = uri && typeof uri === 'object' ? (uri as { fsPath?: unknown; path?: unknown }) : undefined;
    const p = o?.fsPath ?? o?.path;
    return typeof p === 'string' ? p : undefined;
  }
  if (!uri.startsWith('file:')) return uri || undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The folders the thread ran in: `env.initial.cwd`, then each tree's `file://` URI. */
export function ampThreadFolders(env: unknown): string[] {
  const e = AmpEnvSchema.safeParse(env);
  if (!e.success || !e.data.initial) return [];
  const out: string[] = [];
  if (e.data.initial.cwd) out.push(e.data.initial.cwd);
  for (const t of e.data.initial.trees ?? []) {
    const tree = AmpTreeSchema.safeParse(t);
    const p = tree.success ? pathOfUri(tree.data.uri) : undefined;
    if (p) out.push(p);
  }
  return out;
}

/** The text of a failed or refused run: its error message or reason. */
function runText(run: ToolRun): string {
  const e = run.error;
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message;
  return typeof run.reason === 'string' ? run.reason : '';
}

class AmpEvents {
  readonly acc: SessionAccumulator;
  lastTime = 0;
  /** Of the message read last, else of the one before it that had one. */
  private time: string | undefined;
  private readonly calls = new PendingCalls<{ use: ToolUse; time?: string }>();

  constructor(
    opts: ReaderOptions,
    private readonly since: number,
    private readonly cwd: string | undefined,
    private readonly base: string | undefined,
  ) {
    this.acc = accumulator(opts);
  }

  /** Undefined for a message that holds none and follows none that did. */
  private timeOf(m: z.infer<typeof AmpMessageSchema>, previous: string | undefined): string | undefined {
    if (typeof m.meta?.sentAt === 'number' && Number.isFinite(m.meta.sentAt)) return new Date(m.meta.sentAt).toISOString();
    return m.usage?.timestamp ?? previous;
  }

  message(raw: unknown, index: number, stats: ReturnType<typeof emptyStats>): void {
    stats.lines++;
    const parsed = AmpMessageSchema.safeParse(raw);
    if (!parsed.success) {
      countBadRecord(stats, index + 1, 'item');
      return;
    }
    const m = parsed.data;
    this.time = this.timeOf(m, this.time);
    const ms = this.time ? Date.parse(this.time) : NaN;
    if (Number.isFinite(ms)) this.lastTime = Math.max(this.lastTime, ms);
    // A message the previous read saw (its time not after it) is not counted again; one without any time is new.
    const isNew = !Number.isFinite(ms) || ms > this.since;
    const at = this.time ? { time: this.time } : {};
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const texts: string[] = [];
    for (const b of blocks) {
      const type = b && typeof b === 'object' ? (b as { type?: unknown }).type : undefined;
      if (type === 'text') {
        const t = AmpTextSchema.safeParse(b);
        if (t.success) texts.push(t.data.text);
      } else if (type === 'tool_use' && m.role === 'assistant') {
        const u = AmpToolUseSchema.safeParse(b);
        if (u.success) this.calls.set(u.data.id, { use: u.data, ...at });
      } else if (type === 'tool_result') {
        const r = AmpToolResultSchema.safeParse(b);
        // Settled runs only: a run still going (or waiting for approval) is read once it ends.
        const call = r.success && isSettled(r.data.run.status) ? this.calls.take(r.data.toolUseID) : undefined;
        if (r.success && call) {
          if (isNew || !Number.isFinite(call.time ? Date.parse(call.time) : NaN)) this.toolRun(call.use, r.data.run, call.time);
        }
      } else if (type === 'summary' && m.role === 'info' && isNew) {
        const s = AmpSummarySchema.safeParse(b);
        if (s.success && s.data.summary.type === 'message' && s.data.summary.summary?.trim())
          this.acc.add({ kind: 'compaction', text: s.data.summary.summary, ...at });
      }
    }
    if (!isNew || m.role === 'info') return;
    const text = cleanTurnText(texts.join('\n').trim());
    if (text) this.acc.add({ kind: 'turn', role: m.role, text, ...at });
  }

  private toolRun(use: ToolUse, run: ToolRun, time: string | undefined): void {
    const at = time ? { time } : {};
    const input = use.input;
    const refused = run.status === 'rejected-by-user' || run.status === 'cancelled';
    if (SHELL_TOOLS.has(use.name)) {
      const command = typeof input.cmd === 'string' ? input.cmd : typeof input.command === 'string' ? input.command : undefined;
      if (!command) return;
      const cwd = typeof input.cwd === 'string' ? input.cwd : typeof input.workdir === 'string' ? input.workdir : this.cwd;
      const shell = ShellResultSchema.safeParse(run.result);
      const output = shell.success ? shell.data.output : typeof run.result === 'string' ? run.result : runText(run);
      const exit = run.status === 'done' && shell.success && typeof shell.data.exitCode === 'number' ? shell.data.exitCode : null;
      this.acc.add({
        kind: 'command',
        command,
        cwd: cwd ?? null,
        exit_code: exit,
        ...(run.status === 'error' ? { failed: true } : {}),
        ran: !refused,
        output_tail: outputTail(output),
        ...at,
      });
      return;
    }
    if (run.status !== 'done') return;
    if (PATH_EDIT_TOOLS.has(use.name)) {
      const p = typeof input.path === 'string' ? input.path : undefined;
      if (p) this.acc.add({ kind: 'file_edit', path: relativePath(pathOfUri(p) ?? p, this.base), tool: use.name, ...at });
    } else if (use.name === 'apply_patch') {
      // The files the patch touched, from the result; else from the patch text.
      const files = PatchResultSchema.safeParse(run.result);
      const paths = files.success
        ? files.data.files.map((f) => pathOfUri(f.uri)).filter((p): p is string => !!p)
        : patchPaths(typeof input.patchText === 'string' ? input.patchText : typeof input.patch === 'string' ? input.patch : '');
      for (const p of paths) this.acc.add({ kind: 'file_edit', path: relativePath(p, this.base), tool: 'apply_patch', ...at });
    } else if (use.name === 'todo_write') {
      const plan = ampTodoWritePlan(input, time);
      if (plan) this.acc.add(plan);
    }
  }
}

function isSettled(status: string): boolean {
  return status === 'done' || status === 'error' || status === 'cancelled' || status === 'rejected-by-user';
}

/** From its start; only messages newer than `opts.sinceTime` count. Never throws. */
export async function readAmp(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const stats = emptyStats();
  try {
    const cwd = ampThreadFolders(await readJsonValueAt(file, ['env']))[0];
    const events = new AmpEvents(opts, opts.sinceTime ?? -Infinity, cwd, opts.workspaceRoot ?? cwd);
    await readArrayItemsKeepingCutShort(file, ['messages'], stats, (item, i) => events.message(item, i, stats));
    return { ...transcriptRead('amp', file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
  } catch (err) {
    return unreadable('amp', file, err);
  }
}
