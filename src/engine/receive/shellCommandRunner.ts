/**
 * The CLI's {@link CommandRunner} (docs/DESIGN.md §9 "Verify on receipt"): a recorded test or
 * build command re-run through the system shell (`/bin/sh -c` on POSIX, `cmd.exe /d /s /c` on
 * Windows: Node's `spawn` with `shell: true`) in the recorded folder, standard input closed,
 * its output not kept (VS Code runs it as a task instead, so the user sees it). On POSIX it
 * starts its own process group (`detached`: `setsid`), so a timeout or a cancel stops the
 * shell and everything it started: SIGTERM to the group, then SIGKILL after a grace period;
 * on Windows `taskkill /T /F` ends the process tree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { CommandRunner } from '../../core/receive/verification';

/** Time between SIGTERM and SIGKILL to the process group of a command that timed out: 2,000 ms. */
export const KILL_GRACE_MS = 2000;

/** Options of {@link createShellCommandRunner}. */
export interface ShellRunnerOptions {
  /** Environment of the commands; default this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** ms between SIGTERM and SIGKILL (default {@link KILL_GRACE_MS}). */
  readonly killGraceMs?: number;
}

/** Sends `signal` to the child's whole process group (POSIX) or ends its process tree (Windows); a group already gone is fine. */
function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') {
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    } else {
      process.kill(-child.pid, signal);
    }
  } catch {
    // ESRCH: the group has no process left.
  }
}

/** Whether the child's process group still has a process (POSIX; on Windows: false once the shell exited). */
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined || process.platform === 'win32') return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A runner of shell commands (see the file's comment). Its answer: the exit code (a command
 * ended by a signal it did not get from us: 128 + the signal's number, as POSIX shells report
 * it), `timed_out` true and a null exit code when it was stopped after `timeoutMs` ms or by
 * `signal`, `duration_ms` the wall time in ms, `error` when it could not start (Node's
 * message, e.g. `spawn /bin/sh ENOENT`). A folder that does not exist is the caller's to
 * check first (Node reports it as the shell not found). Never throws.
 */
export function createShellCommandRunner(options: ShellRunnerOptions = {}): CommandRunner {
  const grace = options.killGraceMs ?? KILL_GRACE_MS;
  return {
    run(command, { timeoutMs, signal }) {
      const started = Date.now();
      return new Promise((resolve) => {
        if (signal?.aborted) {
          resolve({ exit_code: null, timed_out: true, duration_ms: 0 });
          return;
        }
        let child: ChildProcess;
        try {
          child = spawn(command.command, {
            cwd: command.cwd,
            shell: true,
            detached: process.platform !== 'win32',
            stdio: 'ignore',
            windowsHide: true,
            env: options.env ?? process.env,
          });
        } catch (err) {
          resolve({ exit_code: null, timed_out: false, duration_ms: Date.now() - started, error: (err as Error).message });
          return;
        }
        let stopped = false;
        let killed = false;
        let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
        let done = false;
        let killTimer: NodeJS.Timeout | undefined;
        const finish = (r: { exit_code: number | null; timed_out: boolean; error?: string }) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          if (killTimer) clearTimeout(killTimer);
          signal?.removeEventListener('abort', stop);
          resolve({ ...r, duration_ms: Date.now() - started });
        };
        const settle = () => {
          if (!exited) return;
          if (stopped) {
            // Stopped by us: done once the whole group is gone (or was sent SIGKILL).
            if (killed || !groupAlive(child)) finish({ exit_code: null, timed_out: true });
            return;
          }
          const { code, signal: sig } = exited;
          finish({ exit_code: code ?? (sig ? 128 + (osConstants.signals[sig] ?? 0) : null), timed_out: false });
        };
        function stop(): void {
          if (stopped || done) return;
          stopped = true;
          killTree(child, 'SIGTERM');
          killTimer = setTimeout(() => {
            killTree(child, 'SIGKILL');
            killed = true;
            settle();
          }, grace);
        }
        const timer = setTimeout(stop, Math.max(1, timeoutMs));
        signal?.addEventListener('abort', stop, { once: true });
        child.on('error', (err) => {
          if (!exited) finish({ exit_code: null, timed_out: stopped, ...(stopped ? {} : { error: err.message }) });
        });
        child.on('exit', (code, sig) => {
          exited = { code, signal: sig };
          settle();
        });
      });
    },
  };
}

/** The runner the CLI uses: {@link createShellCommandRunner} with the defaults. */
export const shellCommandRunner: CommandRunner = createShellCommandRunner();
