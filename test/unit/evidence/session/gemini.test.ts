import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit, SessionTurn, TranscriptRead } from '../../../../src/core/session/events';
import { geminiShapeOf, looksLikeGemini, readGemini } from '../../../../src/evidence/session/readers/gemini';
import { geminiShellEnd } from '../../../../src/evidence/session/readers/geminiTools';
import {
  GeminiChatWriter,
  legacyShellText,
  type MessageRecord,
  shellText,
  startupContext,
  toolCall,
  writeCheckpoint,
  writeLegacyChat,
  writeLogsJson,
} from '../../../helpers/geminiLogs';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (r: TranscriptRead) =>
  r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => ({ command: c.command, exit: c.exit_code, ran: c.ran }));
const edits = (r: TranscriptRead) => r.events.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => `${e.tool}:${e.path}`);
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}: ${t.text}`);
const tails = (r: TranscriptRead) => r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => c.output_tail ?? '');

const WS = '/home/dev/shop';
const T = (s: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, s)).toISOString();

/** The session of the tests: a failing run, a fix, a passing run, a cancelled command, a failed write. */
function writeSession(file: string): GeminiChatWriter {
  const w = new GeminiChatWriter(file, 'c0ffee00-1111-4222-8333-444455556666', 'a'.repeat(64), T(0));
  w.user('Fix the failing login test.', T(1));
  w.gemini("I'll run the tests first.", T(2));
  w.toolCalls(
    [
      toolCall(
        'run_shell_command-1',
        'run_shell_command',
        { command: 'npm test', description: 'Run the tests' },
        'success',
        shellText('FAIL src/login.test.ts\nTests: 1 failed, 9 passed, 10 total', 1),
        T(3),
        'FAIL src/login.test.ts\nTests: 1 failed, 9 passed, 10 total',
      ),
    ],
    T(3),
  );
  w.tokens();
  w.toolCalls(
    [
      toolCall(
        'replace-2',
        'replace',
        { file_path: `${WS}/src/login.ts`, old_string: 'a', new_string: 'b', instruction: 'fix' },
        'success',
        'Successfully modified file: src/login.ts (1 replacements).',
        T(4),
      ),
    ],
    T(4),
  );
  w.toolCalls(
    [
      toolCall(
        'run_shell_command-3',
        'run_shell_command',
        { command: 'npm test' },
        'success',
        shellText('PASS src/login.test.ts\nTests: 10 passed, 10 total', 0),
        T(5),
        'PASS src/login.test.ts\nTests: 10 passed, 10 total',
      ),
    ],
    T(5),
  );
  w.toolCalls(
    [
      toolCall(
        'run_shell_command-4',
        'run_shell_command',
        { command: 'rm -rf dist' },
        'cancelled',
        '[Operation Cancelled] Reason: User did not allow tool call',
        T(6),
      ),
    ],
    T(6),
  );
  w.toolCalls(
    [
      toolCall(
        'write_file-5',
        'write_file',
        { file_path: `${WS}/../outside.ts`, content: 'x' },
        'error',
        'File path must be within one of the workspace directories',
        T(7),
      ),
    ],
    T(7),
  );
  w.notice('info', 'Request cancelled.', T(8));
  w.gemini('All 10 tests pass now.', T(9));
  w.setAllMessages(T(9));
  return w;
}

describe('Gemini CLI reader (files written here in the shapes Gemini CLI writes)', function () {
  // Large files are generated and read in full: several seconds on a busy machine.
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('a chat recording (.jsonl): commands with exit codes, a cancelled one not run, edits, turns — each message and call once', async () => {
    const file = path.join(tempDir(), 'chats', 'session-2026-03-02T10-00-c0ffee00.jsonl');
    writeSession(file);
    const r = await readGemini(file, { workspaceRoot: WS });
    assert.equal(r.source, 'gemini');
    assert.deepEqual(commands(r), [
      { command: 'npm test', exit: 1, ran: true },
      { command: 'npm test', exit: 0, ran: true },
      { command: 'rm -rf dist', exit: null, ran: false },
    ]);
    assert.match(tails(r)[0], /1 failed, 9 passed/);
    assert.deepEqual(edits(r), ['replace:src/login.ts']);
    assert.deepEqual(turns(r), ['user: Fix the failing login test.', "assistant: I'll run the tests first.", 'assistant: All 10 tests pass now.']);
    assert.equal(r.error, undefined);
    assert.deepEqual({ ...r.stats, lines: 0 }, { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 });
    assert.equal(r.end_offset, statSync(file).size);
    assert.equal(r.last_time, Date.parse(T(9)));
  });

  it('a chat recording read again from where it stopped: only what was appended, an old message appended again not counted twice', async () => {
    const file = path.join(tempDir(), 'session-2026-03-02T10-00-c0ffee00.jsonl');
    const w = writeSession(file);
    const first = await readGemini(file, { workspaceRoot: WS });
    w.tokens(); // the last message appended again, whole
    w.user('Now add a test for logout.', T(20));
    w.toolCalls(
      [
        toolCall(
          'run_shell_command-9',
          'run_shell_command',
          { command: 'npx vitest run logout' },
          'success',
          shellText('Test Files  1 failed (1)\n     Tests  1 failed (1)', 1),
          T(21),
        ),
      ],
      T(21),
    );
    const next = await readGemini(file, { workspaceRoot: WS, fromOffset: first.end_offset, sinceTime: first.last_time });
    assert.deepEqual(commands(next), [{ command: 'npx vitest run logout', exit: 1, ran: true }]);
    assert.deepEqual(turns(next), ['user: Now add a test for logout.']);
  });

  it('the legacy whole-file recording (.json) with the shell tool\'s older text: every field, "Exit Code: N" always', async () => {
    const dir = tempDir();
    const w = writeSession(path.join(dir, 'scratch.jsonl'));
    const legacy: MessageRecord[] = w.messages.map((m) => ({
      ...m,
      toolCalls: m.toolCalls?.map((c) =>
        c.name === 'run_shell_command' && c.status === 'success'
          ? toolCall(
              c.id,
              c.name,
              c.args,
              'success',
              legacyShellText(String(c.args.command), String(c.resultDisplay), c.id.endsWith('-1') ? 1 : 0),
              c.timestamp,
              null,
            )
          : c,
      ),
    }));
    const file = path.join(dir, 'session-2025-09-01T08-00-c0ffee00.json');
    writeLegacyChat(file, w.sessionId, w.projectHash, legacy);
    const r = await readGemini(file, { workspaceRoot: WS });
    assert.deepEqual(commands(r), [
      { command: 'npm test', exit: 1, ran: true },
      { command: 'npm test', exit: 0, ran: true },
      { command: 'rm -rf dist', exit: null, ran: false },
    ]);
    assert.match(tails(r)[0], /^FAIL src\/login\.test\.ts\nTests: 1 failed, 9 passed, 10 total$/);
    assert.deepEqual(edits(r), ['replace:src/login.ts']);
    assert.equal(turns(r).length, 3);
    assert.equal(r.end_offset, 0);
    // Rewritten with one more message: read by time, the old ones are not new.
    legacy.push({ id: 'msg-99', timestamp: T(30), type: 'user', content: [{ text: 'Ship it.' }] });
    writeLegacyChat(file, w.sessionId, w.projectHash, legacy);
    const again = await readGemini(file, { workspaceRoot: WS, sinceTime: r.last_time });
    assert.deepEqual([commands(again), turns(again)], [[], ['user: Ship it.']]);
  });

  it('a /chat save checkpoint: the model history without the start-up context; calls matched to their responses', async () => {
    const file = path.join(tempDir(), 'checkpoint-before-refactor.json');
    const history = [
      { role: 'user', parts: [{ text: startupContext(WS) }] },
      { role: 'model', parts: [{ text: 'Got it. Thanks for the context!' }] },
      { role: 'user', parts: [{ text: 'Run the Python tests and fix what fails.' }] },
      { role: 'model', parts: [{ text: 'Running pytest.' }, { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'pytest -q' } } }] },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'c1',
              name: 'run_shell_command',
              response: { output: legacyShellText('pytest -q', 'FAILED tests/test_cart.py::test_total\n1 failed, 4 passed in 0.31s', 1) },
            },
          },
        ],
      },
      {
        role: 'model',
        parts: [
          { thought: true, text: 'The total ignores tax.' },
          { functionCall: { id: 'c2', name: 'replace', args: { file_path: `${WS}/cart.py`, old_string: 'x', new_string: 'y' } } },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { id: 'c2', name: 'replace', response: { output: 'Successfully modified file' } } }] },
      { role: 'model', parts: [{ functionCall: { id: 'c3', name: 'run_shell_command', args: { command: 'pytest -q' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c3', name: 'run_shell_command', response: { output: shellText('5 passed in 0.29s', 0) } } }] },
      { role: 'model', parts: [{ text: 'All 5 pass.' }, { functionCall: { id: 'c4', name: 'run_shell_command', args: { command: 'git push' } } }] },
    ];
    writeCheckpoint(file, history);
    const r = await readGemini(file, { workspaceRoot: WS });
    assert.deepEqual(commands(r), [
      { command: 'pytest -q', exit: 1, ran: true },
      { command: 'pytest -q', exit: 0, ran: true },
      { command: 'git push', exit: null, ran: false },
    ]);
    assert.deepEqual(edits(r), ['replace:cart.py']);
    assert.deepEqual(turns(r), ['user: Run the Python tests and fix what fails.', 'assistant: Running pytest.', 'assistant: All 5 pass.']);
    assert.equal(r.end_offset, statSync(file).size);
    // Unchanged since: nothing new.
    const again = await readGemini(file, { workspaceRoot: WS, fromOffset: r.end_offset });
    assert.deepEqual(again.events, []);
    // The older bare-array checkpoint.
    writeCheckpoint(file, history, true);
    assert.equal(commands(await readGemini(file, { workspaceRoot: WS })).length, 3);
  });

  it("logs.json: the user's prompts as user turns, without slash commands; newer than the previous read only", async () => {
    const file = path.join(tempDir(), 'logs.json');
    writeLogsJson(file, [
      { sessionId: 's1', message: 'Explain the cart module.', timestamp: T(1) },
      { sessionId: 's1', message: '/chat save before-refactor', timestamp: T(2) },
      { sessionId: 's2', message: 'Add a discount field.', timestamp: T(3) },
    ]);
    const r = await readGemini(file);
    assert.deepEqual(turns(r), ['user: Explain the cart module.', 'user: Add a discount field.']);
    assert.deepEqual(commands(r), []);
    assert.deepEqual(turns(await readGemini(file, { sinceTime: Date.parse(T(2)) })), ['user: Add a discount field.']);
  });

  it('tells the four shapes apart by content, and refuses what is none of them', async () => {
    const dir = tempDir();
    const chat = path.join(dir, 'a.jsonl');
    writeSession(chat);
    const legacy = path.join(dir, 'b.json');
    writeLegacyChat(legacy, 's', 'h', [{ id: 'm', timestamp: T(1), type: 'user', content: 'hi' }]);
    const cp = path.join(dir, 'c.json');
    writeCheckpoint(cp, [{ role: 'user', parts: [{ text: 'hi' }] }]);
    const logs = path.join(dir, 'd.json');
    writeLogsJson(logs, [{ sessionId: 's', message: 'hi', timestamp: T(1) }]);
    const head = (f: string) => readFileSync(f, 'utf8').slice(0, 65536);
    assert.deepEqual(
      [chat, legacy, cp, logs].map((f) => geminiShapeOf(head(f))),
      ['chat-jsonl', 'chat-json', 'checkpoint', 'logs'],
    );
    assert.equal(geminiShapeOf('[]', 'logs.json'), 'logs');
    assert.equal(geminiShapeOf('[]', 'checkpoint-x.json'), 'checkpoint');
    assert.equal(looksLikeGemini('[]', 'ui_messages.json'), false);
    assert.equal(looksLikeGemini('{"type":"session_meta","payload":{}}', 'rollout.jsonl'), false);
    assert.equal(looksLikeGemini('{"type":"user","message":{"role":"user","content":"hi"}}', 'x.jsonl'), false);
    const other = path.join(dir, 'other.json');
    writeFileSync(other, '{"requests":[]}');
    const r = await readGemini(other);
    assert.match(r.error ?? '', /is not a Gemini CLI chat recording, checkpoint or logs\.json/);
    assert.match((await readGemini(path.join(dir, 'missing.jsonl'))).error ?? '', /does not exist/);
  });

  it("the shell tool's end: exit codes from both text shapes, signals and spawn errors unknown, refusals not run", () => {
    assert.deepEqual(geminiShellEnd({ status: 'success', text: shellText('ok', 0) }), { ran: true, exit: 0, failed: false, output: 'ok' });
    assert.equal(geminiShellEnd({ status: 'success', text: shellText('boom', 2) }).exit, 2);
    assert.equal(geminiShellEnd({ status: 'success', text: 'Output: (empty)\nSignal: 15\nProcess Group PGID: 1' }).exit, null);
    assert.equal(geminiShellEnd({ status: 'success', text: legacyShellText('x', '', null) }).exit, null);
    assert.deepEqual(geminiShellEnd({ status: 'error', text: 'Command is not allowed: rm' }), {
      ran: false,
      exit: null,
      failed: false,
      output: 'Command is not allowed: rm',
    });
    assert.equal(geminiShellEnd({ status: 'success', text: 'Command was cancelled by user before it could start.' }).ran, false);
    assert.equal(geminiShellEnd({ status: 'success', text: 'Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view.' }).exit, null);
  });

  it('streams a large recording: a 17 MiB line is skipped and counted, the 4,000 lines around it are read', async () => {
    const file = path.join(tempDir(), 'session-big.jsonl');
    const w = new GeminiChatWriter(file, 'big', 'h', T(0));
    const lines: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      lines.push(JSON.stringify({ id: `u${i}`, timestamp: T(1), type: 'user', content: [{ text: `prompt ${i}` }] }));
      if (i === 1_000) lines.push(JSON.stringify({ id: 'huge', timestamp: T(1), type: 'gemini', content: 'z'.repeat(17 * 1024 * 1024) }));
      lines.push(
        JSON.stringify({
          id: `g${i}`,
          timestamp: T(1),
          type: 'gemini',
          content: `reply ${i}`,
          toolCalls: [toolCall(`c${i}`, 'run_shell_command', { command: 'npm test' }, 'success', shellText('Tests: 3 passed, 3 total', i % 2), T(1))],
        }),
      );
    }
    appendFileSync(file, `${lines.join('\n')}\n`);
    void w;
    const r = await readGemini(file);
    assert.equal(r.stats.lines, 4_002);
    assert.equal(r.stats.skipped, 1);
    assert.equal(turns(r).at(-1), 'assistant: reply 1999');
    assert.equal(commands(r).at(-1)?.exit, 1);
    assert.equal(r.end_offset, statSync(file).size);
  });

  it('streams a large legacy .json: a 12 MB file cut short keeps every message before the cut', async () => {
    const file = path.join(tempDir(), 'session-cut.json');
    const messages = Array.from({ length: 1200 }, (_, i) => ({
      id: `m${i}`,
      timestamp: T(1),
      type: i % 2 ? 'gemini' : 'user',
      content: `${i % 2 ? 'reply' : 'prompt'} ${i} ${'w'.repeat(10_000)}`,
    }));
    writeLegacyChat(file, 's', 'h', messages as never);
    const full = readFileSync(file);
    assert.ok(full.length > 12_000_000);
    writeFileSync(file, full.subarray(0, full.length - 5000)); // cut inside the last message
    const r = await readGemini(file);
    assert.equal(r.stats.lines, 1199);
    assert.equal(r.stats.malformed, 1);
    assert.match(turns(r).at(-1) ?? '', /^user: prompt 1198 w/);
  });
});
