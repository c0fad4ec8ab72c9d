/**
 * Appends the session's records (`recorderLine`) to `<workspace storage>/sessions/<id>.jsonl`
 * in trusted workspaces: terminal commands (shell integration), task processes, saves, and a
 * `session_start` with the base commit. Without shell integration it says so once.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { OUTPUT_TAIL_CHARS } from '../../core/session/events';
import { recorderLine, type RecorderRecord } from '../../engine/project/session';
import { DisposableOwner } from '../lifecycle';
import { workspaceTrusted } from '../workspace/trust';
import type { SessionStore } from './sessionIdStore';

/** Time (ms) a new terminal gets to activate shell integration before the notice. */
export const SHELL_INTEGRATION_GRACE_MS = 10_000;
const NOTICE_SHOWN = 'handoff.recorder.shellIntegrationNoticeShown';

/** Reads HEAD; null when there is none. */
export type HeadReader = () => Promise<string | null>;

function commandLineOfTask(task: vscode.Task): string {
  const ex = task.execution;
  if (ex instanceof vscode.ShellExecution) {
    if (ex.commandLine) return ex.commandLine;
    const cmd = typeof ex.command === 'string' ? ex.command : (ex.command?.value ?? '');
    const args = (ex.args ?? []).map((a) => (typeof a === 'string' ? a : a.value));
    return [cmd, ...args].join(' ').trim();
  }
  if (ex instanceof vscode.ProcessExecution) {
    return [ex.process, ...ex.args].join(' ').trim();
  }
  return task.name;
}

function taskCwd(task: vscode.Task, folder: vscode.WorkspaceFolder): string | null {
  const ex = task.execution;
  const cwd = ex instanceof vscode.ShellExecution || ex instanceof vscode.ProcessExecution ? ex.options?.cwd : undefined;
  return cwd ?? folder.uri.fsPath;
}

export class SessionRecorder extends DisposableOwner {
  private writes: Promise<void> = Promise.resolve();
  private readonly taskStarts = new Map<vscode.TaskExecution, number>();
  private readonly terminalRuns = new Map<vscode.TerminalShellExecution, { started: number; tail: Promise<string> }>();
  private baseCommit: string | null = null;
  private started = false;
  private sessionStart: Promise<void> | undefined;
  /** Names of tasks seen, to tell task terminals (recorded as tasks) from the user's terminals. */
  private readonly taskNames = new Set<string>();

  /** @param storageDir context.storageUri, undefined without a workspace */
  constructor(
    private readonly storageDir: string | undefined,
    private readonly folder: vscode.WorkspaceFolder,
    private readonly session: SessionStore,
    private readonly state: vscode.Memento,
    private readonly readHead: HeadReader,
    private readonly log: vscode.LogOutputChannel,
    private readonly isExcluded: (fsPath: string) => boolean,
  ) {
    super();
  }

  /** The JSONL file of the current session, or undefined when not recording. */
  currentFile(): string | undefined {
    return this.storageDir && this.started ? path.join(this.storageDir, 'sessions', `${this.session.current()}.jsonl`) : undefined;
  }

  /** HEAD at the session's first event, or now (running git) if none came yet. */
  async currentBaseCommit(): Promise<string | null> {
    if (this.started) {
      await this.beginSession();
    }
    return this.baseCommit;
  }

  /** Trusted workspaces only; safe to call again once trust is granted. Git first runs at the first event. */
  async start(): Promise<void> {
    if (this.started || !this.storageDir || !workspaceTrusted()) {
      return;
    }
    this.started = true;
    this.listen();
  }

  /** Returns the new id; the new session's base commit is read when it begins. */
  async startNewSession(): Promise<string> {
    await this.sessionStart;
    const id = await this.session.rotate();
    this.sessionStart = undefined;
    this.baseCommit = null;
    return id;
  }

  /** Writes the session's `session_start` record (HEAD now) once, before its first event. */
  private beginSession(): Promise<void> {
    this.sessionStart ??= (async () => {
      this.baseCommit = await this.readHead().catch(() => null);
      this.append({ v: 1, type: 'session_start', session_id: this.session.current(), base_commit: this.baseCommit, time: new Date().toISOString() });
    })();
    return this.sessionStart;
  }

  private record(event: RecorderRecord): void {
    void this.beginSession().then(() => this.append(event));
  }

  private append(record: RecorderRecord): void {
    const file = this.currentFile();
    if (!file || !workspaceTrusted()) {
      return;
    }
    let line: string;
    try {
      line = recorderLine(record);
    } catch (err) {
      this.log.warn(`recorder: record not written (${(err as Error).message})`);
      return;
    }
    this.writes = this.writes
      .then(async () => {
        await mkdir(path.dirname(file), { recursive: true });
        await appendFile(file, line, 'utf8');
      })
      .catch((err) => this.log.warn(`recorder: could not write ${file}: ${(err as Error).message}`));
  }

  /** Resolves when every record so far is on disk. */
  async flush(): Promise<void> {
    // Events wait for the session_start record: let those queued behind it reach the write chain first.
    await this.sessionStart;
    await this.writes;
  }

  private listen(): void {
    const w = vscode.window as typeof vscode.window &
      Partial<Pick<typeof vscode.window, 'onDidStartTerminalShellExecution' | 'onDidEndTerminalShellExecution'>>;
    if (w.onDidStartTerminalShellExecution && w.onDidEndTerminalShellExecution) {
      this.register(
        w.onDidStartTerminalShellExecution((e) => {
          if (this.isTaskTerminal(e.terminal)) return;
          this.terminalRuns.set(e.execution, { started: Date.now(), tail: readTail(e.execution) });
        }),
      );
      this.register(
        w.onDidEndTerminalShellExecution(async (e) => {
          const run = this.terminalRuns.get(e.execution);
          this.terminalRuns.delete(e.execution);
          const command = e.execution.commandLine.value.trim();
          // Task processes are recorded by the task events, with their own names.
          if (!command || !run || this.isTaskTerminal(e.terminal) || /^\*\s+\S/.test(command)) return;
          const started = run?.started ?? Date.now();
          const tail = await Promise.race([run?.tail ?? Promise.resolve(''), new Promise<string>((r) => setTimeout(() => r(''), 2000))]);
          this.record({
            v: 1,
            type: 'command',
            origin: 'terminal',
            command,
            cwd: e.execution.cwd?.fsPath ?? null,
            exit_code: typeof e.exitCode === 'number' ? e.exitCode : null,
            started_at: new Date(started).toISOString(),
            duration_ms: Date.now() - started,
            ...(tail ? { output_tail: tail.slice(-OUTPUT_TAIL_CHARS) } : {}),
          });
        }),
      );
      this.register(vscode.window.onDidOpenTerminal((t) => this.watchShellIntegration(t)));
      vscode.window.terminals.forEach((t) => this.watchShellIntegration(t));
    } else {
      void this.noticeNoShellIntegration('this VS Code has no shell-integration events');
    }
    this.register(
      vscode.tasks.onDidStartTaskProcess((e) => {
        this.taskStarts.set(e.execution, Date.now());
        this.taskNames.add(e.execution.task.name);
      }),
    );
    this.register(
      vscode.tasks.onDidEndTaskProcess((e) => {
        const started = this.taskStarts.get(e.execution) ?? Date.now();
        this.taskStarts.delete(e.execution);
        const task = e.execution.task;
        this.record({
          v: 1,
          type: 'command',
          origin: 'task',
          command: commandLineOfTask(task) || task.name,
          cwd: taskCwd(task, this.folder),
          exit_code: typeof e.exitCode === 'number' ? e.exitCode : null,
          started_at: new Date(started).toISOString(),
          duration_ms: Date.now() - started,
          task: { name: task.name, source: task.source },
        });
      }),
    );
    this.register(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme !== 'file') return;
        const rel = path.relative(this.folder.uri.fsPath, doc.uri.fsPath);
        if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || this.isExcluded(doc.uri.fsPath)) return;
        this.record({ v: 1, type: 'save', path: rel.split(path.sep).join('/'), time: new Date().toISOString() });
      }),
    );
  }

  /** A terminal VS Code created for a task: named after a task (plain or "Task - <name>"). */
  private isTaskTerminal(t: vscode.Terminal): boolean {
    const name = t.name.replace(/^Task - /, '');
    if (this.taskNames.has(name) || vscode.tasks.taskExecutions.some((x) => x.task.name === name)) return true;
    return false;
  }

  private watchShellIntegration(t: vscode.Terminal): void {
    if (t.shellIntegration) return;
    const timer = setTimeout(() => {
      if (!t.shellIntegration && t.exitStatus === undefined) {
        void this.noticeNoShellIntegration(`terminal "${t.name}" has no shell integration`);
      }
    }, SHELL_INTEGRATION_GRACE_MS);
    this.register({ dispose: () => clearTimeout(timer) });
  }

  private async noticeNoShellIntegration(why: string): Promise<void> {
    this.log.info(`recorder: ${why}; terminal commands are not recorded (tasks and saves are)`);
    if (this.state.get<boolean>(NOTICE_SHOWN)) return;
    await this.state.update(NOTICE_SHOWN, true);
    const open = 'Open Setting';
    const pick = await vscode.window.showInformationMessage(
      'Specialist Handoff: shell integration is off in a terminal, so its commands are not recorded for handoffs. Tasks and saved files still are.',
      open,
    );
    if (pick === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'terminal.integrated.shellIntegration.enabled');
    }
  }
}

/** Keeps only the output's last OUTPUT_TAIL_CHARS characters. */
async function readTail(execution: vscode.TerminalShellExecution): Promise<string> {
  let tail = '';
  try {
    for await (const chunk of execution.read()) {
      tail = (tail + chunk).slice(-OUTPUT_TAIL_CHARS * 2);
    }
  } catch {
    // the output stream is best effort
  }
  // Strip terminal escape sequences so summary lines parse.
  // eslint-disable-next-line no-control-regex
  return tail.replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g, '').slice(-OUTPUT_TAIL_CHARS);
}
