// Goose sessions as JSON Lines (`~/.local/share/goose/sessions/<id>.jsonl`, the format before its `sessions.db`), in
// block/goose's shapes (`session/legacy.rs`, `conversation/message.rs`): a first line of session metadata
// `{working_dir, description, message_count, …}`, then one `Message` a line `{id?, role, created (s), content}` whose
// `toolRequest {id, toolCall: {status, value: {name, arguments}}}` is answered by a later `toolResponse {id,
// toolResult: {status, value | error}}`, the value a list of contents or `{content, isError}`.
import * as z from 'zod';
import { cleanTurnText, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonLine, parseJsonLine, readFirstLine } from '../lines';
import { PendingCalls, accumulator, relativePath, textOf, transcriptRead, unreadable, type ReaderOptions } from './common';
import { checklistPlan } from './planTools';

const MAX_PENDING = 2000;
/** The developer extension's shell (`developer__shell`; `shell` in later builds) takes `{command}`. */
const SHELL_TOOLS = new Set(['developer__shell', 'shell']);
/** `developer__text_editor` commands that change the file (`view` does not). */
const EDITOR_WRITES = new Set(['write', 'str_replace', 'insert', 'undo_edit']);
/** The shell's closing line on a non-zero exit. */
const EXIT = /\bCommand exited with code (-?\d+)\s*$/;
/** What Goose answers when the user declines a tool call in its confirmation prompt. */
const DECLINED = /\b(?:user (?:has )?declined|declined to run this tool|user (?:rejected|denied|cancelled))\b/i;

export const GooseMetadataSchema = z.looseObject({ working_dir: z.string() });
export const GooseToolRequestSchema = z.looseObject({
  type: z.literal('toolRequest'),
  id: z.string(),
  toolCall: z.looseObject({
    status: z.string(),
    value: z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()).catch({}) }).optional(),
  }),
});
export const GooseToolResponseSchema = z.looseObject({
  type: z.literal('toolResponse'),
  id: z.string(),
  toolResult: z.looseObject({ status: z.string(), value: z.unknown().optional(), error: z.unknown().optional() }),
});
export const GooseMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  /** Seconds since the epoch. */
  created: z.number().optional(),
  content: z.array(z.looseObject({ type: z.string() })),
});

interface GooseCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly time?: string;
}

/** The result's text and whether Goose marked it an error. */
function resultOf(r: z.infer<typeof GooseToolResponseSchema>['toolResult']): { text: string; isError: boolean } {
  if (r.status !== 'success') return { text: typeof r.error === 'string' ? r.error : textOf(r.value), isError: true };
  const v = r.value;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as { content?: unknown; isError?: unknown };
    return { text: textOf(o.content), isError: o.isError === true };
  }
  return { text: textOf(v), isError: false };
}

function addCall(acc: SessionAccumulator, call: GooseCall, result: { text: string; isError: boolean }, cwd: string | undefined, opts: ReaderOptions): void {
  const at = call.time ? { time: call.time } : {};
  const refused = result.isError && DECLINED.test(result.text.slice(0, 300));
  if (SHELL_TOOLS.has(call.name)) {
    const command = typeof call.input.command === 'string' ? call.input.command : undefined;
    if (!command) return;
    const m = EXIT.exec(result.text.trimEnd());
    const exit = refused ? null : m ? Number(m[1]) : null;
    acc.add({
      kind: 'command',
      command,
      cwd: cwd ?? null,
      exit_code: exit,
      ...(result.isError && !refused && exit === null ? { failed: true } : {}),
      ran: !refused,
      output_tail: outputTail(result.text),
      ...at,
    });
    return;
  }
  if (result.isError) return;
  const base = opts.workspaceRoot ?? cwd;
  const p = typeof call.input.path === 'string' ? call.input.path : undefined;
  if (call.name === 'developer__text_editor') {
    if (p && EDITOR_WRITES.has(String(call.input.command)))
      acc.add({ kind: 'file_edit', path: relativePath(p, base), tool: `text_editor ${call.input.command}`, ...at });
  } else if (/^(?:developer__)?(?:write|edit)$/.test(call.name)) {
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool: call.name, ...at });
  } else if (/^todo__(?:todo_)?write$/.test(call.name)) {
    const plan = checklistPlan(call.name, call.input.content, call.time);
    if (plan) acc.add(plan);
  }
}

/**
 * One session's `Message`s in order, from its JSON Lines or from `sessions.db`'s `messages.content_json` (the same
 * serde type): tool requests wait for their responses, `cwd` places the commands. Only messages newer than
 * `opts.sinceTime` add events (their requests are still kept for the answers that follow).
 */
export class GooseEvents {
  readonly acc: SessionAccumulator;
  private readonly pending = new PendingCalls<GooseCall>();

  constructor(
    private readonly opts: ReaderOptions,
    public cwd?: string,
  ) {
    this.acc = accumulator(opts);
  }

  /** False when `r` is no `Message` (the caller counts it). */
  message(r: unknown): boolean {
    const parsed = GooseMessageSchema.safeParse(r);
    if (!parsed.success) return false;
    const m = parsed.data;
    const time = typeof m.created === 'number' && Number.isFinite(m.created) ? new Date(m.created * 1000).toISOString() : undefined;
    const at = time ? { time } : {};
    const isNew = this.opts.sinceTime === undefined || m.created === undefined || m.created * 1000 > this.opts.sinceTime;
    const texts: string[] = [];
    for (const b of m.content) {
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      else if (b.type === 'toolRequest' && m.role === 'assistant') {
        const q = GooseToolRequestSchema.safeParse(b);
        const value = q.success ? q.data.toolCall.value : undefined;
        if (q.success && value) this.pending.set(q.data.id, { name: value.name, input: value.arguments, ...at });
      } else if (b.type === 'toolResponse') {
        const s = GooseToolResponseSchema.safeParse(b);
        const call = s.success ? this.pending.take(s.data.id) : undefined;
        if (s.success && call && isNew) addCall(this.acc, call, resultOf(s.data.toolResult), this.cwd, this.opts);
      }
    }
    const text = cleanTurnText(texts.join('\n').trim());
    if (text && isNew) this.acc.add({ kind: 'turn', role: m.role, text, ...at });
    while (this.pending.size > MAX_PENDING) this.pending.shift();
    return true;
  }
}

/** From `opts.fromOffset`. Never throws. */
export async function readGoose(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  try {
    // Read from an offset, the metadata line is behind it: its folder still places the commands.
    const events = new GooseEvents(opts, opts.fromOffset ? gooseSessionCwd(parseJsonLine((await readFirstLine(file)) ?? '')) : undefined);
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r) => {
      const meta = !('role' in r) ? GooseMetadataSchema.safeParse(r) : undefined;
      if (meta?.success) events.cwd = meta.data.working_dir;
      else if (!events.message(r)) stats.skipped++;
    });
    return transcriptRead('goose', file, events.acc, stats, endOffset);
  } catch (err) {
    return unreadable('goose', file, err);
  }
}

/** The `working_dir` of a session's first line. */
export function gooseSessionCwd(firstRecord: Record<string, unknown> | undefined): string | undefined {
  const m = firstRecord && !('role' in firstRecord) ? GooseMetadataSchema.safeParse(firstRecord) : undefined;
  return m?.success ? m.data.working_dir : undefined;
}
