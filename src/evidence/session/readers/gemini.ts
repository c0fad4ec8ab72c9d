// Gemini CLI session logs under `~/.gemini/tmp/<project>/` (gemini-cli `config/storage.ts`), four shapes told apart by
// content (GeminiShape). Incremental reads resume after the byte offset (JSON Lines) and skip items not newer than
// `sinceTime`, so a message appended again is not counted twice. Compression replaces the history by a user-role
// `<state_snapshot>` turn and the reply "Got it. Thanks for the additional context!": the snapshot is a compaction
// event (the agent's summary, not a request), the reply no turn.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { cleanTurnText, countBadRecord, emptyStats, type ReadStats, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem } from '../jsonStream';
import { forEachJsonLine, openRegularForReading, parseJsonLine } from '../lines';
import { addGeminiCall, functionResponseText, type GeminiCall } from './geminiTools';
import { accumulator, obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';

/**
 * - `chat-jsonl` (`chats/session-<time>-<id>.jsonl`): `{sessionId, projectHash, startTime, …}`, then messages
 *   `{id, timestamp, type: user|gemini|info|error|warning, content, toolCalls?}`, each appended again whole when it
 *   changes, plus `{$set: {…}}` updates (may repeat `messages`) and `{$rewindTo}`
 * - `chat-json` (`chats/session-*.json`): `{sessionId, projectHash, startTime, lastUpdated, messages: […]}`, rewritten whole
 * - `checkpoint` (`/chat save <tag>` → `checkpoint-<tag>.json`): `{history: Content[]}` or a bare `Content[]`,
 *   `{role: user|model, parts: [{text} | {functionCall} | {functionResponse}]}`; no times
 * - `logs` (`logs.json`): `[{sessionId, messageId, timestamp, type: "user", message}]`, the user's prompts only
 */
export type GeminiShape = 'chat-jsonl' | 'chat-json' | 'checkpoint' | 'logs';

export const GEMINI_HEAD_BYTES = 64 * 1024;
/** Message and tool-call ids remembered to count each once (the newest of each). */
const MAX_IDS = 50_000;
/** `scheduler/types.ts` `Status`. */
const FINISHED = new Set(['success', 'error', 'cancelled']);
/** The start-up context the CLI sends as the first user message (`utils/environmentContext.ts`), and the model's reply. */
const STARTUP_CONTEXT = /^(?:<session_context>\s*)?This is the Gemini CLI\. We are setting up the context for our chat\./;
const STARTUP_REPLY = /^Got it\. Thanks for the context!?$/;
/** Compression's user-role turn: the model's state snapshot (after its scratchpad, when kept). */
const STATE_SNAPSHOT = /^(?:<scratchpad>[\s\S]*?<\/scratchpad>\s*)?(<state_snapshot>[\s\S]*?(?:<\/state_snapshot>|$))/;
const COMPRESSION_REPLY = /^Got it\. Thanks for the additional context!?$/;
/** `/chat save x`, `/memory add …`: an instruction to the CLI, not a request. */
const SLASH_COMMAND = /^\/[a-z][\w:-]*(?:\s|$)/i;

/** The name is used only for an empty array (`logs.json`, `checkpoint-*.json`). Undefined for none of the four shapes. */
export function geminiShapeOf(head: string, fileName = ''): GeminiShape | undefined {
  const t = head.replace(/^\uFEFF/, '').trimStart();
  if (t.startsWith('{')) {
    const first = parseJsonLine(t.split('\n', 1)[0]);
    if (first && typeof first.sessionId === 'string' && typeof first.projectHash === 'string') {
      return Array.isArray(first.messages) ? 'chat-json' : 'chat-jsonl';
    }
    if (/^\{\s*"history"\s*:\s*\[\s*(?:\]|\{\s*"(?:role|parts)"\s*:)/.test(t)) return 'checkpoint';
    if (/^\{\s*"sessionId"\s*:\s*"/.test(t) && /"projectHash"\s*:\s*"/.test(t) && /"messages"\s*:\s*\[/.test(t)) return 'chat-json';
    return undefined;
  }
  if (t.startsWith('[')) {
    if (/^\[\s*\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"messageId"\s*:\s*\d/.test(t)) return 'logs';
    // A checkpoint's Content items are `{role, parts}`; a Cline api_conversation_history.json is `{role, content}`.
    if (/^\[\s*\{\s*(?:"role"\s*:\s*"(?:user|model)"\s*,\s*)?"parts"\s*:/.test(t)) return 'checkpoint';
    if (/^\[\s*\]\s*$/.test(t)) {
      if (fileName === 'logs.json') return 'logs';
      if (/^checkpoint-.*\.json$/.test(fileName)) return 'checkpoint';
    }
  }
  return undefined;
}

export function looksLikeGemini(head: string, fileName: string): boolean {
  return geminiShapeOf(head, fileName) !== undefined;
}

/** @throws the open error (missing file, not a regular file) */
export async function readFileHead(file: string, n = GEMINI_HEAD_BYTES): Promise<string> {
  const fh = await openRegularForReading(file);
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** A string, a part, or parts; thoughts left out. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : content && typeof content === 'object' ? [content] : [];
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      const o = obj(p);
      return o && typeof o.text === 'string' && o.thought !== true ? o.text : '';
    })
    .join('');
}

/** Undefined for the start-up context, its acknowledgement and slash commands. */
function turnText(role: 'user' | 'assistant', raw: string): string | undefined {
  const text = cleanTurnText(raw);
  if (!text) return undefined;
  if (role === 'user' && (STARTUP_CONTEXT.test(text) || SLASH_COMMAND.test(text))) return undefined;
  if (role === 'assistant' && (STARTUP_REPLY.test(text) || COMPRESSION_REPLY.test(text))) return undefined;
  return text;
}

function stateSnapshot(raw: string): string | undefined {
  return STATE_SNAPSHOT.exec(raw.trim())?.[1];
}

function remember(set: Set<string>, id: string): void {
  set.add(id);
  if (set.size > MAX_IDS) set.delete(set.values().next().value as string);
}

function ms(time: string | undefined): number {
  return time ? Date.parse(time) : Number.NaN;
}

/** Both JSON shapes: each message id's turn and each tool call counted once. */
class ChatMessages {
  private readonly turnIds = new Set<string>();
  private readonly callIds = new Set<string>();
  /** ms since epoch; 0 when none. */
  lastTime = 0;

  constructor(
    private readonly acc: SessionAccumulator,
    private readonly since: number,
    private readonly workspaceRoot: string | undefined,
  ) {}

  private isOld(t: number): boolean {
    if (Number.isFinite(t) && t > this.lastTime) this.lastTime = t;
    return Number.isFinite(t) && t <= this.since;
  }

  add(m: Record<string, unknown>, stats: ReadStats): void {
    const id = str(m.id);
    const type = str(m.type);
    if (!id || !type) {
      stats.skipped++;
      return;
    }
    const time = str(m.timestamp);
    const old = this.isOld(ms(time));
    const snapshot = type === 'user' ? stateSnapshot(partsText(m.content)) : undefined;
    if (snapshot !== undefined) {
      if (!this.turnIds.has(id) && !old) {
        remember(this.turnIds, id);
        this.acc.add({ kind: 'compaction', text: snapshot, ...(time ? { time } : {}) });
      }
    } else if (type === 'user' || type === 'gemini') {
      const role = type === 'user' ? 'user' : 'assistant';
      const text = this.turnIds.has(id) || old ? undefined : turnText(role, partsText(m.content));
      if (text) {
        remember(this.turnIds, id);
        this.acc.add({ kind: 'turn', role, text, ...(time ? { time } : {}) });
      }
    } else if (type !== 'info' && type !== 'error' && type !== 'warning') {
      stats.skipped++;
    }
    for (const raw of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
      const tc = obj(raw);
      const callId = tc && str(tc.id);
      const name = tc && str(tc.name);
      const status = tc && str(tc.status);
      // A call still running is read again, finished, when its message is appended again.
      if (!tc || !callId || !name || !status || !FINISHED.has(status) || this.callIds.has(callId)) continue;
      remember(this.callIds, callId);
      const callTime = str(tc.timestamp) ?? time;
      if (this.isOld(ms(callTime))) continue;
      const response = functionResponseText(tc.result);
      const call: GeminiCall = {
        name,
        args: obj(tc.args) ?? {},
        end: { status, text: response.text, display: typeof tc.resultDisplay === 'string' ? tc.resultDisplay : undefined },
        time: callTime,
      };
      addGeminiCall(this.acc, call, this.workspaceRoot);
    }
  }
}

/** Calls matched to their responses by id, else by name in order. */
class CheckpointHistory {
  private readonly pending = new Map<string, { name: string; args: Record<string, unknown> }>();
  private seq = 0;

  constructor(
    private readonly acc: SessionAccumulator,
    private readonly workspaceRoot: string | undefined,
  ) {}

  add(c: Record<string, unknown>, stats: ReadStats): void {
    const role = c.role === 'model' ? 'assistant' : c.role === 'user' ? 'user' : undefined;
    const parts = Array.isArray(c.parts) ? c.parts.map(obj) : [];
    if (!role) {
      stats.skipped++;
      return;
    }
    let responded = false;
    for (const p of parts) {
      const call = obj(p?.functionCall);
      const response = obj(p?.functionResponse);
      if (role === 'assistant' && call && typeof call.name === 'string') {
        this.pending.set(str(call.id) ?? `${call.name}#${this.seq++}`, { name: call.name, args: obj(call.args) ?? {} });
      } else if (role === 'user' && response && typeof response.name === 'string') {
        responded = true;
        const key = str(response.id) ?? [...this.pending.keys()].find((k) => this.pending.get(k)?.name === response.name);
        const use = key !== undefined ? this.pending.get(key) : undefined;
        if (key === undefined || !use) continue;
        this.pending.delete(key);
        const r = functionResponseText(p);
        addGeminiCall(this.acc, { name: use.name, args: use.args, end: { status: r.isError ? 'error' : 'success', text: r.text } }, this.workspaceRoot);
      }
    }
    if (!responded) {
      const raw = partsText(parts.filter((p) => p && !p.functionCall));
      const snapshot = role === 'user' ? stateSnapshot(raw) : undefined;
      const text = snapshot === undefined ? turnText(role, raw) : undefined;
      if (snapshot !== undefined) this.acc.add({ kind: 'compaction', text: snapshot });
      else if (text) this.acc.add({ kind: 'turn', role, text });
    }
  }

  /** Calls with no response (the history ends with them): no evidence they ran. */
  finish(): void {
    for (const use of this.pending.values()) {
      addGeminiCall(this.acc, { name: use.name, args: use.args, end: { status: 'cancelled' } }, this.workspaceRoot);
    }
    this.pending.clear();
  }
}

/** A file cut short keeps what was read, counted as one malformed item. */
async function streamItems(file: string, at: readonly string[], stats: ReadStats, onItem: (o: Record<string, unknown>) => void): Promise<void> {
  try {
    await forEachJsonArrayItem(file, at, (item) => {
      stats.lines++;
      const o = obj(item);
      if (o) onItem(o);
      else countBadRecord(stats, stats.lines, 'item');
    });
  } catch (err) {
    if (stats.lines === 0) throw err;
    stats.malformed++;
  }
}

/** Never throws: a missing or unreadable file, or one in none of the shapes, says why in `error`. */
export async function readGemini(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const since = opts.sinceTime ?? -Infinity;
  let head: string;
  try {
    head = await readFileHead(file);
  } catch (err) {
    return unreadable('gemini', file, err);
  }
  const shape = geminiShapeOf(head, path.basename(file));
  try {
    if (shape === 'chat-jsonl') {
      const msgs = new ChatMessages(acc, since, opts.workspaceRoot);
      const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (d, info) => {
        const set = obj(d.$set);
        if (typeof d.$rewindTo === 'string' || (typeof d.sessionId === 'string' && typeof d.projectHash === 'string')) return;
        if (set) {
          for (const m of Array.isArray(set.messages) ? set.messages : []) {
            const o = obj(m);
            if (o) msgs.add(o, info.stats);
          }
          return;
        }
        msgs.add(d, info.stats);
      });
      return { ...transcriptRead('gemini', file, acc, stats, endOffset), ...(msgs.lastTime ? { last_time: msgs.lastTime } : {}) };
    }
    const stats = emptyStats();
    if (shape === 'chat-json') {
      const msgs = new ChatMessages(acc, since, opts.workspaceRoot);
      await streamItems(file, ['messages'], stats, (o) => msgs.add(o, stats));
      return { ...transcriptRead('gemini', file, acc, stats, 0), ...(msgs.lastTime ? { last_time: msgs.lastTime } : {}) };
    }
    if (shape === 'checkpoint') {
      // No times: a checkpoint unchanged since the previous read (same start, not grown) has nothing new.
      const size = (await stat(file)).size;
      if (opts.fromOffset && opts.fromOffset >= size) return transcriptRead('gemini', file, acc, stats, size);
      const history = new CheckpointHistory(acc, opts.workspaceRoot);
      await streamItems(file, head.trimStart().startsWith('[') ? [] : ['history'], stats, (o) => history.add(o, stats));
      history.finish();
      return transcriptRead('gemini', file, acc, stats, size);
    }
    if (shape === 'logs') {
      let lastTime = 0;
      await streamItems(file, [], stats, (o) => {
        const time = str(o.timestamp);
        const t = ms(time);
        if (Number.isFinite(t)) lastTime = Math.max(lastTime, t);
        const text = o.type === 'user' && typeof o.message === 'string' ? turnText('user', o.message) : undefined;
        if (o.type !== 'user') stats.skipped++;
        if (text && !(Number.isFinite(t) && t <= since)) acc.add({ kind: 'turn', role: 'user', text, ...(time ? { time } : {}) });
      });
      return { ...transcriptRead('gemini', file, acc, stats, 0), ...(lastTime ? { last_time: lastTime } : {}) };
    }
    return {
      ...transcriptRead('gemini', file, acc, { ...stats, skipped: 1 }, 0),
      error: `${file} is not a Gemini CLI chat recording, checkpoint or logs.json; it was not read`,
    };
  } catch (err) {
    return unreadable('gemini', file, err);
  }
}
