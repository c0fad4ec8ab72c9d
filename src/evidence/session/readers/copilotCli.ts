// GitHub Copilot CLI sessions: the event log (readCopilotCli) and the older single documents (readCopilotCliHistory).
import { stat } from 'node:fs/promises';
import { cleanTurnText, emptyStats, outputTail, type SessionAccumulator, type TranscriptRead } from '../../../core/session/events';
import { forEachJsonArrayItem } from '../jsonStream';
import { forEachJsonLine } from '../lines';
import { patchPaths } from './codex';
import { PendingCalls, accumulator, obj, relativePath, str, textOf, transcriptRead, unreadable, type ReaderOptions } from './common';
import { CopilotCliTodos } from './copilotCliTodos';
import { checklistPlan } from './planTools';

const SHELL_TOOLS = new Set(['bash', 'powershell']);
/** Write `arguments.path` (`str_replace_editor`'s `view` command excepted). */
const PATH_EDIT_TOOLS = new Set(['create', 'edit', 'str_replace_editor']);
const MAX_PENDING = 2000;
/** `<shellId: N completed with exit code M>` or `<exited with exit code M>`. */
const EXIT_LINE = /<(?:shellId: [^<>]*? completed|exited) with exit code (-?\d+)>\s*$/;

interface CliCall {
  readonly name: string;
  readonly args: Record<string, unknown> | string | undefined;
  readonly time?: string;
}

/** An object, a JSON string of one, or (apply_patch) the raw text. */
function argumentsOf(raw: unknown): Record<string, unknown> | string | undefined {
  if (typeof raw === 'string') {
    try {
      const v: unknown = JSON.parse(raw);
      return obj(v) ?? raw;
    } catch {
      return raw;
    }
  }
  return obj(raw);
}

export function copilotCliExitCode(text: string | undefined): number | null {
  const m = text ? EXIT_LINE.exec(text) : null;
  return m ? Number(m[1]) : null;
}

interface CallEnd {
  readonly ok: boolean;
  readonly denied: boolean;
  readonly text?: string;
  readonly time?: string;
}

function addCall(acc: SessionAccumulator, call: CliCall, end: CallEnd, cwd: string | undefined, opts: ReaderOptions, todos: CopilotCliTodos): void {
  const time = end.time ?? call.time;
  const at = time ? { time } : {};
  const args = typeof call.args === 'object' ? call.args : {};
  if (SHELL_TOOLS.has(call.name)) {
    const command = str(args.command);
    if (!command) return;
    const exit = end.denied ? null : copilotCliExitCode(end.text);
    acc.add({
      kind: 'command',
      command,
      cwd: cwd ?? null,
      exit_code: exit,
      ...(!end.ok && !end.denied && exit === null ? { failed: true } : {}),
      ran: !end.denied,
      output_tail: outputTail(end.text?.replace(EXIT_LINE, '').trimEnd()),
      ...at,
    });
    return;
  }
  if (!end.ok) return;
  const base = opts.workspaceRoot ?? cwd;
  if (call.name === 'apply_patch') {
    const patch = typeof call.args === 'string' ? call.args : (str(args.input) ?? str(args.patch) ?? '');
    for (const p of patchPaths(patch)) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool: 'apply_patch', ...at });
  } else if (PATH_EDIT_TOOLS.has(call.name) && str(args.command) !== 'view') {
    const p = str(args.path) ?? str(args.file_path);
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool: call.name, ...at });
  } else if (call.name === 'update_todo') {
    const plan = checklistPlan('update_todo', args.todos, time);
    if (plan) acc.add(plan);
  } else if (call.name === 'sql') {
    const plan = todos.apply(args.query, time);
    if (plan) acc.add(plan);
  }
}

/**
 * `session-state/<session>/events.jsonl` (or `<session>.jsonl`), also `copilot -p … --output-format json`, from
 * `opts.fromOffset`: `{type, data, id, timestamp, parentId, ephemeral?}` per line (the SDK's `SessionEvent`):
 * - `session.start`: `data.context.cwd`
 * - `user.message`: `data.content` (`transformedContent` is what the model got); one with `data.source` was injected
 * - `assistant.message`: `data.content`, `data.toolRequests: [{toolCallId, name, arguments}]`; `data.parentToolCallId` marks a sub-agent
 * - `tool.execution_start` `{toolCallId, toolName, arguments}`, `tool.execution_complete` `{toolCallId, success, result: {content, detailedContent}, error: {message, code}}`
 * Tools: `bash` / `powershell` `{command}` (exit code in the result's last line; `error.code: denied` did not run),
 * `create` / `edit` / `str_replace_editor` `{path}` and `apply_patch` edits, `sql` todos and `update_todo` the plan.
 * Never throws.
 */
export async function readCopilotCli(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new PendingCalls<CliCall>();
  const todos = new CopilotCliTodos(opts.plan);
  let cwd: string | undefined;
  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r) => {
      const type = str(r.type);
      const data = obj(r.data) ?? {};
      const time = str(r.timestamp);
      const at = time ? { time } : {};
      const subagent = typeof data.parentToolCallId === 'string';
      if (type === 'session.start') {
        cwd = str(obj(data.context)?.cwd) ?? cwd;
      } else if (type === 'user.message') {
        // One with a source (a skill's instructions, instruction files) was put there by the CLI; a sub-agent's is the lead agent's prompt.
        const text = (data.source === undefined || data.source === 'user') && !subagent ? cleanTurnText(str(data.content) ?? '') : undefined;
        if (text) acc.add({ kind: 'turn', role: 'user', text, ...at });
      } else if (type === 'session.compaction_complete') {
        // `summaryContent` replaced the history before it in the model's context: the agent's words, not a request.
        // `customInstructions` is what a manual `/compact` was told to keep, so it marks the compaction as the user's.
        const summary = data.success === false || subagent ? undefined : cleanTurnText(str(data.summaryContent) ?? '');
        if (summary) acc.add({ kind: 'compaction', text: summary, ...(str(data.customInstructions) ? { trigger: 'manual' as const } : {}), ...at });
      } else if (type === 'assistant.message') {
        // A sub-agent's words are not the session's; its tool calls ran.
        const text = subagent ? undefined : cleanTurnText(str(data.content) ?? '');
        if (text) acc.add({ kind: 'turn', role: 'assistant', text, ...at });
        for (const raw of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
          const req = obj(raw);
          const id = str(req?.toolCallId);
          const name = str(req?.name);
          if (id && name && !pending.get(id)) pending.set(id, { name, args: argumentsOf(req?.arguments), ...at });
        }
      } else if (type === 'tool.execution_start') {
        const id = str(data.toolCallId);
        const name = str(data.toolName);
        if (id && name) pending.set(id, { name, args: argumentsOf(data.arguments), ...at });
      } else if (type === 'tool.execution_complete') {
        const id = str(data.toolCallId);
        const call = id ? pending.take(id) : undefined;
        if (!call) return;
        const result = obj(data.result);
        const error = obj(data.error);
        const text = str(result?.content) ?? str(result?.detailedContent) ?? str(error?.message);
        addCall(acc, call, { ok: data.success === true, denied: error?.code === 'denied', text, ...at }, cwd, opts, todos);
      }
      while (pending.size > MAX_PENDING) pending.shift();
    });
    return transcriptRead('copilot-cli', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('copilot-cli', file, err);
  }
}

/**
 * The older `history-session-state/<session>.json` `{sessionId, startTime, chatMessages, timeline}`: Chat Completions
 * messages, `assistant.tool_calls: [{id, function: {name, arguments}}]` answered by `tool` `{tool_call_id, content}`.
 * No times, so `end_offset` is the size: a document not grown has nothing new. Never throws.
 */
export async function readCopilotCliHistory(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const pending = new PendingCalls<CliCall>();
  const todos = new CopilotCliTodos(opts.plan);
  const stats = emptyStats();
  let size = 0;
  try {
    size = (await stat(file)).size;
    if (opts.fromOffset && opts.fromOffset >= size) return transcriptRead('copilot-cli', file, acc, stats, size);
    await forEachJsonArrayItem(file, ['chatMessages'], (item) => {
      stats.lines++;
      const m = obj(item);
      const role = str(m?.role);
      if (!m || !role) {
        stats.skipped++;
        return;
      }
      if (role === 'tool') {
        const call = pending.take(str(m.tool_call_id) ?? '');
        const text = textOf(m.content);
        if (call)
          addCall(
            acc,
            call,
            { ok: !/^(?:Error|Failed)\b/.test(text), denied: /\b(?:denied|rejected)\b/i.test(text.slice(0, 200)) && copilotCliExitCode(text) === null, text },
            undefined,
            opts,
            todos,
          );
        return;
      }
      const text = role === 'user' || role === 'assistant' ? cleanTurnText(textOf(m.content)) : undefined;
      if (text) acc.add({ kind: 'turn', role: role as 'user' | 'assistant', text });
      for (const raw of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        const tc = obj(raw);
        const fn = obj(tc?.function);
        const id = str(tc?.id);
        const name = str(fn?.name);
        if (id && name) pending.set(id, { name, args: argumentsOf(fn?.arguments) });
      }
    });
    return transcriptRead('copilot-cli', file, acc, stats, size);
  } catch (err) {
    if (stats.lines > 0) return transcriptRead('copilot-cli', file, acc, { ...stats, malformed: stats.malformed + 1 }, size);
    return unreadable('copilot-cli', file, err);
  }
}

/** From its `session.start`. */
export function copilotCliCwd(firstRecord: Record<string, unknown> | undefined): string | undefined {
  return firstRecord?.type === 'session.start' ? str(obj(obj(firstRecord.data)?.context)?.cwd) : undefined;
}
