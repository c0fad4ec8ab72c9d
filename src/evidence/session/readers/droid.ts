// Factory Droid `~/.factory/sessions/<project>/<session>.jsonl` (or straight under `sessions/`); the CLI is closed
// source, so these are the shapes its files hold: a header `{type: "session_start", id, title, version, cwd}`;
// `{type: "message", id, timestamp, message: {role, content}}` with Anthropic blocks (`tool_use {id, name, input}`,
// `tool_result {tool_use_id, content, is_error?}`); `{type: "todo_state", timestamp, todos}`.
import { cleanTurnText, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonLine } from '../lines';
import { patchPaths } from './codex';
import { PendingCalls, accumulator, obj, relativePath, str, textOf, transcriptRead, unreadable, type ReaderOptions } from './common';
import { droidTodoWritePlan } from './planTools';

/** They take `input.file_path`. */
const PATH_EDIT_TOOLS = new Set(['Create', 'Edit', 'MultiEdit']);
const MAX_PENDING = 2000;
/** `[Process exited with code N]`, `exit code: N`, `Exit code N`. */
const EXIT = /(?:\[Process exited with code|\bexit(?:ed with)? code:?|\bExit code:?)\s*(-?\d+)/i;
const REFUSED =
  /\b(?:user (?:rejected|denied|cancelled|canceled)|rejected by (?:the )?user|cancelled by (?:the )?user|permission denied by user|tool execution was cancelled)\b/i;
const USER_QUERY = /^<user_query>\s*([\s\S]*?)\s*<\/user_query>$/;

interface DroidCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly time?: string;
}

export function droidExitCode(text: string): number | null {
  const m = EXIT.exec(text);
  return m ? Number(m[1]) : null;
}

function addCall(
  acc: SessionAccumulator,
  call: DroidCall,
  result: { text: string; isError: boolean; time?: string },
  cwd: string | undefined,
  opts: ReaderOptions,
): void {
  const time = result.time ?? call.time;
  const at = time ? { time } : {};
  const refused = REFUSED.test(result.text.slice(0, 300));
  if (call.name === 'Execute') {
    const command = str(call.input.command);
    if (!command) return;
    const exit = refused ? null : droidExitCode(result.text);
    acc.add({
      kind: 'command',
      command,
      cwd: str(call.input.cwd) ?? cwd ?? null,
      exit_code: exit,
      ...(result.isError && !refused && exit === null ? { failed: true } : {}),
      ran: !refused,
      output_tail: outputTail(result.text),
      ...at,
    });
    return;
  }
  if (result.isError || refused) return;
  const base = opts.workspaceRoot ?? cwd;
  if (PATH_EDIT_TOOLS.has(call.name)) {
    const p = str(call.input.file_path) ?? str(call.input.path);
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool: call.name, ...at });
  } else if (call.name === 'ApplyPatch') {
    const patch = str(call.input.input) ?? str(call.input.patch) ?? '';
    for (const p of patchPaths(patch)) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool: 'ApplyPatch', ...at });
  } else if (call.name === 'TodoWrite') {
    const plan = droidTodoWritePlan(call.input, time);
    if (plan) acc.add(plan);
  }
}

/** From `opts.fromOffset`. Never throws. */
export async function readDroid(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new PendingCalls<DroidCall>();
  let cwd: string | undefined;
  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r) => {
      const type = str(r.type);
      const time = str(r.timestamp);
      const at = time ? { time } : {};
      if (type === 'session_start') {
        cwd = str(r.cwd) ?? cwd;
        return;
      }
      if (type === 'todo_state') {
        const plan = droidTodoWritePlan({ todos: r.todos }, time);
        if (plan) acc.add({ ...plan, tool: 'todo_state' });
        return;
      }
      const message = type === 'message' ? obj(r.message) : undefined;
      const role = str(message?.role);
      if (!message || (role !== 'user' && role !== 'assistant')) return;
      const blocks = Array.isArray(message.content) ? message.content.map(obj) : [{ type: 'text', text: textOf(message.content) }];
      const texts: string[] = [];
      for (const b of blocks) {
        if (!b) continue;
        if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
        else if (b.type === 'tool_use' && role === 'assistant') {
          const id = str(b.id);
          const name = str(b.name);
          if (id && name) pending.set(id, { name, input: obj(b.input) ?? {}, ...at });
        } else if (b.type === 'tool_result') {
          const call = pending.take(str(b.tool_use_id) ?? str(b.toolUseId) ?? '');
          if (call) addCall(acc, call, { text: textOf(b.content), isError: b.is_error === true || b.isError === true, ...at }, cwd, opts);
        }
      }
      const raw = texts.join('\n').trim();
      const text = cleanTurnText(role === 'user' ? (USER_QUERY.exec(raw)?.[1] ?? raw) : raw);
      if (text) acc.add({ kind: 'turn', role, text, ...at });
      while (pending.size > MAX_PENDING) pending.shift();
    });
    return transcriptRead('droid', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('droid', file, err);
  }
}

export function droidSessionCwd(firstRecord: Record<string, unknown> | undefined): string | undefined {
  return firstRecord?.type === 'session_start' ? str(firstRecord.cwd) : undefined;
}
