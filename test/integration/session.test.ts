/**
 * The session recorder in the real extension host: tasks that run tests are recorded
 * with their exit codes and show up in the next handoff.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HandoverResult } from '../../src/core/handoff/schema';

function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace folder is open');
  return folder;
}

/** Runs a shell task and resolves with its exit code, or fails after 60 s saying which task did not end. */
async function runTask(name: string, commandLine: string): Promise<number | undefined> {
  const folder = workspaceFolder();
  const task = new vscode.Task(
    { type: 'shell', label: name },
    folder,
    name,
    'handoff-test',
    new vscode.ShellExecution(commandLine, { cwd: folder.uri.fsPath }),
  );
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Never, focus: false };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`task "${name}" did not end within 60 s`)), 60_000);
    const sub = vscode.tasks.onDidEndTaskProcess((e) => {
      if (e.execution.task.name === name) {
        clearTimeout(timer);
        sub.dispose();
        resolve(e.exitCode);
      }
    });
    vscode.tasks.executeTask(task).then(undefined, (err) => {
      clearTimeout(timer);
      sub.dispose();
      reject(err);
    });
  });
}

describe('session recorder in the VS Code extension host', () => {
  it('"Handoff: Start New Session" is registered', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('handoff.startNewSession'));
    await vscode.commands.executeCommand('handoff.startNewSession');
  });

  it('a task running a failing test shows up in the next handoff as failed with its exit code, a passing one as passed', async () => {
    const root = workspaceFolder().uri.fsPath;
    mkdirSync(path.join(root, 'recorded-tests'), { recursive: true });
    writeFileSync(path.join(root, 'recorded-tests', 'bad.test.js'), "require('node:test')('fails', () => { throw new Error('expected failure'); });\n");
    writeFileSync(path.join(root, 'recorded-tests', 'ok.test.js'), "require('node:test')('passes', () => {});\n");
    const failExit = await runTask('failing tests', 'node --test recorded-tests/bad.test.js');
    const passExit = await runTask('passing tests', 'node --test recorded-tests/ok.test.js');
    assert.equal(failExit, 1);
    assert.equal(passExit, 0);
    const result = (await vscode.commands.executeCommand('handoff.endSession', {
      specialist: 'test_debug_engineer',
      topic: 'recorded task tests',
    })) as HandoverResult;
    assert.equal(result.status, 'ok', result.status === 'error' ? result.message : '');
    if (result.status !== 'ok') return;
    const recorded = result.package.tests_run.filter((t) => t.source === 'recorder').map((t) => [t.command, t.result, t.exit_code]);
    assert.deepEqual(recorded, [
      ['node --test recorded-tests/bad.test.js', 'failed', 1],
      ['node --test recorded-tests/ok.test.js', 'passed', 0],
    ]);
    assert.ok(result.package.session_sources.some((s) => s.source === 'recorder' && s.test_runs === 2));
    console.log(`[recorder] tests in the handoff: ${JSON.stringify(recorded)}`);
  });

  it('a command run in a terminal with shell integration is recorded with its exit code and its summary counts', async function () {
    this.timeout(90_000);
    const root = workspaceFolder().uri.fsPath;
    const terminal = vscode.window.createTerminal({ name: 'handoff recorder test', cwd: root, shellPath: '/bin/bash' });
    const integration = await new Promise<vscode.TerminalShellIntegration>((resolve, reject) => {
      if (terminal.shellIntegration) return resolve(terminal.shellIntegration);
      const timer = setTimeout(() => reject(new Error('shell integration did not activate in a bash terminal within 30 s')), 30_000);
      const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
        if (e.terminal === terminal) {
          clearTimeout(timer);
          sub.dispose();
          resolve(e.shellIntegration);
        }
      });
    });
    const ended = new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.terminal === terminal) {
          sub.dispose();
          resolve(e.exitCode);
        }
      });
    });
    integration.executeCommand('node --test recorded-tests/ok.test.js');
    assert.equal(await ended, 0);
    await new Promise((r) => setTimeout(r, 500));
    const result = (await vscode.commands.executeCommand('handoff.endSession', {
      specialist: 'quality_reviewer',
      topic: 'recorded terminal tests',
    })) as HandoverResult;
    assert.equal(result.status, 'ok', result.status === 'error' ? result.message : '');
    if (result.status !== 'ok') return;
    const run = result.package.tests_run.find((t) => t.source === 'recorder' && t.command === 'node --test recorded-tests/ok.test.js');
    assert.ok(run, `recorded terminal run missing: ${JSON.stringify(result.package.tests_run)}`);
    assert.equal(run.result, 'passed');
    assert.equal(run.exit_code, 0);
    assert.deepEqual(run.counts, { passed: 1, failed: 0, skipped: 0 });
    terminal.dispose();
  });
});
