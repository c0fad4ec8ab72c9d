/**
 * The CLI's command runner: the recorded command through the system shell, stdin closed, output not kept. On POSIX it
 * starts its own process group, so a timeout or cancel stops everything it started (SIGTERM, then SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { CommandRunner } from '../../core/receive/verification';

export const KILL_GRACE_MS = 2000;

export interface ShellRunnerOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly killGraceMs?: number;
}

/** A group already gone is fine. */
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
 * A command killed by a signal not ours exits 128 + its number, as POSIX shells report it. A missing folder is
 * the caller's to check first: Node reports it as the shell not found. Never throws.
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

export const shellCommandRunner: CommandRunner = createShellCommandRunner();
