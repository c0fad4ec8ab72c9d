/**
 * The task runner of "Handoff: Verify" (src/vscode/verify/taskRunner.ts) inside the real
 * extension host: a command becomes a VS Code task (a ShellExecution in the given folder,
 * run by the host's shell), its exit code is the one `onDidEndTaskProcess` reports, and a
 * command still running at the timeout, or when the caller aborts, is terminated and
 * reported as timed out with no exit code.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { TaskCommandRunner, VERIFY_TASK_TYPE, type VerifyTaskDefinition } from '../../src/vscode/verify/taskRunner';

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the test workspace folder is open');
  return f;
}

/** The tasks that start and the exit codes their processes end with, while `during` runs. */
async function watchTasks<T>(
  during: () => Promise<T>,
): Promise<{ result: T; started: vscode.Task[]; ended: Array<{ task: vscode.Task; exitCode: number | undefined }> }> {
  const started: vscode.Task[] = [];
  const ended: Array<{ task: vscode.Task; exitCode: number | undefined }> = [];
  const subs = [
    vscode.tasks.onDidStartTaskProcess((e) => started.push(e.execution.task)),
    vscode.tasks.onDidEndTaskProcess((e) => ended.push({ task: e.execution.task, exitCode: e.exitCode })),
  ];
  try {
    return { result: await during(), started, ended };
  } finally {
    subs.forEach((d) => d.dispose());
  }
}

describe('Verify: recorded commands run as VS Code tasks (extension host)', function () {
  this.timeout(90_000);
  const log = vscode.window.createOutputChannel('Verify task test', { log: true });
  let dir: string;

  before(async () => {
    await vscode.extensions.getExtension('specialist-handoff.specialist-handoff')!.activate();
    // A folder of its own: the recorded folder is not always the workspace root (and the workspace's git changes stay as they are).
    dir = mkdtempSync(path.join(tmpdir(), 'verify-task-'));
    mkdirSync(path.join(dir, 'sub'));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
    log.dispose();
  });

  it('runs the command line as a shell task in the recorded folder and reports its exit code', async () => {
    const cwd = path.join(dir, 'sub');
    const command = `node -e "require('fs').writeFileSync('cwd.txt', process.cwd()); process.exit(3)"`;
    const { result, started, ended } = await watchTasks(() => new TaskCommandRunner(folder(), log).run({ command, cwd, kind: 'test' }, { timeoutMs: 60_000 }));
    assert.deepEqual({ exit_code: result.exit_code, timed_out: result.timed_out, error: result.error }, { exit_code: 3, timed_out: false, error: undefined });
    assert.ok(result.duration_ms > 0);
    const ours = started.filter((t) => t.definition.type === VERIFY_TASK_TYPE);
    assert.equal(ours.length, 1, 'one task started');
    const task = ours[0];
    assert.equal((task.definition as VerifyTaskDefinition).command, command);
    assert.equal(task.name, command, 'the task is named after the command (its terminal says so)');
    assert.ok(task.execution instanceof vscode.ShellExecution, 'a ShellExecution');
    assert.equal((task.execution as vscode.ShellExecution).commandLine, command);
    assert.equal((task.execution as vscode.ShellExecution).options?.cwd, cwd);
    assert.equal(ended.find((e) => e.task.definition.type === VERIFY_TASK_TYPE)?.exitCode, 3, 'onDidEndTaskProcess saw exit code 3');
    assert.equal(realpathSync(readFileSync(path.join(cwd, 'cwd.txt'), 'utf8')), realpathSync(cwd), 'it ran in the recorded folder');
  });

  it('terminates a command still running at the timeout: timed out, no exit code', async () => {
    const command = 'node -e "setTimeout(() => {}, 120000)"';
    const t0 = Date.now();
    const r = await new TaskCommandRunner(folder(), log).run({ command, cwd: dir, kind: 'build' }, { timeoutMs: 2000 });
    assert.equal(r.timed_out, true);
    assert.equal(r.exit_code, null);
    assert.ok(Date.now() - t0 < 60_000, 'stopped long before the command would have ended');
    assert.equal(vscode.tasks.taskExecutions.filter((e) => e.task.definition.type === VERIFY_TASK_TYPE).length, 0, 'no verify task left running');
  });

  it('terminates the command when the verification is cancelled', async () => {
    const stop = new AbortController();
    const running = new TaskCommandRunner(folder(), log, stop.signal).run(
      { command: 'node -e "setTimeout(() => {}, 120000)"', cwd: dir, kind: 'test' },
      { timeoutMs: 600_000 },
    );
    const sub = vscode.tasks.onDidStartTaskProcess((e) => e.execution.task.definition.type === VERIFY_TASK_TYPE && stop.abort());
    const r = await running;
    sub.dispose();
    assert.equal(r.timed_out, true);
    assert.equal(r.exit_code, null);
  });
});
