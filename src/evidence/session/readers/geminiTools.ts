// Gemini CLI tool calls (gemini-cli `tools/shell.ts`, `coreToolScheduler.ts`). The shell tool's text is stored as the
// function response `{output}` (`{error}` when the call failed), in one of two shapes: older, one line each of `Command:`,
// `Directory:`, `Output:` (or `Stdout:` / `Stderr:`), `Error:`, `Exit Code: N | (none)`, `Signal:` …; newer, `Output: …`
// then `Error:`, `Exit Code: N`, `Signal:` only when they apply, so no such line means exit 0.
import type { SessionAccumulator, SessionCommand } from '../../../core/session/events';
import { outputTail } from '../../../core/session/events';
import { obj, relativePath, str } from './common';
import { geminiWriteTodosPlan } from './planTools';

export const GEMINI_SHELL_TOOL = 'run_shell_command';
/** Successful calls are plan snapshots. */
export const GEMINI_TODOS_TOOL = 'write_todos';
/** Both take `file_path`. */
export const GEMINI_EDIT_TOOLS: ReadonlySet<string> = new Set(['write_file', 'replace']);

export interface GeminiCallEnd {
  /** A recording's `status` (`success`, `error`, `cancelled`); checkpoints: `success` or `error` from the response. */
  readonly status: string;
  readonly text?: string;
  /** The recording's `resultDisplay` when it is text (the shell's raw output). */
  readonly display?: string;
}

/** `ran` false for a cancelled or refused call; `exit` null when the text gives none. */
export function geminiShellEnd(end: GeminiCallEnd): { ran: boolean; exit: number | null; failed: boolean; output?: string } {
  const text = end.text ?? '';
  const output = end.display ?? outputPart(text);
  if (end.status === 'cancelled' || (/cancelled by user|Operation Cancelled|denied/i.test(text.slice(0, 200)) && !/^(?:Output|Stdout):/m.test(text))) {
    return { ran: false, exit: null, failed: false, output };
  }
  const exitLine = /^Exit Code: (-?\d+|\(none\))\s*$/m.exec(text);
  let exit: number | null = null;
  if (exitLine) {
    exit = exitLine[1] === '(none)' ? null : Number(exitLine[1]);
  } else if (/^Output: /.test(text) && !/^(?:Error|Signal): (?!\(none\))/m.test(text)) {
    // The newer shape prints `Exit Code:` only when it is not 0.
    exit = 0;
  }
  const ranAtAll = exitLine !== null || /^(?:Output|Stdout|Command):/m.test(text) || end.display !== undefined;
  if (end.status === 'error' && !ranAtAll) {
    return { ran: false, exit: null, failed: false, output };
  }
  if (/^Command moved to background/.test(text)) {
    return { ran: true, exit: null, failed: false, output };
  }
  return { ran: true, exit, failed: end.status === 'error' && exit === null, output };
}

/** After `Output:` / `Stdout:`, before the trailing fields. */
function outputPart(text: string): string | undefined {
  const m = /^(?:Output|Stdout): ?([\s\S]*?)(?=^(?:Stderr|Error|Exit Code|Signal|Background PIDs|Process Group PGID): |(?![\s\S]))/m.exec(text);
  const out = m ? m[1].replace(/\n$/, '') : text;
  return out && out !== '(empty)' ? out : undefined;
}

/** Its `output` or `error` text. */
export function functionResponseText(parts: unknown): { text?: string; isError: boolean } {
  for (const p of Array.isArray(parts) ? parts : [parts]) {
    const fr = obj(obj(p)?.functionResponse);
    const response = obj(fr?.response);
    if (response) {
      const err = response.error;
      if (err !== undefined) return { text: typeof err === 'string' ? err : JSON.stringify(err), isError: true };
      const out = response.output;
      return { text: typeof out === 'string' ? out : out === undefined ? undefined : JSON.stringify(out), isError: false };
    }
  }
  return { isError: false };
}

export interface GeminiCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly end: GeminiCallEnd;
  readonly time?: string;
}

/** A command for the shell tool; an edit or a plan for a successful write or `write_todos`; other tools add nothing. */
export function addGeminiCall(acc: SessionAccumulator, call: GeminiCall, workspaceRoot: string | undefined): void {
  const time = call.time ? { time: call.time } : {};
  if (call.name === GEMINI_SHELL_TOOL) {
    const command = str(call.args.command);
    if (!command) return;
    const r = geminiShellEnd(call.end);
    const cmd: SessionCommand = {
      kind: 'command',
      command,
      cwd: str(call.args.dir_path) ?? str(call.args.directory) ?? null,
      exit_code: r.exit,
      ...(r.failed ? { failed: true } : {}),
      ran: r.ran,
      output_tail: outputTail(r.output),
      ...time,
    };
    acc.add(cmd);
  } else if (call.name === GEMINI_TODOS_TOOL && call.end.status === 'success') {
    const plan = geminiWriteTodosPlan(call.args, call.time);
    if (plan) acc.add(plan);
  } else if (GEMINI_EDIT_TOOLS.has(call.name) && call.end.status === 'success') {
    const p = str(call.args.file_path) ?? str(call.args.absolute_path);
    if (p) acc.add({ kind: 'file_edit', path: relativePath(p, workspaceRoot), tool: call.name, ...time });
  }
}
