// OpenCode messages and parts as session events, from the JSON storage or the database alike (`session/message-v2.ts`:
// parts `text`, `tool` with `state`, `patch`; `tool/bash.ts` `metadata: {output, exit}`, `todowrite`'s `input.todos`).
import path from 'node:path';
import { cleanTurnText, outputTail, type ReadStats, type SessionAccumulator } from '../../../core/session/events';
import { patchPaths } from './codex';
import { accumulator, obj, relativePath, str } from './common';
import { openCodeTodoWritePlan } from './planTools';

/** They edit the file `input.filePath`. */
const FILE_TOOLS = new Set(['edit', 'write', 'multiedit']);
/** They apply the patch in `input.patchText`. */
const PATCH_TOOLS = new Set(['apply_patch', 'patch']);

function addTool(
  acc: SessionAccumulator,
  part: Record<string, unknown>,
  cwd: string | undefined,
  time: string | undefined,
  workspaceRoot: string | undefined,
): void {
  const tool = str(part.tool) ?? '';
  const state = obj(part.state) ?? {};
  const input = obj(state.input) ?? {};
  const meta = obj(state.metadata) ?? {};
  const done = state.status === 'completed';
  const at = time ? { time } : {};
  const base = cwd ?? workspaceRoot;
  if (tool === 'bash') {
    const command = str(input.command);
    if (!command) return;
    const output = str(meta.output) ?? str(state.output);
    // `<bash_metadata>` notes a command the user aborted: no result.
    const aborted = !done || /<bash_metadata>[\s\S]*User aborted the command/.test(output ?? '');
    acc.add({
      kind: 'command',
      command,
      cwd: str(input.workdir) ?? cwd ?? null,
      exit_code: !aborted && typeof meta.exit === 'number' ? meta.exit : null,
      ran: !aborted,
      output_tail: outputTail(output ?? str(state.error)),
      ...at,
    });
  } else if (done && tool === 'todowrite') {
    const plan = openCodeTodoWritePlan(input, time);
    if (plan) acc.add(plan);
  } else if (done && FILE_TOOLS.has(tool)) {
    const p = str(input.filePath);
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, base), tool, ...at });
  } else if (done && PATCH_TOOLS.has(tool)) {
    for (const p of patchPaths(str(input.patchText) ?? '')) {
      acc.add({ kind: 'file_edit', path: base ? relativePath(path.resolve(base, p), base) : p, tool, ...at });
    }
  }
}

function timeOf(o: Record<string, unknown> | undefined, key: string): number {
  const t = obj(o?.time)?.[key];
  return typeof t === 'number' ? t : Number.NaN;
}

export class OpenCodeEvents {
  readonly acc: SessionAccumulator = accumulator();
  /** The newest message creation or tool end (ms since epoch), 0 when none. */
  lastTime = 0;

  constructor(
    private readonly since: number,
    private readonly sessionDir: string | undefined,
    private readonly workspaceRoot: string | undefined,
  ) {}

  private seen(t: number): boolean {
    if (Number.isFinite(t)) this.lastTime = Math.max(this.lastTime, t);
    return !(Number.isFinite(t) && t <= this.since);
  }

  /** A message `{role, time, path?, summary?}` and its parts; another role is counted as skipped. */
  message(msg: Record<string, unknown>, parts: ReadonlyArray<Record<string, unknown>>, stats: ReadStats): void {
    const role = msg.role === 'user' ? 'user' : msg.role === 'assistant' ? 'assistant' : undefined;
    if (!role) {
      stats.skipped++;
      return;
    }
    const created = timeOf(msg, 'created');
    const fresh = this.seen(created);
    const time = Number.isFinite(created) ? new Date(created).toISOString() : undefined;
    const cwd = str(obj(msg.path)?.cwd) ?? this.sessionDir;
    const base = this.workspaceRoot ?? this.sessionDir;
    const texts: string[] = [];
    for (const part of parts) {
      if (part.type === 'text') {
        if (typeof part.text === 'string' && part.synthetic !== true && part.ignored !== true) texts.push(part.text);
      } else if (part.type === 'tool') {
        const state = obj(part.state);
        const end = timeOf(state, 'end');
        // Pending and running tools are read when they finish (their end time is then new).
        if ((state?.status === 'completed' || state?.status === 'error') && this.seen(end)) {
          addTool(this.acc, part, cwd, Number.isFinite(end) ? new Date(end).toISOString() : time, base);
        }
      } else if (part.type === 'patch' && fresh && Array.isArray(part.files)) {
        for (const f of part.files) {
          if (typeof f === 'string') this.acc.add({ kind: 'file_edit', path: relativePath(f, base), tool: 'snapshot', ...(time ? { time } : {}) });
        }
      }
    }
    const text = fresh && !(role === 'assistant' && msg.summary === true) ? cleanTurnText(texts.join('\n\n')) : undefined;
    if (text) this.acc.add({ kind: 'turn', role, text, ...(time ? { time } : {}) });
  }
}
