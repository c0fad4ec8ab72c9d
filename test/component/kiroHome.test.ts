/**
 * The real `specialist-handoff` process finds the workspace's Kiro CLI conversation where Kiro CLI keeps them under HOME
 * (a temporary one: `~/.local/share/kiro-cli/data.sqlite3`, no XDG_DATA_HOME, and the session store
 * `~/.kiro/sessions/cli`), with no --session-log: the handoff it writes carries the newest conversation's test run and
 * request, not another folder's. Both stores are written with Kiro CLI's tables and shapes (test/helpers/kiroCli.ts,
 * test/helpers/kiroSession.ts). Every Node reads the database (`node:sqlite` on 22.13+, node-sqlite3-wasm before).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { entry, kiroState, prompt, response, results, shellJson, toolUse, usesTools, writeKiroDb } from '../helpers/kiroCli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';
import {
  assistantEntry,
  promptEntry,
  shellJson as logShellJson,
  succeeded,
  text,
  toolResultsEntry,
  toolUse as logToolUse,
  writeKiroSession,
} from '../helpers/kiroSession';

const T0 = Date.parse('2026-03-10T17:58:36.609Z');

/** A request, then `command` run with `exit`. */
function conversation(cwd: string, request: string, command: string, exit: number, stdout: string) {
  return [
    entry(cwd, prompt(request), T0, usesTools('', toolUse('t1', 'execute_bash', { command })), T0),
    entry(cwd, results(['t1', 'Success', [shellJson(exit, stdout)]]), null, response('Done.'), T0 + 1000),
  ];
}

describe('the CLI finds Kiro CLI conversations under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the workspace's conversation from ~/.local/share/kiro-cli/data.sqlite3", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-kiro-home-'));
    const other = path.join(home, 'other');
    writeKiroDb(path.join(home, '.local/share/kiro-cli/data.sqlite3'), [
      {
        cwd: ws,
        id: 'c-1',
        state: kiroState('c-1', conversation(ws, 'make the failing test pass', 'npm test', 1, '1 failing')),
        updated: T0 + 1000,
      },
      { cwd: other, id: 'c-2', state: kiroState('c-2', conversation(other, 'another project', 'pytest', 0, '3 passed in 0.1s')), updated: T0 + 5000 },
    ]);
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json'], { xdgData: false });
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['kiro', 'npm test', 'failed', 1]],
    );
    assert.deepEqual(
      ok.package.user_requests.map((q) => q.text),
      ['make the failing test pass'],
    );
  });

  it("handover with the default session log: the workspace's newest session from ~/.kiro/sessions/cli, newer than its data.sqlite3 conversation", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-kiro-home-'));
    writeKiroDb(path.join(home, '.local/share/kiro-cli/data.sqlite3'), [
      { cwd: ws, id: 'c-1', state: kiroState('c-1', conversation(ws, 'an older request', 'npm test', 0, '3 passing')), updated: T0 + 1000 },
    ]);
    const sessions = path.join(home, '.kiro/sessions/cli');
    const session = (request: string, command: string, exitStatus: string, stdout: string, seconds: number) => [
      promptEntry([text(request)], seconds),
      assistantEntry('', logToolUse('t1', 'shell', { command, __tool_use_purpose: 'Run the tests' })),
      toolResultsEntry([succeeded('t1', [logShellJson(exitStatus, stdout)])]),
      assistantEntry('Done.'),
    ];
    writeKiroSession(sessions, {
      id: 'other',
      cwd: path.join(home, 'other'),
      entries: session('another project', 'pytest', 'exit status: 0', '3 passed in 0.1s', T0 / 1000 + 90),
    });
    writeKiroSession(sessions, {
      id: 'mine',
      cwd: ws,
      entries: session('make the failing test pass', 'npm test', 'exit status: 1', '1 failing', T0 / 1000 + 60),
    });
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json'], { xdgData: false });
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['kiro', 'npm test', 'failed', 1]],
    );
    assert.deepEqual(
      ok.package.user_requests.map((q) => q.text),
      ['make the failing test pass'],
    );
  });
});
