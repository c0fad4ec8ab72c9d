// Kiro CLI's session store (aws/amazon-q-developer-cli `crates/chat-cli-v2/src/agent/session/mod.rs`), in
// `~/.kiro/sessions/cli/` (`util/paths.rs` `sessions_dir`, `$KIRO_TEST_SESSIONS_DIR` when set): per session
// `<id>.json`, the metadata `SessionData {session_id, cwd, created_at, updated_at, title, exported_from_v1?,
// parent_session_id?, session_state}`, and `<id>.jsonl`, the append-only log of `LogEntry` (`crates/agent/src/agent/
// event_log.rs`): `{version: "v1", kind, data}` with kind `Prompt {message_id, content, meta?: {timestamp (s),
// additionalContext}}`, `AssistantMessage {message_id, content}`, `ToolResults {message_id, content, results}`,
// `Compaction {summary, strategy, messages_snapshot}`, `ResetTo {target_index}`, `CancelledPrompt`, `Clear`.
// `content` holds `ContentBlock`s (`agent_loop/types.rs`), `{kind: "text" | "toolUse" | "toolResult" | "image" |
// "thinking", data}`: `toolUse {toolUseId, name, input}`, `toolResult {toolUseId, content: [{kind: "text" | "json",
// data}], status: "success" | "error"}`. `results` maps a tool use id to `{tool, result}`, `result` being
// `{Success: {items}}`, `{Error: …}` or `"Cancelled"`; it may be empty, so the `toolResult` blocks are what is read.
import * as z from 'zod';
import path from 'node:path';
import { cleanTurnText, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { KIRO_LOG_KINDS, documentHead, type RecordHead } from '../jsonLinesFormat';
import { readJsonValueAt } from '../jsonStream';
import { forEachJsonLine } from '../lines';
import { PendingCalls, accumulator, relativePath, transcriptRead, unreadable, type ReaderOptions } from './common';
import { KIRO_TASK_TOOLS, KiroTaskList } from './kiroSessionTasks';

/** `execute_cmd`'s names: `shell` (the agent's), `execute_bash` / `execute_cmd` (aliases, and the older CLI's). */
const SHELL_TOOLS = new Set(['shell', 'execute_bash', 'execute_cmd']);
/** `fs_write`'s names; its `command` is `create`, `strReplace` or `insert` (older: `str_replace`, `append`), on `path`. */
const WRITE_TOOLS = new Set(['write', 'fs_write']);
const MAX_PENDING = 2000;
/** What the CLI puts in a tool result when the user interrupts pending tool uses (`end_current_turn`): never ran. */
const CANCELLED = 'Tool use was cancelled by the user';
/** The older CLI's prompt on interrupted tool uses (kept by an export of its conversations): not the user's words. */
const INTERRUPTED = 'The user interrupted the tool execution.';
/** What the CLI writes as the agent's words after interrupted tool uses (`end_current_turn`). */
const INTERRUPTED_REPLY = 'Tool uses were interrupted, waiting for the next user prompt';
/** Prompts the agent sends itself to retry (`agent/mod.rs`); unstamped, like every prompt the CLI writes. */
const RETRY_PROMPTS = new Set([
  'The generated tool was too large, try again but this time split up the work between multiple tool uses',
  'You took too long to respond - try to split up the work into smaller steps.',
]);
/**
 * `ExitStatus`'s `Display`, as `build_output_result` stores it: `exit status: N` (Unix), `exit code: N` / `0x…`
 * (Windows), `signal: N (SIGKILL)`; the older CLI stored the number alone.
 */
const EXIT = /^(?:exit (?:status|code):\s*)?(-?\d+|0x[0-9a-f]+)\s*$/i;
const SIGNAL = /^signal:\s*\d+/i;
/** A shell result cut to its JSON text by the older CLI's truncation. */
const TRUNCATED_SHELL_JSON = /^\{"exit_status":"([^"]*)"/;

const BlockSchema = z.looseObject({ kind: z.string(), data: z.unknown().optional() });
const BlocksSchema = z.array(z.unknown()).catch([]);
export const KiroToolUseSchema = z.looseObject({ toolUseId: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()).catch({}) });
export const KiroToolResultSchema = z.looseObject({ toolUseId: z.string(), content: BlocksSchema, status: z.string().catch('success') });
export const KiroLogEntrySchema = z.looseObject({ version: z.literal('v1'), kind: z.string(), data: z.unknown().optional() });
export const KiroPromptSchema = z.looseObject({
  content: BlocksSchema,
  meta: z
    .looseObject({ timestamp: z.number().nullable().optional().catch(undefined) })
    .nullable()
    .optional()
    .catch(undefined),
});
const ContentSchema = z.looseObject({ content: BlocksSchema });
const ResultsSchema = z.looseObject({ results: z.record(z.string(), z.looseObject({ result: z.unknown() })).catch({}) });
const CompactionSchema = z.looseObject({ summary: z.string() });
const ShellResultSchema = z.looseObject({ exit_status: z.union([z.string(), z.number()]), stdout: z.string().catch(''), stderr: z.string().catch('') });
/** The session's `<id>.json`. */
export const KiroSessionMetaSchema = z.looseObject({
  session_id: z.string(),
  cwd: z.string(),
  updated_at: z.string().optional().catch(undefined),
  exported_from_v1: z.boolean().optional().catch(undefined),
  parent_session_id: z.string().nullable().optional().catch(undefined),
});
export type KiroSessionMeta = z.infer<typeof KiroSessionMetaSchema>;

interface Call {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** The metadata document by its first keys (`session_id`, `cwd`, `created_at`, …, `session_state`). */
export function isKiroSessionMeta(head: RecordHead): boolean {
  return typeof head.values.get('session_id') === 'string' && typeof head.values.get('cwd') === 'string' && head.keys.has('created_at');
}

/** `<id>.json` beside `<id>.jsonl`. */
export function kiroMetaFileOf(logFile: string): string {
  return path.join(path.dirname(logFile), `${path.basename(logFile, '.jsonl')}.json`);
}

/**
 * Undefined when missing or not the metadata. `SessionData` writes its scalars before `session_state`, which grows
 * with the session, so they are read from the document's head; `cwd` is streamed for when a long title pushed it out.
 * `under`: the key it sits at in the document (an export's `metadata`).
 */
export async function readKiroSessionMeta(metaFile: string, under?: string): Promise<KiroSessionMeta | undefined> {
  const head = await documentHead(metaFile);
  const at = (key: string) => head?.values.get(under ? `${under}.${key}` : key) ?? undefined;
  const cwd = at('cwd') ?? (head ? await readJsonValueAt(metaFile, under ? [under, 'cwd'] : ['cwd']).catch(() => undefined) : undefined);
  const parsed = KiroSessionMetaSchema.safeParse({
    session_id: at('session_id'),
    cwd,
    updated_at: at('updated_at'),
    exported_from_v1: at('exported_from_v1'),
    parent_session_id: at('parent_session_id'),
  });
  return parsed.success ? parsed.data : undefined;
}

function blocks(raw: unknown): Array<{ kind: string; data: unknown }> {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((b) => {
    const p = BlockSchema.safeParse(b);
    return p.success ? [{ kind: p.data.kind, data: p.data.data }] : [];
  });
}

/** A resource link the client attached (`{"type":"resource_link", uri, …}` as text): not typed words. */
function isResourceLink(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    return (JSON.parse(text) as { type?: unknown }).type === 'resource_link';
  } catch {
    return false;
  }
}

function texts(raw: unknown): string[] {
  return blocks(raw).flatMap((b) => (b.kind === 'text' && typeof b.data === 'string' && !isResourceLink(b.data) ? [b.data] : []));
}

function resultText(content: unknown): string {
  return blocks(content)
    .map((b) => (b.kind === 'text' && typeof b.data === 'string' ? b.data : b.kind === 'json' ? JSON.stringify(b.data) : ''))
    .filter(Boolean)
    .join('\n');
}

function shellResult(content: unknown): z.infer<typeof ShellResultSchema> | undefined {
  for (const b of blocks(content)) {
    if (b.kind === 'json') {
      const s = ShellResultSchema.safeParse(b.data);
      if (s.success) return s.data;
    } else if (b.kind === 'text' && typeof b.data === 'string') {
      const cut = TRUNCATED_SHELL_JSON.exec(b.data);
      if (cut) return { exit_status: cut[1], stdout: b.data, stderr: '' };
    }
  }
  return undefined;
}

/** The code in `exit status: N`; null for a signal or anything else. */
export function kiroExitCode(status: string | number): number | null {
  if (typeof status === 'number') return Number.isInteger(status) ? status : null;
  const m = EXIT.exec(status.trim());
  if (!m) return null;
  const n = m[1].toLowerCase().startsWith('0x') ? Number.parseInt(m[1], 16) | 0 : Number(m[1]);
  return Number.isInteger(n) ? n : null;
}

/** Turns log entries into events. */
export class KiroSessionEvents {
  readonly acc: SessionAccumulator;
  lastTime = 0;
  private readonly pending = new PendingCalls<Call>();
  private readonly tasks: KiroTaskList;
  private time = 0;
  /** Whether this log's writer stamps typed prompts (every writer since `MessageMetadata`; an export of the older store). */
  private stamps: boolean;

  constructor(
    private readonly opts: ReaderOptions,
    private readonly meta: KiroSessionMeta | undefined,
  ) {
    this.acc = accumulator(opts);
    this.tasks = new KiroTaskList(opts.plan);
    this.stamps = meta?.exported_from_v1 === true;
  }

  private get isNew(): boolean {
    return (this.opts.fromOffset ?? 0) > 0 || this.time > (this.opts.sinceTime ?? -Infinity);
  }

  private get at(): { time?: string } {
    return this.time ? { time: new Date(this.time).toISOString() } : {};
  }

  /** False when the record is no log entry. */
  entry(raw: unknown): boolean {
    const e = KiroLogEntrySchema.safeParse(raw);
    if (!e.success || !KIRO_LOG_KINDS.has(e.data.kind)) return false;
    switch (e.data.kind) {
      case 'Prompt':
        this.prompt(e.data.data);
        break;
      case 'AssistantMessage':
        this.assistant(e.data.data);
        break;
      case 'ToolResults':
        this.toolResults(e.data.data);
        break;
      case 'Compaction': {
        const c = CompactionSchema.safeParse(e.data.data);
        const text = c.success ? cleanTurnText(c.data.summary) : undefined;
        if (text && this.isNew) this.acc.add({ kind: 'compaction', text, ...this.at });
        break;
      }
    }
    if (this.isNew && this.time) this.lastTime = Math.max(this.lastTime, this.time);
    return true;
  }

  /**
   * Typed prompts carry `meta.timestamp`; the CLI's own (a stop hook's reason, its retry requests) carry none. Writers
   * before `MessageMetadata` stamped nothing and appended the prompt hooks' output as further text blocks, so there the
   * first text block is the user's.
   */
  private prompt(data: unknown): void {
    const p = KiroPromptSchema.safeParse(data);
    if (!p.success) return;
    const seconds = p.data.meta?.timestamp;
    const said = texts(p.data.content);
    let text: string | undefined;
    if (typeof seconds === 'number') {
      this.stamps = true;
      this.time = Math.max(this.time, Math.round(seconds * 1000));
      text = said.join('\n');
    } else if (!this.stamps && said.length && !RETRY_PROMPTS.has(said[0].trim())) {
      text = said[0];
    }
    const clean = text ? cleanTurnText(text) : undefined;
    if (clean && this.isNew) this.acc.add({ kind: 'turn', role: 'user', text: clean, ...this.at });
  }

  private assistant(data: unknown): void {
    const c = ContentSchema.safeParse(data);
    if (!c.success) return;
    const words = cleanTurnText(texts(c.data.content).join('\n'));
    if (words && words !== INTERRUPTED_REPLY && this.isNew) this.acc.add({ kind: 'turn', role: 'assistant', text: words, ...this.at });
    for (const b of blocks(c.data.content)) {
      if (b.kind !== 'toolUse') continue;
      const use = KiroToolUseSchema.safeParse(b.data);
      if (use.success) this.pending.set(use.data.toolUseId, { name: use.data.name, input: use.data.input });
    }
    while (this.pending.size > MAX_PENDING) this.pending.shift();
  }

  private toolResults(data: unknown): void {
    const c = ContentSchema.safeParse(data);
    if (!c.success) return;
    const results = ResultsSchema.safeParse(data);
    for (const b of blocks(c.data.content)) {
      if (b.kind === 'text' && typeof b.data === 'string' && this.meta?.exported_from_v1 && b.data.trim() !== INTERRUPTED) {
        // An export of the older store keeps a prompt typed over pending tool uses here, beside their results.
        const said = cleanTurnText(b.data);
        if (said && this.isNew) this.acc.add({ kind: 'turn', role: 'user', text: said, ...this.at });
      }
      if (b.kind !== 'toolResult') continue;
      const r = KiroToolResultSchema.safeParse(b.data);
      const call = r.success ? this.pending.take(r.data.toolUseId) : undefined;
      if (!r.success || !call || !this.isNew) continue;
      const cancelled = results.success && results.data.results[r.data.toolUseId]?.result === 'Cancelled';
      this.toolUse(call, r.data, cancelled);
    }
  }

  private toolUse(call: Call, r: z.infer<typeof KiroToolResultSchema>, cancelled: boolean): void {
    const at = this.at;
    const ok = r.status.toLowerCase() === 'success' && !cancelled;
    if (SHELL_TOOLS.has(call.name)) {
      const command = typeof call.input.command === 'string' ? call.input.command : undefined;
      if (!command) return;
      const text = resultText(r.content);
      const shell = shellResult(r.content);
      // An error result is the CLI's own (denied, interrupted, blocked by a hook, bad arguments): the command never ran.
      const ran = ok && !text.startsWith(CANCELLED);
      const status = shell ? String(shell.exit_status) : '';
      const code = ran && shell ? kiroExitCode(shell.exit_status) : null;
      this.acc.add({
        kind: 'command',
        command,
        cwd: (typeof call.input.working_dir === 'string' ? call.input.working_dir : undefined) ?? this.meta?.cwd ?? null,
        exit_code: code,
        ...(ran && code === null && SIGNAL.test(status) ? { failed: true } : {}),
        ran,
        output_tail: outputTail(shell ? [shell.stdout, shell.stderr].filter(Boolean).join('\n') : text),
        ...at,
      });
      return;
    }
    if (!ok) return;
    if (WRITE_TOOLS.has(call.name)) {
      const p = typeof call.input.path === 'string' ? call.input.path : undefined;
      if (p)
        this.acc.add({
          kind: 'file_edit',
          path: relativePath(p, this.opts.workspaceRoot ?? this.meta?.cwd),
          tool: `${call.name}:${String(call.input.command ?? 'write')}`,
          ...at,
        });
    } else if (KIRO_TASK_TOOLS.has(call.name)) {
      const answer = blocks(r.content).find((b) => b.kind === 'json')?.data;
      const plan = this.tasks.apply(call.input, answer, at.time);
      if (plan) this.acc.add(plan);
    }
  }
}

/** `<id>.jsonl` from `opts.fromOffset`, its folder from the `<id>.json` beside it. Never throws. */
export async function readKiroSession(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  try {
    const events = new KiroSessionEvents(opts, await readKiroSessionMeta(kiroMetaFileOf(file)));
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r) => {
      if (!events.entry(r)) stats.skipped++;
    });
    return { ...transcriptRead('kiro', file, events.acc, stats, endOffset), ...(events.lastTime ? { last_time: events.lastTime } : {}) };
  } catch (err) {
    return unreadable('kiro', file, err);
  }
}
