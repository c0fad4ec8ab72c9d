/**
 * Compaction is not the end of the record: each agent keeps the log before a compaction on disk,
 * so the facts of the whole session are read — requests, test runs, edits from before and after
 * it, none twice — and the agent's own summary is carried as its compaction, never as a request
 * or a turn of the user. Each log is written here in the agent's on-disk shape (Claude Code's
 * `compact_boundary` and `isCompactSummary` records, Codex's `compacted` record with and without
 * its summary, Gemini CLI's compression rewritten into a recording and a checkpoint, Copilot Chat's
 * `result.metadata.summary`); the real Claude Code transcript of the project's corpus is read too
 * when it is on this machine (test/fixtures/real/SOURCES.md).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectSessionLog, type SessionLogEvidence } from '../../../../src/evidence/session/collectSessionLog';
import { GeminiChatWriter, shellText, toolCall } from '../../../helpers/geminiLogs';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const WS = '/home/dev/app';
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const at = (s: number) => new Date(Date.UTC(2026, 4, 2, 10, 0, s)).toISOString();
const requests = (e: SessionLogEvidence) => (e.user_requests ?? []).map((r) => r.text);
const tests = (e: SessionLogEvidence) => e.tests_run.map((t) => `${t.command} ${t.result}`);

async function collect(file: string): Promise<SessionLogEvidence> {
  const e = await collectSessionLog({ workspaceRoot: WS, mode: file, home: tempDir() });
  assert.deepEqual(e.notes, [], 'no notes');
  return e;
}

const CLAUDE_SUMMARY =
  'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n' +
  'Analysis:\nThe user asked for a --verbose flag; tests were red, then fixed.\n\nSummary:\n1. Primary Request and Intent: add --verbose.\n7. Pending Tasks: document the flag.';

describe('session log: compaction is not the end of the record', () => {
  after(cleanupTempDirs);

  it('Claude Code: reads the requests, tests and edits before and after a compact_boundary; the summary is the agent’s compaction', async () => {
    const file = path.join(tempDir(), 'session.jsonl');
    let n = 0;
    const base = () => ({ timestamp: at(n++), cwd: WS, sessionId: 's1', uuid: `u${n}` });
    const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...base(), ...extra });
    const assistant = (content: unknown[]) => ({ type: 'assistant', message: { role: 'assistant', content }, ...base() });
    const bash = (id: string, command: string, result: { is_error: boolean; content: string }) => [
      assistant([{ type: 'tool_use', id, name: 'Bash', input: { command } }]),
      user([{ type: 'tool_result', tool_use_id: id, ...result }]),
    ];
    writeFileSync(
      file,
      jsonl([
        user('Add a --verbose flag to the CLI.'),
        assistant([{ type: 'tool_use', id: 'e1', name: 'Edit', input: { file_path: `${WS}/src/cli.ts`, old_string: 'a', new_string: 'b' } }]),
        user([{ type: 'tool_result', tool_use_id: 'e1', content: 'The file has been updated.' }]),
        ...bash('t1', 'npm test', { is_error: true, content: 'Exit code 1\n1 failing' }),
        user('The tests fail, fix them.'),
        ...bash('t2', 'npm test', { is_error: false, content: '12 passing' }),
        {
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          isMeta: false,
          compactMetadata: { trigger: 'auto', preTokens: 155_025 },
          ...base(),
        },
        user(CLAUDE_SUMMARY, { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
        user('Now document the flag in the README.'),
        assistant([{ type: 'tool_use', id: 'e2', name: 'Write', input: { file_path: `${WS}/README.md`, content: '--verbose' } }]),
        user([{ type: 'tool_result', tool_use_id: 'e2', content: 'File created successfully' }]),
        assistant([{ type: 'text', text: 'Documented.' }]),
      ]),
    );
    const e = await collect(file);
    assert.deepEqual(requests(e), ['Add a --verbose flag to the CLI.', 'The tests fail, fix them.', 'Now document the flag in the README.']);
    assert.deepEqual(tests(e), ['npm test failed', 'npm test passed'], 'the test runs before the compaction are read');
    assert.deepEqual(e.file_edits.map((x) => x.path).sort(), ['README.md', 'src/cli.ts']);
    assert.ok(!e.recent_turns.some((t) => t.text.includes('being continued')), 'the summary is no turn');
    assert.deepEqual(e.compaction, { source: 'claude-code', file, time: at(8), trigger: 'auto', count: 1, text: CLAUDE_SUMMARY });
  });

  it('Claude Code: two compactions are counted, the latest carried; a boundary without its summary record is a compaction without text', async () => {
    const file = path.join(tempDir(), 'session.jsonl');
    let n = 0;
    const base = () => ({ timestamp: at(n++), cwd: WS, sessionId: 's1', uuid: `u${n}` });
    const boundary = (trigger: string) => ({
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger, preTokens: 9000 },
      ...base(),
    });
    const user = (content: string, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...base(), ...extra });
    writeFileSync(
      file,
      jsonl([user('First request.'), boundary('manual'), user('Summary one.', { isCompactSummary: true }), user('Second request.'), boundary('auto')]),
    );
    const e = await collect(file);
    assert.deepEqual(requests(e), ['First request.', 'Second request.']);
    assert.deepEqual(e.compaction && { trigger: e.compaction.trigger, count: e.compaction.count, text: e.compaction.text, time: e.compaction.time }, {
      trigger: 'auto',
      count: 2,
      text: '',
      time: at(4),
    });
  });

  it('Codex CLI: a compacted record is the agent’s summary without Codex’s prefix line; a server compaction has none, and its replacement history is not read again', async () => {
    const file = path.join(tempDir(), 'rollout-2026-05-02T10-00-00-x.jsonl');
    let n = 0;
    const rec = (type: string, payload: unknown) => ({ timestamp: at(n++), type, payload });
    const said = (role: 'user' | 'assistant', text: string) =>
      rec('response_item', { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] });
    const shell = (id: string, cmd: string, exit: number, output: string) => [
      rec('response_item', { type: 'function_call', name: 'shell', call_id: id, arguments: JSON.stringify({ command: ['bash', '-lc', cmd], workdir: WS }) }),
      rec('response_item', {
        type: 'function_call_output',
        call_id: id,
        output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 1 } }),
      }),
    ];
    writeFileSync(
      file,
      jsonl([
        rec('session_meta', { id: 'x', cwd: WS, originator: 'codex_cli_rs', cli_version: '0.93.0' }),
        said('user', 'Port the parser to Rust.'),
        ...shell('c1', 'cargo test', 101, 'test result: FAILED. 3 passed; 1 failed'),
        rec('compacted', {
          message:
            'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\nThe parser is ported; one test fails in lexer.rs.',
        }),
        rec('event_msg', { type: 'context_compacted' }),
        said('user', 'Fix the failing lexer test.'),
        ...shell('c2', 'cargo test', 0, 'test result: ok. 4 passed; 0 failed'),
        rec('compacted', {
          message: '',
          replacement_history: [
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Port the parser to Rust.' }] },
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the failing lexer test.' }] },
            { type: 'compaction', encrypted_content: 'gAAAAB…' },
          ],
        }),
        said('user', 'Commit it.'),
      ]),
    );
    const e = await collect(file);
    assert.deepEqual(
      requests(e),
      ['Port the parser to Rust.', 'Fix the failing lexer test.', 'Commit it.'],
      'each request once, the replacement history not read',
    );
    assert.deepEqual(tests(e), ['cargo test failed', 'cargo test passed']);
    assert.deepEqual(
      e.compaction && { count: e.compaction.count, text: e.compaction.text, trigger: e.compaction.trigger },
      { count: 2, text: '', trigger: null },
      'the latest, the server’s, keeps no summary',
    );

    // The summary of a local compaction, read alone.
    const one = path.join(tempDir(), 'rollout-2026-05-02T11-00-00-y.jsonl');
    writeFileSync(
      one,
      jsonl([
        rec('session_meta', { id: 'y', cwd: WS }),
        said('user', 'Port the parser.'),
        rec('compacted', {
          message: 'Another language model started to solve this problem and produced a summary of its thinking process. …:\nThe parser is ported.',
        }),
      ]),
    );
    assert.equal((await collect(one)).compaction?.text, 'The parser is ported.');
  });

  it('Gemini CLI: a recording keeps every message before /compress; the state snapshot is the agent’s compaction and its "Got it." no turn', async () => {
    const file = path.join(tempDir(), '.gemini', 'tmp', 'p', 'chats', 'session-2026-05-02T10-00-aaaa1111.jsonl');
    const w = new GeminiChatWriter(file, 'aaaa1111-s', 'hash', at(0));
    w.user('Add retries to the HTTP client.', at(1));
    w.gemini('Adding them.', at(2));
    w.toolCalls([toolCall('t1', 'run_shell_command', { command: 'npm test' }, 'success', shellText('1 failing', 1), at(3))], at(3));
    w.user('Make the backoff exponential.', at(4));
    w.gemini('Done: exponential backoff.', at(5));
    const snapshot =
      '<state_snapshot>\n  <overall_goal>Retries with exponential backoff.</overall_goal>\n  <current_plan>1. [DONE] retries 2. [TODO] docs</current_plan>\n</state_snapshot>';
    w.compress(snapshot, 2, at(6));
    w.user('Now write the docs.', at(7));
    const e = await collect(file);
    assert.deepEqual(requests(e), ['Add retries to the HTTP client.', 'Make the backoff exponential.', 'Now write the docs.']);
    assert.deepEqual(tests(e), ['npm test failed']);
    assert.ok(!e.recent_turns.some((t) => /state_snapshot|Got it\. Thanks/.test(t.text)), 'neither the snapshot nor the reply is a turn');
    assert.deepEqual(e.compaction && { text: e.compaction.text, time: e.compaction.time, count: e.compaction.count }, {
      text: snapshot,
      time: at(6),
      count: 1,
    });

    // A checkpoint saved after the compression starts with the snapshot turn and the reply.
    const cp = path.join(tempDir(), 'checkpoint-after.json');
    writeFileSync(
      cp,
      JSON.stringify(
        {
          history: [
            { role: 'user', parts: [{ text: `<scratchpad>Thinking about the history.</scratchpad>\n${snapshot}` }] },
            { role: 'model', parts: [{ text: 'Got it. Thanks for the additional context!' }] },
            { role: 'user', parts: [{ text: 'Now write the docs.' }] },
          ],
        },
        null,
        2,
      ),
    );
    const c = await collect(cp);
    assert.deepEqual(requests(c), ['Now write the docs.']);
    assert.equal(c.compaction?.text, snapshot, 'the snapshot without the scratchpad');
    assert.deepEqual(
      c.recent_turns.map((t) => t.text),
      ['Now write the docs.'],
    );
  });

  it('Copilot Chat: the summary in a request’s result metadata is the agent’s compaction; every request of the session is read', async () => {
    const dir = path.join(tempDir(), 'chatSessions');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'cp1.json');
    const req = (id: string, t: number, text: string, reply: string, extra: Record<string, unknown> = {}) => ({
      requestId: id,
      timestamp: 1_777_700_000_000 + t,
      message: { text, parts: [] },
      response: [{ value: reply }],
      ...extra,
    });
    writeFileSync(
      file,
      JSON.stringify({
        version: 3,
        sessionId: 'cp1',
        creationDate: 1_777_700_000_000,
        requests: [
          req('r1', 1000, 'Add a health endpoint.', 'Added /health.'),
          req('r2', 2000, 'Add a readiness probe too.', 'Added /ready.', {
            result: { metadata: { summary: { toolCallRoundId: 'round-7', text: 'The user wants health and readiness endpoints; /health exists.' } } },
          }),
          req('r3', 3000, 'Write tests for both.', 'Wrote them.'),
        ],
      }),
    );
    const e = await collect(file);
    assert.deepEqual(requests(e), ['Add a health endpoint.', 'Add a readiness probe too.', 'Write tests for both.']);
    assert.deepEqual(e.compaction && { source: e.compaction.source, text: e.compaction.text, time: e.compaction.time }, {
      source: 'copilot',
      text: 'The user wants health and readiness endpoints; /health exists.',
      time: new Date(1_777_700_002_000).toISOString(),
    });
  });

  const REAL = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'real', 'claude-code', 'agentlogs-compact.jsonl');
  it('the real Claude Code transcript with a /compact (agentlogs-compact.jsonl): the manual compaction carried, the request kept', async function () {
    if (!existsSync(REAL)) {
      console.log(`    NOT CHECKED: ${REAL} is not on this machine (test/fixtures/real/SOURCES.md names its repository, path and commit)`);
      return;
    }
    const e = await collect(REAL);
    assert.deepEqual(requests(e), ['how are you doing']);
    assert.equal(e.compaction?.trigger, 'manual');
    assert.equal(e.compaction?.time, '2025-10-10T21:57:51.963Z');
    assert.match(e.compaction?.text ?? '', /^This session is being continued from a previous conversation/);
    assert.match(e.compaction?.text ?? '', /Pending Tasks/);
  });
});
