/**
 * The real `specialist-handoff` process, with a temporary HOME and no --session-log, finds the
 * workspace's Continue session in `~/.continue/sessions` (the one `sessions.json` lists for the
 * folder, as the IDE records it: a file URI), not a newer one of another folder, and its handoff
 * carries the session's test runs with the exit codes Continue recorded. Items in the IDE's shape
 * (test/unit/evidence/session/continue.test.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

const terminalRun = (id: string, command: string, content: string, status: string) => [
  {
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [{ id, type: 'function', function: { name: 'run_terminal_command', arguments: JSON.stringify({ command }) } }],
    },
    contextItems: [],
    toolCallStates: [
      {
        toolCallId: id,
        toolCall: { id, type: 'function', function: { name: 'run_terminal_command', arguments: JSON.stringify({ command }) } },
        status: 'done',
        parsedArgs: { command },
        output: [{ name: 'Terminal', description: 'Terminal command output', content, status }],
      },
    ],
  },
  { message: { role: 'tool', content, toolCallId: id }, contextItems: [] },
];

describe('the CLI finds Continue sessions under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the workspace's Continue session, from ~/.continue/sessions", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-continue-home-'));
    const sessions = path.join(home, '.continue', 'sessions');
    const doc = (sessionId: string, folder: string, history: object[]) =>
      JSON.stringify({ sessionId, title: 'Tests', workspaceDirectory: folder, history, mode: 'agent' }, undefined, 2);
    write(
      sessions,
      'aa11.json',
      doc('aa11', pathToFileURL(ws).href, [
        { message: { role: 'user', content: [{ type: 'text', text: 'run the tests' }] }, contextItems: [] },
        ...terminalRun('c1', 'npm test', 'Tests: 1 failed, 2 passed, 3 total', 'Command failed with exit code 1'),
        ...terminalRun('c2', 'pytest -q', '5 passed in 0.2s', 'Command completed'),
      ]),
    );
    write(
      sessions,
      'bb22.json',
      doc('bb22', '/somewhere/else', [
        { message: { role: 'user', content: 'run cargo' }, contextItems: [] },
        ...terminalRun('c3', 'cargo test', 'test result: ok. 1 passed', 'Command completed'),
      ]),
    );
    utimesSync(path.join(sessions, 'aa11.json'), 1000, 1000);
    write(
      sessions,
      'sessions.json',
      JSON.stringify([
        { sessionId: 'aa11', title: 'Tests', dateCreated: '1781800000000', workspaceDirectory: pathToFileURL(ws).href, messageCount: 5 },
        { sessionId: 'bb22', title: 'Cargo', dateCreated: '1781800001000', workspaceDirectory: '/somewhere/else', messageCount: 3 },
      ]),
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]).sort(), [
      ['continue', 'npm test', 'failed', 1],
      ['continue', 'pytest -q', 'passed', 0],
    ]);
  });
});
