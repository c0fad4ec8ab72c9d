/**
 * The engine's `CommandRunner` as VS Code tasks: a `ShellExecution` in the recorded folder, in
 * a terminal of its own so the user sees the output.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { shownCommand } from '../../core/receive/shownCommand';
import type { CommandRunner } from '../../core/receive/verification';

/** package.json `taskDefinitions`. */
export const VERIFY_TASK_TYPE = 'handoff-verify';

export const VERIFY_TASK_SOURCE = 'Handoff: Verify';

/** `run` is a random id that tells this run's task apart in `onDidEndTaskProcess`. */
export interface VerifyTaskDefinition extends vscode.TaskDefinition {
  readonly type: typeof VERIFY_TASK_TYPE;
  readonly command: string;
  readonly cwd: string;
  readonly kind: 'test' | 'build';
  readonly run: string;
}

export function isVerifyTask(task: vscode.Task): boolean {
  return task.definition.type === VERIFY_TASK_TYPE;
}

/** Wait (ms) after a task ends without a process-end event before it counts as not started. */
export const END_WITHOUT_PROCESS_MS = 1000;

/** One task at a time; `stop` aborts whatever runs when the user cancels the whole verification. */
export class TaskCommandRunner implements CommandRunner {
  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly log: vscode.LogOutputChannel,
    private readonly stop?: AbortSignal,
  ) {}

  /** Never throws: `error` says why the task could not start. `timed_out` also on abort. */
  async run(
    command: { readonly command: string; readonly cwd: string; readonly kind: 'test' | 'build' },
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<{ exit_code: number | null; timed_out: boolean; duration_ms: number; error?: string }> {
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const signals = [options.signal, this.stop].filter((s): s is AbortSignal => s !== undefined);
    if (signals.some((s) => s.aborted)) return { exit_code: null, timed_out: true, duration_ms: 0, error: 'cancelled before it started' };
    const definition: VerifyTaskDefinition = {
      type: VERIFY_TASK_TYPE,
      command: command.command,
      cwd: command.cwd,
      kind: command.kind,
      run: randomBytes(6).toString('hex'),
    };
    const task = new vscode.Task(
      definition,
      this.folder,
      shownCommand(command.command),
      VERIFY_TASK_SOURCE,
      new vscode.ShellExecution(command.command, { cwd: command.cwd }),
      [],
    );
    task.presentationOptions = {
      reveal: vscode.TaskRevealKind.Always,
      panel: vscode.TaskPanelKind.Dedicated,
      clear: true,
      echo: true,
      focus: false,
      showReuseMessage: false,
    };
    const ours = (t: vscode.Task) => t.definition.type === VERIFY_TASK_TYPE && (t.definition as VerifyTaskDefinition).run === definition.run;

    return new Promise((resolve) => {
      const subs: vscode.Disposable[] = [];
      let execution: vscode.TaskExecution | undefined;
      let stopped = false;
      let settled = false;
      let timer: NodeJS.Timeout | undefined = undefined;
      let grace: NodeJS.Timeout | undefined;
      const finish = (r: { exit_code: number | null; timed_out: boolean; error?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(grace);
        subs.forEach((d) => d.dispose());
        signals.forEach((s) => s.removeEventListener('abort', abort));
        const result = { exit_code: r.exit_code, timed_out: r.timed_out, duration_ms: elapsed(), ...(r.error ? { error: r.error } : {}) };
        this.log.info(
          `verify: task \`${command.command}\` in ${command.cwd}: ${r.timed_out ? 'stopped' : `exit code ${r.exit_code ?? 'none'}`} after ${result.duration_ms} ms${r.error ? ` (${r.error})` : ''}`,
        );
        resolve(result);
      };
      const terminate = () => {
        stopped = true;
        if (execution) execution.terminate();
        else finish({ exit_code: null, timed_out: true, error: 'stopped before the task started' });
      };
      const abort = () => terminate();
      subs.push(
        vscode.tasks.onDidEndTaskProcess((e) => {
          if (!ours(e.execution.task)) return;
          finish(stopped ? { exit_code: null, timed_out: true } : { exit_code: typeof e.exitCode === 'number' ? e.exitCode : null, timed_out: false });
        }),
        // A task whose process never started (the shell could not be found, the folder went
        // away) ends without a process end event.
        vscode.tasks.onDidEndTask((e) => {
          if (!ours(e.execution.task)) return;
          grace = setTimeout(
            () => finish({ exit_code: null, timed_out: stopped, error: stopped ? undefined : 'the task ended without its process reporting an exit code' }),
            END_WITHOUT_PROCESS_MS,
          );
        }),
      );
      signals.forEach((s) => s.addEventListener('abort', abort, { once: true }));
      timer = setTimeout(terminate, Math.max(1, options.timeoutMs));
      vscode.tasks.executeTask(task).then(
        (e) => {
          execution = e;
          if (stopped) e.terminate();
        },
        (err: unknown) => finish({ exit_code: null, timed_out: false, error: `the task could not start: ${(err as Error)?.message ?? String(err)}` }),
      );
    });
  }
}
