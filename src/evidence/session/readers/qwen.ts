// Qwen Code (a Gemini CLI fork) `~/.qwen/projects/<project>/chats/<session>.jsonl`, records (`ChatRecord`) `{uuid,
// parentUuid, sessionId, timestamp, type: user|assistant|tool_result|system, subtype?, cwd, message?: Content,
// toolCallResult?: {callId, status, resultDisplay}, systemPayload?}`, `message` being `{role: user|model, parts: [{text,
// thought?} | {functionCall: {id, name, args}} | {functionResponse: {id, name, response}}]}`. Tools as Gemini CLI's.
import { cleanTurnText, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonLine } from '../lines';
import { PendingCalls, accumulator, obj, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { addGeminiCall, functionResponseText } from './geminiTools';
import { qwenTodoListPlan } from './planTools';

const MAX_PENDING = 2000;
/** User-record subtypes the user typed. */
const TYPED = new Set([undefined, 'mid_turn_user_message']);
/** `/compress`, `/chat save x`: an instruction to the CLI, not a request. */
const SLASH_COMMAND = /^\/[a-z][\w:-]*(?:\s|$)/i;

interface QwenCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly time?: string;
}

/** Thoughts left out. */
function partsText(parts: unknown): string {
  return (Array.isArray(parts) ? parts : [])
    .map((p) => {
      const o = obj(p);
      return o && typeof o.text === 'string' && o.thought !== true ? o.text : '';
    })
    .join('');
}

function geminiName(name: string): string {
  return name === 'edit' ? 'replace' : name;
}

/** The todo list (`todo_write`'s argument, or what the task tools display, `resultDisplay: {type: "todo_list"}`) is the plan. */
function addCall(acc: SessionAccumulator, call: QwenCall, status: string, parts: unknown, display: unknown, workspaceRoot: string | undefined): void {
  const list = obj(display)?.type === 'todo_list' ? obj(display)?.todos : call.name === 'todo_write' ? call.args.todos : undefined;
  if (list !== undefined) {
    const plan = status === 'success' ? qwenTodoListPlan(call.name, list, call.time) : undefined;
    if (plan) acc.add(plan);
    return;
  }
  const response = functionResponseText(parts);
  addGeminiCall(
    acc,
    {
      name: geminiName(call.name),
      args: call.args,
      end: { status, text: response.text, display: typeof display === 'string' ? display : undefined },
      time: call.time,
    },
    workspaceRoot,
  );
}

/** A `chat_compression` record's compressed history starts with the summary, in the user's role. */
function compressionSummary(payload: Record<string, unknown> | undefined): string | undefined {
  for (const c of Array.isArray(payload?.compressedHistory) ? payload.compressedHistory : []) {
    const o = obj(c);
    if (o?.role === 'user') return cleanTurnText(partsText(o.parts));
  }
  return undefined;
}

/** From `opts.fromOffset`. Never throws. */
export async function readQwen(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new PendingCalls<QwenCall>();
  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r) => {
      const type = str(r.type);
      const subtype = str(r.subtype);
      const time = str(r.timestamp);
      const at = time ? { time } : {};
      const parts = obj(r.message)?.parts;
      const root = opts.workspaceRoot ?? str(r.cwd);
      // A sub-agent's (`isSidechain`) user-role text is the lead agent's prompt, its words not the session's; its tool calls ran.
      const sidechain = r.isSidechain === true;
      if (type === 'user' && TYPED.has(subtype) && !sidechain) {
        const text = cleanTurnText(partsText(parts));
        if (text && !SLASH_COMMAND.test(text)) acc.add({ kind: 'turn', role: 'user', text, ...at });
      } else if (type === 'assistant') {
        const text = sidechain ? undefined : cleanTurnText(partsText(parts));
        if (text) acc.add({ kind: 'turn', role: 'assistant', text, ...at });
        for (const p of Array.isArray(parts) ? parts : []) {
          const fc = obj(obj(p)?.functionCall);
          const name = str(fc?.name);
          if (fc && name) pending.set(str(fc.id) ?? `${name}#${stats.lines}`, { name, args: obj(fc.args) ?? {}, ...at });
        }
      } else if (type === 'tool_result') {
        const result = obj(r.toolCallResult);
        for (const p of Array.isArray(parts) ? parts : []) {
          const fr = obj(obj(p)?.functionResponse);
          const id = str(fr?.id) ?? str(result?.callId);
          const call = id ? pending.take(id) : undefined;
          if (!call) continue;
          const response = obj(fr?.response);
          const status = str(result?.status) ?? (response?.error !== undefined ? 'error' : 'success');
          addCall(acc, { ...call, time: time ?? call.time }, status, [p], result?.resultDisplay, root);
        }
      } else if (type === 'system' && subtype === 'chat_compression') {
        const summary = compressionSummary(obj(r.systemPayload));
        if (summary) acc.add({ kind: 'compaction', text: summary, ...at });
      }
      while (pending.size > MAX_PENDING) pending.shift();
    });
    return transcriptRead('qwen', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('qwen', file, err);
  }
}
