/**
 * GitHub Copilot CLI, Qwen Code and Factory Droid sessions, read by content whatever the file's
 * name. Every record is written in the shape the agent writes:
 * - Copilot CLI events as in the real logs of japurcell/skills (`session.jsonl`, @ b2821ef7, see
 *   test/fixtures/real/SOURCES.md): `user.message` with a skill's `source`, `assistant.message`
 *   with `toolRequests`, `tool.execution_start` / `tool.execution_complete` with the shell result's
 *   `<shellId: N completed with exit code M>` line and `error: {code: "denied"}` for a refused call;
 * - Qwen Code records as QwenLM/qwen-code `services/chatRecordingService.ts` `ChatRecord` defines
 *   them (no public transcript found);
 * - Droid records as its session files hold them (no public transcript found: the shapes third-party
 *   readers of `~/.factory/sessions` document).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { readCopilotCli, readCopilotCliHistory } from '../../../../src/evidence/session/readers/copilotCli';
import type { SessionCommand, SessionCompaction, SessionEvent, SessionFileEdit, SessionPlan } from '../../../../src/core/session/events';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const commands = (ev: SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.failed ?? false]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => e.path);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));

const T = (s: number) => new Date(Date.UTC(2026, 5, 18, 20, 15, s)).toISOString();
let seq = 0;
/** A Copilot CLI event, in the envelope every event has. */
const ev = (type: string, data: object, s: number, ephemeral = false) => ({
  type,
  data,
  id: `e${++seq}`,
  timestamp: T(s),
  parentId: seq > 1 ? `e${seq - 1}` : null,
  ...(ephemeral ? { ephemeral: true } : {}),
});
const shellDone = (id: string, out: string, exit: number, s: number) =>
  ev(
    'tool.execution_complete',
    {
      toolCallId: id,
      model: 'gpt-5.3-codex',
      interactionId: 'i1',
      success: true,
      result: { content: `${out}\n<shellId: 0 completed with exit code ${exit}>`, detailedContent: `${out}\n<shellId: 0 completed with exit code ${exit}>` },
      toolTelemetry: {},
      turnId: '0',
    },
    s,
  );
const start = (id: string, toolName: string, args: unknown, s: number) =>
  ev('tool.execution_start', { toolCallId: id, toolName, arguments: args, turnId: '0' }, s);

describe('Copilot CLI, Qwen Code and Factory Droid sessions, read by content', () => {
  let dir: string;
  before(() => (dir = tempDir('handoff-cli-agents-')));
  after(cleanupTempDirs);

  it("Copilot CLI: the typed request (not a skill's injected context), shell runs with their exit codes, a refused one not run, create / edit / apply_patch edits, update_todo", async () => {
    const file = path.join(dir, 'copilot-any-name.log');
    write(
      dir,
      'copilot-any-name.log',
      jsonl([
        ev(
          'session.start',
          { sessionId: 's1', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.63', startTime: T(0), context: { cwd: '/w/app' } },
          0,
        ),
        ev('session.warning', { warningType: 'policy', message: 'Third-party MCP servers are disabled' }, 0, true),
        ev(
          'user.message',
          {
            content: 'Fix the retry delay and run the tests',
            transformedContent: '<current_datetime>2026-06-18</current_datetime>\n\nFix the retry delay and run the tests',
            attachments: [],
            interactionId: 'i1',
          },
          1,
        ),
        ev('user.message', { content: '<skill-context name="handoff">\nBase directory for this skill', interactionId: 'i1', source: 'skill-handoff' }, 2),
        ev('assistant.message_delta', { messageId: 'm1', deltaContent: 'Running' }, 3, true),
        ev(
          'assistant.message',
          {
            messageId: 'm1',
            content: 'Running the tests first.',
            toolRequests: [
              { toolCallId: 'c1', name: 'bash', arguments: { command: 'pytest tests/test_retry.py', description: 'Run tests' }, type: 'function' },
            ],
            turnId: '0',
          },
          3,
        ),
        start('c1', 'bash', { command: 'pytest tests/test_retry.py', description: 'Run tests' }, 3),
        shellDone('c1', '1 failed, 2 passed in 0.10s', 1, 4),
        start(
          'c2',
          'apply_patch',
          '*** Begin Patch\n*** Update File: /w/app/src/retry.py\n@@\n-    return 2 ** attempt\n+    return min(2 ** attempt, 8)\n*** End Patch\n',
          5,
        ),
        ev('tool.execution_complete', { toolCallId: 'c2', success: true, result: { content: 'Modified 1 file(s): /w/app/src/retry.py' } }, 6),
        start('c3', 'create', { path: '/w/app/NOTES.md', file_text: 'notes' }, 7),
        ev('tool.execution_complete', { toolCallId: 'c3', success: true, result: { content: 'Created file /w/app/NOTES.md with 5 characters' } }, 7),
        start('c4', 'edit', { path: '/w/app/missing.py', old_str: 'a', new_str: 'b' }, 8),
        ev('tool.execution_complete', { toolCallId: 'c4', success: false, error: { message: 'Path does not exist', code: 'failure' } }, 8),
        start('c5', 'bash', { command: 'rm -rf build', description: 'clean' }, 9),
        ev(
          'tool.execution_complete',
          { toolCallId: 'c5', success: false, error: { message: 'Permission denied and could not request permission from user', code: 'denied' } },
          9,
        ),
        start('c6', 'update_todo', { todos: '- [x] Fix the delay\n- [ ] Update the docs' }, 10),
        ev('tool.execution_complete', { toolCallId: 'c6', success: true, result: { content: 'TODO list updated' } }, 10),
        start('c7', 'bash', { command: 'pytest tests/test_retry.py', description: 'Run tests' }, 11),
        ev('tool.execution_complete', { toolCallId: 'c7', success: true, result: { content: '3 passed in 0.08s\n<exited with exit code 0>' } }, 12),
        // A sub-agent started by the task tool: its words carry the task call's id; its run counts.
        ev('subagent.started', { toolCallId: 'c8', agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'Find callers' }, 12),
        ev(
          'assistant.message',
          {
            messageId: 'm3',
            content: 'Searching for callers of next_delay.',
            toolRequests: [{ toolCallId: 'c9', name: 'bash', arguments: { command: 'grep -rn next_delay src' } }],
            parentToolCallId: 'c8',
          },
          12,
        ),
        {
          ...start('c9', 'bash', { command: 'grep -rn next_delay src' }, 12),
          data: { toolCallId: 'c9', toolName: 'bash', arguments: { command: 'grep -rn next_delay src' }, parentToolCallId: 'c8' },
        },
        shellDone('c9', 'src/retry.py:3:def next_delay(attempt):', 0, 12),
        ev('assistant.message', { messageId: 'm2', content: 'The delay is capped at 8 seconds; the tests pass.', toolRequests: [] }, 13),
        { type: 'result', timestamp: T(14), sessionId: 's1', exitCode: 0 },
      ]),
    );
    const r = await readByContent(file, { workspaceRoot: '/w/app' });
    assert.equal(r?.detected.source, 'copilot-cli');
    const events = r?.read.events ?? [];
    assert.deepEqual(commands(events), [
      ['pytest tests/test_retry.py', 1, true, false],
      ['rm -rf build', null, false, false],
      ['pytest tests/test_retry.py', 0, true, false],
      ['grep -rn next_delay src', 0, true, false],
    ]);
    assert.deepEqual(edits(events), ['src/retry.py', 'NOTES.md']);
    assert.deepEqual(plans(events), [['completed:Fix the delay', 'pending:Update the docs']]);
    assert.deepEqual(
      r?.read.user_requests?.map((u) => u.text),
      ['Fix the retry delay and run the tests'],
    );
    assert.deepEqual(
      events.filter((e) => e.kind === 'turn').map((e) => `${e.role}: ${e.text}`),
      ['user: Fix the retry delay and run the tests', 'assistant: Running the tests first.', 'assistant: The delay is capped at 8 seconds; the tests pass.'],
    );
  });

  it('Copilot CLI: the todo list the agent keeps with its sql tool (INSERT OR REPLACE rows, UPDATE … WHERE id = / IN, ON CONFLICT, DELETE), resumed from the remembered plan', async () => {
    const sql = (id: string, query: string, s: number) => [
      start(id, 'sql', { description: 'Track todos', query }, s),
      ev('tool.execution_complete', { toolCallId: id, success: true, result: { content: '1 row(s) updated.' } }, s),
    ];
    const file = path.join(dir, 'todos.jsonl');
    write(
      dir,
      'todos.jsonl',
      jsonl([
        ...sql(
          'q1',
          "INSERT OR REPLACE INTO todos (id, title, description, status) VALUES ('copy-fixture', 'Copying benchmark fixture', 'Copy the fixture; keep edits under outputs.', 'pending'), ('write-handoff', 'Writing the team''s handoff', 'Write .agents/scratchpad/handoff.md', 'pending'), ('validate', 'Validating output', 'Check the files', 'pending');",
          1,
        ),
        ...sql('q2', "UPDATE todos SET status = 'done' WHERE id = 'copy-fixture'; UPDATE todos SET status = 'in_progress' WHERE id = 'write-handoff';", 2),
        ...sql(
          'q3',
          "INSERT INTO todos (id, title, description, status) VALUES ('docs', 'Update docs', 'd', 'in_progress') ON CONFLICT(id) DO UPDATE SET status='in_progress', updated_at=CURRENT_TIMESTAMP;",
          3,
        ),
        ...sql('q4', "UPDATE todos SET status = 'done' WHERE id IN ('write-handoff', 'docs');\nDELETE FROM todos WHERE id = 'validate';", 4),
        ...sql('q5', 'SELECT id, status FROM todos;', 5),
        ...sql('q6', "CREATE TABLE notes (id TEXT); INSERT INTO notes (id) VALUES ('x');", 6),
      ]),
    );
    const r = await readByContent(file);
    assert.deepEqual(plans(r?.read.events ?? []), [['completed:Copying benchmark fixture', "completed:Writing the team's handoff", 'completed:Update docs']]);
    // A read of new lines only: the UPDATE names an item of the plan remembered from the previous read.
    const more = path.join(dir, 'todos-more.jsonl');
    write(dir, 'todos-more.jsonl', jsonl(sql('q7', "UPDATE todos SET status = 'pending' WHERE id = 'docs';", 7)));
    const previous = (r?.read.events ?? []).find((e): e is SessionPlan => e.kind === 'plan');
    const resumed = await readCopilotCli(more, { plan: previous });
    assert.deepEqual(plans(resumed.events), [['completed:Copying benchmark fixture', "completed:Writing the team's handoff", 'pending:Update docs']]);
  });

  it("Copilot CLI: a compaction carries its summary (the agent's words, not a request); a failed one and a sub-agent's carry none; /compact with focus is manual", async () => {
    const file = path.join(dir, 'compacted.jsonl');
    const summary = '<overview>The user asked to fix the retry delay.</overview>\n<work_done>Capped the delay at 8 s; npm test passes.</work_done>';
    write(
      dir,
      'compacted.jsonl',
      jsonl([
        ev(
          'session.start',
          { sessionId: 's2', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.63', startTime: T(0), context: { cwd: '/w/app' } },
          0,
        ),
        ev('user.message', { content: 'Fix the retry delay', agentMode: 'interactive', interactionId: 'i1' }, 1),
        ev('session.compaction_start', { conversationTokens: 90000 }, 2),
        ev('session.compaction_complete', { success: false, error: 'model call failed' }, 3),
        ev('session.compaction_start', { conversationTokens: 90000 }, 4),
        ev(
          'session.compaction_complete',
          { success: true, preCompactionTokens: 91000, postCompactionTokens: 4000, messagesRemoved: 40, summaryContent: summary, checkpointNumber: 1 },
          5,
        ),
        ev('session.compaction_complete', { success: true, summaryContent: 'a sub-agent summary', parentToolCallId: 'call_9' }, 6),
        ev('session.compaction_complete', { success: true, summaryContent: 'Kept: the retry tests.', customInstructions: 'keep the retry tests' }, 7),
        ev('user.message', { content: 'Now update the docs', agentMode: 'interactive', interactionId: 'i2' }, 8),
      ]),
    );
    const r = await readByContent(file);
    assert.equal(r?.detected.source, 'copilot-cli');
    const compactions = (r?.read.events ?? []).filter((e): e is SessionCompaction => e.kind === 'compaction');
    assert.deepEqual(
      compactions.map((c) => [c.text, c.trigger ?? null, c.time]),
      [
        [summary, null, T(5)],
        ['Kept: the retry tests.', 'manual', T(7)],
      ],
    );
    assert.deepEqual(
      r?.read.user_requests?.map((u) => u.text),
      ['Fix the retry delay', 'Now update the docs'],
    );
  });

  it('Copilot CLI: an older history-session-state document (chatMessages) is read by content', async () => {
    const file = path.join(dir, 'old-session.json');
    write(
      dir,
      'old-session.json',
      JSON.stringify(
        {
          sessionId: 'hhh',
          startTime: '2025-10-08T21:10:16.398Z',
          chatMessages: [
            { role: 'user', content: 'run the unit tests' },
            {
              role: 'assistant',
              content: '',
              tool_calls: [
                { id: 't1', type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'npm test', description: 'tests' }) } },
              ],
            },
            { role: 'tool', tool_call_id: 't1', content: 'Tests: 4 passed, 4 total\n<exited with exit code 0>' },
            { role: 'assistant', content: 'All 4 tests pass.' },
          ],
          timeline: [],
        },
        null,
        2,
      ),
    );
    const r = await readByContent(file);
    assert.equal(r?.detected.format, 'copilot-cli-history');
    assert.equal(r?.detected.source, 'copilot-cli');
    assert.deepEqual(commands(r?.read.events ?? []), [['npm test', 0, true, false]]);
    assert.deepEqual(
      r?.read.user_requests?.map((u) => u.text),
      ['run the unit tests'],
    );
    // Read again from where the first read ended, unchanged: nothing new, the run not counted twice.
    const again = await readCopilotCliHistory(file, { fromOffset: r?.read.end_offset });
    assert.deepEqual(again.events, []);
  });

  /** A Qwen Code chat record (`ChatRecord`). */
  const qwen = (uuid: string, parent: string | null, type: string, extra: object, s: number) => ({
    uuid,
    parentUuid: parent,
    sessionId: 'q1',
    timestamp: T(s),
    type,
    cwd: '/w/app',
    version: '0.15.0',
    gitBranch: 'main',
    ...extra,
  });
  const call = (id: string, name: string, args: object) => ({ functionCall: { id, name, args } });
  const response = (id: string, name: string, output: string) => ({ functionResponse: { id, name, response: { output } } });

  it('Qwen Code: detected as Qwen (not Claude Code, whose uuid keys it shares), requests without slash commands, shell runs, edits, todo_write, a compression summary', async () => {
    const file = path.join(dir, '3f2a9c1e.jsonl');
    write(
      dir,
      '3f2a9c1e.jsonl',
      jsonl([
        qwen('s0', null, 'system', { subtype: 'ui_telemetry', systemPayload: { uiEvent: { 'event.name': 'qwen-code.api_response' } } }, 0),
        qwen('u1', 's0', 'user', { message: { role: 'user', parts: [{ text: 'Make the parser accept tabs and run the tests' }] } }, 1),
        qwen(
          'a1',
          'u1',
          'assistant',
          {
            model: 'qwen3-coder-plus',
            message: {
              role: 'model',
              parts: [
                { text: 'thinking…', thought: true },
                { text: 'I will edit the parser.' },
                call('c1', 'edit', { file_path: '/w/app/src/parse.ts', old_string: "' '", new_string: '/[ \\t]/' }),
              ],
            },
          },
          2,
        ),
        qwen(
          't1',
          'a1',
          'tool_result',
          {
            message: { role: 'user', parts: [response('c1', 'edit', 'Successfully modified file: /w/app/src/parse.ts (1 replacements).')] },
            toolCallResult: { callId: 'c1', status: 'success', resultDisplay: { fileDiff: '…', fileName: 'parse.ts' } },
          },
          3,
        ),
        qwen(
          'a2',
          't1',
          'assistant',
          { message: { role: 'model', parts: [call('c2', 'run_shell_command', { command: 'npm test', description: 'tests' })] } },
          4,
        ),
        qwen(
          't2',
          'a2',
          'tool_result',
          {
            message: {
              role: 'user',
              parts: [
                response(
                  'c2',
                  'run_shell_command',
                  'Command: npm test\nDirectory: (root)\nOutput: Tests: 1 failed, 9 passed, 10 total\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242',
                ),
              ],
            },
            toolCallResult: { callId: 'c2', status: 'success', resultDisplay: 'Tests: 1 failed, 9 passed, 10 total' },
          },
          5,
        ),
        qwen(
          'a3',
          't2',
          'assistant',
          {
            message: {
              role: 'model',
              parts: [
                call('c3', 'todo_write', {
                  todos: [
                    { id: '1', content: 'Accept tabs', status: 'completed' },
                    { id: '2', content: 'Fix the failing test', status: 'in_progress' },
                  ],
                }),
              ],
            },
          },
          6,
        ),
        qwen(
          't3',
          'a3',
          'tool_result',
          {
            message: { role: 'user', parts: [response('c3', 'todo_write', 'Todos have been modified successfully.')] },
            toolCallResult: { callId: 'c3', status: 'success' },
          },
          7,
        ),
        qwen('a4', 't3', 'assistant', { message: { role: 'model', parts: [call('c4', 'run_shell_command', { command: 'rm -rf dist' })] } }, 8),
        qwen(
          't4',
          'a4',
          'tool_result',
          {
            message: {
              role: 'user',
              parts: [
                {
                  functionResponse: { id: 'c4', name: 'run_shell_command', response: { error: '[Operation Cancelled] Reason: User cancelled the operation.' } },
                },
              ],
            },
            toolCallResult: { callId: 'c4', status: 'cancelled' },
          },
          9,
        ),
        // A run that exits non-zero: the response is an `error` and the call's status `error`, its exit code in the text.
        qwen('a6', 't4', 'assistant', { message: { role: 'model', parts: [call('c8', 'run_shell_command', { command: 'make test' })] } }, 9),
        qwen(
          't6',
          'a6',
          'tool_result',
          {
            message: {
              role: 'user',
              parts: [
                {
                  functionResponse: {
                    id: 'c8',
                    name: 'run_shell_command',
                    response: {
                      error: 'Command: make test\nDirectory: (root)\nOutput: FAIL\nError: (none)\nExit Code: 2\nSignal: (none)\nProcess Group PGID: 4242',
                    },
                  },
                },
              ],
            },
            toolCallResult: { callId: 'c8', status: 'error' },
          },
          9,
        ),
        qwen(
          'u2',
          't6',
          'user',
          {
            subtype: 'slash_command',
            message: { role: 'user', parts: [{ text: '/compress' }] },
            systemPayload: { phase: 'invocation', rawCommand: '/compress' },
          },
          10,
        ),
        qwen(
          'c5',
          'u2',
          'system',
          {
            subtype: 'chat_compression',
            systemPayload: {
              info: { originalTokenCount: 9000, newTokenCount: 900 },
              compressedHistory: [
                { role: 'user', parts: [{ text: '<state_snapshot>The parser accepts tabs; one test fails.</state_snapshot>' }] },
                { role: 'model', parts: [{ text: 'Got it. Thanks for the additional context!' }] },
              ],
            },
          },
          11,
        ),
        qwen('u3', 'c5', 'user', { message: { role: 'user', parts: [{ text: 'now fix the failing test' }] } }, 12),
        // The task tools that replace todo_write: each call displays the whole list.
        qwen('a5', 'u3', 'assistant', { message: { role: 'model', parts: [call('c7', 'task_update', { taskId: '2', status: 'completed' })] } }, 12),
        qwen(
          't5',
          'a5',
          'tool_result',
          {
            message: { role: 'user', parts: [response('c7', 'task_update', 'Task updated successfully.')] },
            toolCallResult: {
              callId: 'c7',
              status: 'success',
              resultDisplay: {
                type: 'todo_list',
                todos: [
                  { id: '1', content: 'Accept tabs', status: 'completed' },
                  { id: '2', content: 'Fix the failing test', status: 'completed' },
                  { id: '3', content: 'Update the changelog', status: 'pending' },
                ],
              },
            },
          },
          12,
        ),
        // A sub-agent's records: its prompt is the lead agent's, not the user's; its run counts.
        qwen(
          'x1',
          'u3',
          'user',
          {
            isSidechain: true,
            agentId: 'explore-7f3c',
            agentName: 'Explore',
            message: { role: 'user', parts: [{ text: 'Find the failing test and report its name' }] },
          },
          13,
        ),
        qwen(
          'x2',
          'x1',
          'assistant',
          {
            isSidechain: true,
            agentId: 'explore-7f3c',
            message: { role: 'model', parts: [{ text: 'Looking.' }, call('c6', 'run_shell_command', { command: 'npm test -- --listTests' })] },
          },
          14,
        ),
        qwen(
          'x3',
          'x2',
          'tool_result',
          {
            isSidechain: true,
            agentId: 'explore-7f3c',
            message: {
              role: 'user',
              parts: [
                response('c6', 'run_shell_command', 'Command: npm test -- --listTests\nDirectory: (root)\nOutput: parse.test.ts\nError: (none)\nExit Code: 0'),
              ],
            },
            toolCallResult: { callId: 'c6', status: 'success' },
          },
          15,
        ),
      ]),
    );
    const r = await readByContent(file, { workspaceRoot: '/w/app' });
    assert.equal(r?.detected.source, 'qwen');
    const events = r?.read.events ?? [];
    assert.deepEqual(commands(events), [
      ['npm test', 1, true, false],
      ['rm -rf dist', null, false, false],
      ['make test', 2, true, false],
      ['npm test -- --listTests', 0, true, false],
    ]);
    assert.ok(!events.some((e) => e.kind === 'turn' && e.text === 'Looking.'), "the sub-agent's words are not the session's");
    assert.deepEqual(edits(events), ['src/parse.ts']);
    assert.deepEqual(plans(events), [['completed:Accept tabs', 'completed:Fix the failing test', 'pending:Update the changelog']]);
    assert.deepEqual(
      r?.read.user_requests?.map((u) => u.text),
      ['Make the parser accept tabs and run the tests', 'now fix the failing test'],
    );
    assert.deepEqual(
      events.filter((e) => e.kind === 'compaction').map((e) => (e as { text: string }).text),
      ['<state_snapshot>The parser accepts tabs; one test fails.</state_snapshot>'],
    );
  });

  it('a Claude Code transcript is still Claude Code, not Qwen Code', async () => {
    const file = path.join(dir, 'claude.jsonl');
    write(
      dir,
      'claude.jsonl',
      jsonl([
        {
          parentUuid: null,
          isSidechain: false,
          userType: 'external',
          cwd: '/w',
          sessionId: 's',
          version: '2.1.3',
          type: 'user',
          message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          uuid: 'u1',
          timestamp: T(0),
        },
      ]),
    );
    assert.equal((await detectTranscript(file))?.source, 'claude-code');
    // And a Qwen Code chat whose first message record is its sub-agent's (`isSidechain` with its `agentId`) is Qwen's.
    write(
      dir,
      'qwen-sub.jsonl',
      jsonl([qwen('x1', null, 'user', { isSidechain: true, agentId: 'explore-7f3c', message: { role: 'user', parts: [{ text: 'find it' }] } }, 0)]),
    );
    assert.equal((await detectTranscript(path.join(dir, 'qwen-sub.jsonl')))?.source, 'qwen');
  });

  it("a Pi session (a `session` header, then `message` records like Droid's) is no Droid session: no format read here", async () => {
    // The shape of tomjnsn/agentlogs fixtures/pi/crud.jsonl (Pi coding agent, real output).
    write(
      dir,
      'pi.jsonl',
      jsonl([
        { type: 'session', version: 3, id: '1fa031b8', timestamp: T(0), cwd: '/w/app' },
        { type: 'model_change', id: 'b177d79b', parentId: null, timestamp: T(0), provider: 'anthropic', modelId: 'claude-opus-4-5' },
        {
          type: 'message',
          id: '1ff734df',
          parentId: 'b177d79b',
          timestamp: T(1),
          message: { role: 'user', content: [{ type: 'text', text: 'create JOKE.md' }], timestamp: 1770156137185 },
        },
        {
          type: 'message',
          id: '9aa506c9',
          parentId: '1ff734df',
          timestamp: T(2),
          message: {
            role: 'toolResult',
            toolCallId: 't1',
            toolName: 'write',
            content: [{ type: 'text', text: 'Successfully wrote 134 bytes to JOKE.md' }],
            isError: false,
          },
        },
      ]),
    );
    assert.equal(await detectTranscript(path.join(dir, 'pi.jsonl')), undefined);
  });

  /** A Droid message record. */
  const droid = (id: string, role: 'user' | 'assistant', content: unknown[], s: number) => ({
    type: 'message',
    id,
    timestamp: T(s),
    message: { role, content },
  });
  const use = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
  const result = (id: string, content: string, isError = false) => ({ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) });

  it('Factory Droid: its request, Execute runs with the exit code their results state, a refused run, Create / Edit / ApplyPatch, TodoWrite and todo_state', async () => {
    const file = path.join(dir, 'b7c1e2f0-droid');
    write(
      dir,
      'b7c1e2f0-droid',
      jsonl([
        { type: 'session_start', id: 'b7c1e2f0', title: 'Fix the auth bug', sessionTitle: 'Fix the auth bug', owner: 'user', version: 2, cwd: '/w/app' },
        droid(
          'm1',
          'user',
          [
            { type: 'text', text: '<system-reminder>Current date: 2026-06-18</system-reminder>' },
            { type: 'text', text: 'Fix the login timeout and run the tests' },
          ],
          1,
        ),
        droid(
          'm2',
          'assistant',
          [
            { type: 'thinking', thinking: 'plan' },
            { type: 'text', text: 'Editing the service.' },
            use('t1', 'Edit', { file_path: '/w/app/src/auth.py', old_str: '30', new_str: '15' }),
            use('t2', 'Create', { file_path: '/w/app/tests/test_timeout.py', content: 'def test(): pass' }),
          ],
          2,
        ),
        droid('m3', 'user', [result('t1', 'File edited successfully'), result('t2', 'File created successfully')], 3),
        droid('m4', 'assistant', [use('t3', 'Execute', { command: 'pytest -q', riskLevel: 'low' })], 4),
        droid('m5', 'user', [result('t3', '1 failed, 3 passed in 0.21s\n\n[Process exited with code 1]', true)], 5),
        droid(
          'm6',
          'assistant',
          [
            use('t4', 'ApplyPatch', { input: '*** Begin Patch\n*** Update File: /w/app/src/auth.py\n@@\n-x\n+y\n*** End Patch' }),
            use('t5', 'TodoWrite', { todos: '1. [completed] Shorten the timeout\n2. [in_progress] Make the tests pass' }),
          ],
          6,
        ),
        droid('m7', 'user', [result('t4', 'Patch applied'), result('t5', 'Todo list updated')], 7),
        droid('m8', 'assistant', [use('t6', 'Execute', { command: 'git push --force' })], 8),
        droid('m9', 'user', [result('t6', 'Tool execution was cancelled by user', true)], 9),
        droid('m10', 'assistant', [use('t7', 'Execute', { command: 'pytest -q' })], 10),
        droid('m11', 'user', [result('t7', '4 passed in 0.18s\n\n[Process exited with code 0]')], 11),
        {
          type: 'todo_state',
          timestamp: T(12),
          todos: [
            { description: 'Shorten the timeout', status: 'completed' },
            { description: 'Make the tests pass', status: 'completed' },
          ],
        },
        droid('m12', 'assistant', [{ type: 'text', text: 'The timeout is 15 minutes and the 4 tests pass.' }], 13),
      ]),
    );
    const r = await readByContent(file, { workspaceRoot: '/w/app' });
    assert.equal(r?.detected.source, 'droid');
    const events = r?.read.events ?? [];
    assert.deepEqual(commands(events), [
      ['pytest -q', 1, true, false],
      ['git push --force', null, false, false],
      ['pytest -q', 0, true, false],
    ]);
    assert.deepEqual(edits(events), ['tests/test_timeout.py', 'src/auth.py']);
    // The latest list: the todo_state after the second run, both steps done.
    assert.deepEqual(plans(events), [['completed:Shorten the timeout', 'completed:Make the tests pass']]);
    assert.deepEqual(
      r?.read.user_requests?.map((u) => u.text),
      ['Fix the login timeout and run the tests'],
    );
  });
});
