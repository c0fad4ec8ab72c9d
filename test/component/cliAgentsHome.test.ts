/**
 * The real `specialist-handoff` process finds a GitHub Copilot CLI, a Qwen Code and a Factory
 * Droid session of the workspace under its HOME (a temporary one), where each agent keeps them,
 * with no --session-log: the handoff it writes carries their test runs and names the three
 * transcripts. Records in the agents' shapes (test/unit/evidence/session/cliAgents.test.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { qwenProjectDirName } from '../../src/evidence/session/discoveryCliAgents';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

describe('the CLI finds Copilot CLI, Qwen Code and Droid sessions under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the three agents' test runs, from their own folders", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-cli-agents-home-'));
    write(
      home,
      '.copilot/session-state/7c1e/events.jsonl',
      jsonl([
        {
          type: 'session.start',
          data: { sessionId: '7c1e', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.63', startTime: '2026-06-18T20:00:00Z', context: { cwd: ws } },
          id: 'e1',
          timestamp: '2026-06-18T20:00:00Z',
          parentId: null,
        },
        { type: 'user.message', data: { content: 'run the unit tests', attachments: [] }, id: 'e2', timestamp: '2026-06-18T20:00:01Z', parentId: 'e1' },
        {
          type: 'tool.execution_start',
          data: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm test', description: 'tests' } },
          id: 'e3',
          timestamp: '2026-06-18T20:00:02Z',
          parentId: 'e2',
        },
        {
          type: 'tool.execution_complete',
          data: { toolCallId: 'c1', success: true, result: { content: 'Tests: 1 failed, 2 passed, 3 total\n<shellId: 0 completed with exit code 1>' } },
          id: 'e4',
          timestamp: '2026-06-18T20:00:03Z',
          parentId: 'e3',
        },
      ]),
    );
    const q = (uuid: string, type: string, extra: object) => ({
      uuid,
      parentUuid: null,
      sessionId: 'q1',
      timestamp: '2026-06-18T20:01:00Z',
      type,
      cwd: ws,
      version: '0.15.0',
      ...extra,
    });
    write(
      home,
      `.qwen/projects/${qwenProjectDirName(ws)}/chats/q1.jsonl`,
      jsonl([
        q('u1', 'user', { message: { role: 'user', parts: [{ text: 'run cargo test' }] } }),
        q('a1', 'assistant', {
          message: { role: 'model', parts: [{ functionCall: { id: 'f1', name: 'run_shell_command', args: { command: 'cargo test' } } }] },
        }),
        q('t1', 'tool_result', {
          message: {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  id: 'f1',
                  name: 'run_shell_command',
                  response: { output: 'Command: cargo test\nDirectory: (root)\nOutput: test result: ok. 4 passed; 0 failed\nError: (none)\nExit Code: 0' },
                },
              },
            ],
          },
          toolCallResult: { callId: 'f1', status: 'success' },
        }),
      ]),
    );
    write(
      home,
      `.factory/sessions/${ws.replace(/[\\/:]/g, '-')}/d1.jsonl`,
      jsonl([
        { type: 'session_start', id: 'd1', title: 'tests', owner: 'user', version: 2, cwd: ws },
        { type: 'message', id: 'm1', timestamp: '2026-06-18T20:02:00Z', message: { role: 'user', content: [{ type: 'text', text: 'run pytest' }] } },
        {
          type: 'message',
          id: 'm2',
          timestamp: '2026-06-18T20:02:01Z',
          message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Execute', input: { command: 'pytest -q' } }] },
        },
        {
          type: 'message',
          id: 'm3',
          timestamp: '2026-06-18T20:02:02Z',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '5 passed in 0.2s\n\n[Process exited with code 0]' }] },
        },
      ]),
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]).sort(), [
      ['copilot-cli', 'npm test', 'failed', 1],
      ['droid', 'pytest -q', 'passed', 0],
      ['qwen', 'cargo test', 'passed', 0],
    ]);
  });
});
