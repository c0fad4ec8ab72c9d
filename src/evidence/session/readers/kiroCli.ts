// Kiro CLI (and Amazon Q Developer CLI, whose source it grew from: aws/amazon-q-developer-cli `crates/chat-cli`) keeps
// each conversation as its `ConversationState` serde JSON (`cli/chat/conversation.rs`): in its SQLite database
// (./kiroCliDb.ts) and, through `/save` (`/chat save`), as a file. `history` holds `HistoryEntry {user, assistant,
// request_metadata}` (`cli/chat/message.rs`); the enums are serde's externally tagged objects: `user.content` is
// `{"Prompt": {prompt}}`, `{"CancelledToolUses": {prompt?, tool_use_results}}` or `{"ToolUseResults": {tool_use_results}}`,
// each result `{tool_use_id, content: [{"Json": …} | {"Text": …}], status: "Success" | "Error"}`; `assistant` is
// `{"Response": {message_id, content}}` or `{"ToolUse": {message_id, content, tool_uses: [{id, name, orig_name, args,
// orig_args}]}}`. A tool use's result is in the next entry's user message.
import * as z from 'zod';
import {
  cleanTurnText,
  countBadRecord,
  emptyStats,
  outputTail,
  type PlanItemStatus,
  type ReadStats,
  type SessionAccumulator,
  type TranscriptRead,
} from '../../../core/session/events';
import type { RecordHead } from '../jsonLinesFormat';
import { readJsonValueAt } from '../jsonStream';
import { PendingCalls, accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions, readArrayItemsKeepingCutShort } from './common';
import { planOf } from './planTools';

const MAX_PENDING = 2000;
/** `new_cancelled_tool_uses`'s result text: the user refused the call (or interrupted it), so it did not run. */
const CANCELLED = 'Tool use was cancelled by the user';
/** The prompt the CLI itself puts on cancelled tool uses when the user interrupts them (`chat/mod.rs`): not the user's words. */
const INTERRUPTED = 'The user interrupted the tool execution.';
/** The shell tool: `execute_bash` on Unix, `execute_cmd` on Windows (`tools/execute`). */
const SHELL_TOOLS = new Set(['execute_bash', 'execute_cmd', 'shell']);
/** `fs_write`'s commands (`tools/fs_write.rs`): `create`, `str_replace`, `insert`, `append`, each on `path`. */
const WRITE_TOOLS = new Set(['fs_write', 'write']);

const TRUNCATED_SHELL_JSON = /^\{"exit_status":"(-?\d+)"/;
const ResultBlockSchema = z.union([z.object({ Json: z.unknown() }), z.object({ Text: z.string() })]);
export const KiroToolResultSchema = z.looseObject({
  tool_use_id: z.string(),
  content: z.array(z.unknown()).catch([]),
  status: z.string().catch('Success'),
});
const ResultsSchema = z.array(KiroToolResultSchema).catch([]);
export const KiroUserContentSchema = z.union([
  z.object({ Prompt: z.looseObject({ prompt: z.string() }) }),
  z.object({ CancelledToolUses: z.looseObject({ prompt: z.string().nullable().optional(), tool_use_results: ResultsSchema }) }),
  z.object({ ToolUseResults: z.looseObject({ tool_use_results: ResultsSchema }) }),
]);
export const KiroToolUseSchema = z.looseObject({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()).catch({}) });
export const KiroAssistantSchema = z.union([
  z.object({ Response: z.looseObject({ content: z.string().catch('') }) }),
  z.object({ ToolUse: z.looseObject({ content: z.string().catch(''), tool_uses: z.array(z.unknown()).catch([]) }) }),
]);
export const KiroHistoryEntrySchema = z.looseObject({
  user: z.looseObject({
    content: KiroUserContentSchema,
    timestamp: z.string().nullable().optional().catch(undefined),
    env_context: z
      .looseObject({ env_state: z.looseObject({ current_working_directory: z.string().optional() }).nullable().optional() })
      .optional()
      .catch(undefined),
  }),
  assistant: KiroAssistantSchema,
  request_metadata: z
    .looseObject({ request_start_timestamp_ms: z.number().optional().catch(undefined), stream_end_timestamp_ms: z.number().optional().catch(undefined) })
    .nullable()
    .optional()
    .catch(undefined),
});
/** `execute_bash`'s JSON result (`tools/execute/mod.rs`): the exit status as a string. */
const ShellResultSchema = z.looseObject({ exit_status: z.union([z.string(), z.number()]), stdout: z.string().catch(''), stderr: z.string().catch('') });
const SummarySchema = z.tuple([
  z.string(),
  z.looseObject({ request_start_timestamp_ms: z.number().optional(), stream_end_timestamp_ms: z.number().optional() }).nullable().catch(null),
]);
const TaskSchema = z.looseObject({ task_description: z.string() });

type ToolUse = z.infer<typeof KiroToolUseSchema> & { readonly time?: string };
type ToolResult = z.infer<typeof KiroToolResultSchema>;

/** A `ConversationState` document (a `/save` file), by its first keys: `conversation_id`, then `next_message` and `history`. */
export function isKiroConversation(head: RecordHead): boolean {
  return typeof head.values.get('conversation_id') === 'string' && head.keys.has('next_message') && head.keys.has('history');
}

function resultText(r: ToolResult): string {
  return r.content
    .map((b) => {
      const p = ResultBlockSchema.safeParse(b);
      if (!p.success) return '';
      return 'Text' in p.data ? p.data.Text : JSON.stringify(p.data.Json);
    })
    .join('\n');
}

/**
 * The shell tool's JSON result; one too long for the model (`truncate_safe_tool_use_results`) is kept as its JSON text
 * cut short, `{"exit_status":"0","stdout":"…` ending in "...content truncated due to length", the status still there.
 */
function shellResult(r: ToolResult): z.infer<typeof ShellResultSchema> | undefined {
  for (const b of r.content) {
    const p = ResultBlockSchema.safeParse(b);
    if (!p.success) continue;
    if ('Json' in p.data) {
      const s = ShellResultSchema.safeParse(p.data.Json);
      if (s.success) return s.data;
    } else {
      const cut = TRUNCATED_SHELL_JSON.exec(p.data.Text);
      if (cut) return { exit_status: cut[1], stdout: p.data.Text, stderr: '' };
    }
  }
  return undefined;
}

/** The todo list the `todo_list` tool keeps (`tools/todo.rs`): `create` sets it, `complete` / `add` / `remove` change it by index. */
class TodoList {
  private items: Array<{ text: string; status: PlanItemStatus }> = [];

  /** Whether the call changed the list. */
  apply(args: Record<string, unknown>): boolean {
    const tasks = (v: unknown) =>
      Array.isArray(v)
        ? v
            .map((t) => TaskSchema.safeParse(t))
            .filter((t) => t.success)
            .map((t) => t.data.task_description)
        : [];
    const indices = (v: unknown) => (Array.isArray(v) ? v.filter((i): i is number => Number.isInteger(i)) : []);
    switch (args.command) {
      case 'create':
        this.items = tasks(args.tasks).map((text) => ({ text, status: 'pending' }));
        return true;
      case 'complete':
        for (const i of indices(args.completed_indices)) if (this.items[i]) this.items[i] = { ...this.items[i], status: 'completed' };
        return true;
      case 'add': {
        const added = tasks(args.new_tasks);
        const at = indices(args.insert_indices);
        added.forEach((text, k) => this.items.splice(Math.min(at[k] ?? this.items.length, this.items.length), 0, { text, status: 'pending' }));
        return added.length > 0;
      }
      case 'remove': {
        const gone = new Set(indices(args.remove_indices));
        this.items = this.items.filter((_, i) => !gone.has(i));
        return gone.size > 0;
      }
      default:
        return false;
    }
  }

  get list(): ReadonlyArray<{ text: string; status: PlanItemStatus }> {
    return this.items;
  }
}

/** Turns `HistoryEntry` records into events; entries at or before `sinceTime` change no event but still pair tool uses. */
export class KiroEvents {
  readonly acc: SessionAccumulator;
  lastTime = 0;
  private readonly pending = new PendingCalls<ToolUse>();
  private readonly todos = new TodoList();
  private time = 0;

  constructor(
    private readonly opts: ReaderOptions,
    private cwd?: string,
  ) {
    this.acc = accumulator(opts);
  }

  /** False when the record is no `HistoryEntry`. */
  entry(raw: unknown): boolean {
    const e = KiroHistoryEntrySchema.safeParse(raw);
    if (!e.success) return false;
    const meta = e.data.request_metadata ?? undefined;
    // A `/save` file names no folder of its own: the user's environment, sent with each message, does.
    this.cwd ??= e.data.user.env_context?.env_state?.current_working_directory || undefined;
    const stamp = Date.parse(e.data.user.timestamp ?? '') || meta?.request_start_timestamp_ms || 0;
    // Entries without a time of their own (tool results) take the one before them, so the order holds.
    this.time = Math.max(this.time, stamp);
    const isNew = this.time > (this.opts.sinceTime ?? -Infinity);
    const time = this.time ? new Date(this.time).toISOString() : undefined;
    const at = time ? { time } : {};
    const content = e.data.user.content;
    const results =
      'Prompt' in content ? [] : 'ToolUseResults' in content ? content.ToolUseResults.tool_use_results : content.CancelledToolUses.tool_use_results;
    for (const r of results) {
      const call = this.pending.take(r.tool_use_id);
      if (call && isNew) this.toolUse(call, r, time ?? call.time);
    }
    // Only what the user types is stamped (`new_prompt(input, Some(now))`); an unstamped prompt is the CLI's: tool
    // results moved into the first entry, a compaction summary, the context message, an MCP prompt's text.
    const typed = 'Prompt' in content ? (e.data.user.timestamp ? content.Prompt.prompt : '') : undefined;
    const prompt = typed ?? ('CancelledToolUses' in content ? (content.CancelledToolUses.prompt ?? '') : '');
    const said = prompt.trim() === INTERRUPTED ? '' : cleanTurnText(prompt);
    if (said && isNew) this.acc.add({ kind: 'turn', role: 'user', text: said, ...at });
    const a = e.data.assistant;
    const words = cleanTurnText('Response' in a ? a.Response.content : a.ToolUse.content);
    if (words && isNew) this.acc.add({ kind: 'turn', role: 'assistant', text: words, ...at });
    if ('ToolUse' in a)
      for (const u of a.ToolUse.tool_uses) {
        const use = KiroToolUseSchema.safeParse(u);
        if (use.success) this.pending.set(use.data.id, { ...use.data, ...at });
      }
    while (this.pending.size > MAX_PENDING) this.pending.shift();
    if (isNew && this.time) this.lastTime = Math.max(this.lastTime, meta?.stream_end_timestamp_ms ?? this.time);
    return true;
  }

  /** `latest_summary`, `[summary, request metadata]`: what `/compact` left of the conversation before `history`. */
  summary(raw: unknown): void {
    const s = SummarySchema.safeParse(raw);
    const text = s.success ? cleanTurnText(s.data[0]) : '';
    const ms = s.success ? (s.data[1]?.stream_end_timestamp_ms ?? s.data[1]?.request_start_timestamp_ms) : undefined;
    if (!text || (ms ?? Infinity) <= (this.opts.sinceTime ?? -Infinity)) return;
    this.acc.add({ kind: 'compaction', text, ...(ms ? { time: new Date(ms).toISOString() } : {}) });
  }

  private toolUse(call: ToolUse, r: ToolResult, time: string | undefined): void {
    const at = time ? { time } : {};
    const text = resultText(r);
    const refused = r.status === 'Error' && text.startsWith(CANCELLED);
    if (SHELL_TOOLS.has(call.name)) {
      const command = typeof call.args.command === 'string' ? call.args.command : undefined;
      if (!command) return;
      const shell = shellResult(r);
      const code = shell ? Number(shell.exit_status) : NaN;
      // An error result without the tool's JSON is the CLI's own (a refusal, a bad argument): the command never ran.
      const ran = !refused && (shell !== undefined || r.status !== 'Error');
      this.acc.add({
        kind: 'command',
        command,
        cwd: (typeof call.args.working_dir === 'string' ? call.args.working_dir : undefined) ?? this.cwd ?? null,
        exit_code: ran && Number.isInteger(code) ? code : null,
        ran,
        output_tail: outputTail(shell ? [shell.stdout, shell.stderr].filter(Boolean).join('\n') : text),
        ...at,
      });
      return;
    }
    if (r.status !== 'Success') return;
    if (WRITE_TOOLS.has(call.name)) {
      const p = typeof call.args.path === 'string' ? call.args.path : undefined;
      if (p)
        this.acc.add({
          kind: 'file_edit',
          path: relativePath(p, this.opts.workspaceRoot ?? this.cwd),
          tool: `${call.name}:${String(call.args.command ?? 'write')}`,
          ...at,
        });
    } else if ((call.name === 'todo_list' || call.name === 'todo') && this.todos.apply(call.args)) {
      const plan = planOf('todo_list', this.todos.list, at);
      if (plan) this.acc.add(plan);
    }
  }
}

/** A `/save` file (`ConversationState` JSON), its `history` streamed item by item. Never throws. */
export async function readKiroSave(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const stats: ReadStats = emptyStats();
  try {
    const events = new KiroEvents(opts);
    // A document cut short before its summary still has its history read.
    events.summary(await readJsonValueAt(file, ['latest_summary']).catch(() => undefined));
    await readArrayItemsKeepingCutShort(file, ['history'], stats, (item) => {
      stats.lines++;
      if (!events.entry(item)) countBadRecord(stats, stats.lines, 'item');
    });
    return { ...transcriptRead('kiro', file, events.acc, stats, 0), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
  } catch (err) {
    return unreadable('kiro', file, err);
  }
}
