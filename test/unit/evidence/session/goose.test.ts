/**
 * Goose sessions as JSON Lines (`~/.local/share/goose/sessions/<id>.jsonl`, before `sessions.db`),
 * read by content whatever the file's name. No public session file was found (test/fixtures/real/
 * SOURCES.md); the lines are written in block/goose's shapes: `session/legacy.rs` (a first line of
 * `SessionMetadata`, then one `Message` a line), `conversation/message.rs` (`toolRequest` /
 * `toolResponse` with `ToolResult` `{status: "success", value}` or `{status: "error", error}`), the
 * developer extension's `shell` (its result ends "Command exited with code N" on a non-zero exit) and
 * `text_editor` (`write`, `str_replace`, `view` …), and the todo extension's markdown checklist.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findGoose } from '../../../../src/evidence/session/discoveryCliAgents';
import { readGoose } from '../../../../src/evidence/session/readers/goose';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionPlan, SessionTurn } from '../../../../src/core/session/events';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const put = (dir: string, name: string, content: string) => {
  write(dir, name, content);
  return path.join(dir, name);
};
const commands = (ev: SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.failed ?? false]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => e.path);
const turns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}:${t.text}`);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));

const S = 1747178328;
const meta = (cwd: string) => ({
  working_dir: cwd,
  description: 'Fix the worker leak',
  schedule_id: null,
  message_count: 6,
  total_tokens: 1250,
  input_tokens: 980,
  output_tokens: 270,
  accumulated_total_tokens: 75280,
});
const user = (text: string, s: number) => ({ role: 'user', created: S + s, content: [{ type: 'text', text }] });
const call = (id: string, name: string, args: object, s: number, text?: string) => ({
  role: 'assistant',
  created: S + s,
  content: [...(text ? [{ type: 'text', text }] : []), { type: 'toolRequest', id, toolCall: { status: 'success', value: { name, arguments: args } } }],
});
/** `value` a list of contents (older builds) or `{content, isError}` (a CallToolResult). */
const ok = (id: string, text: string, s: number, isError?: boolean) => ({
  role: 'user',
  created: S + s,
  content: [
    {
      type: 'toolResponse',
      id,
      toolResult: { status: 'success', value: isError === undefined ? [{ type: 'text', text }] : { content: [{ type: 'text', text }], isError } },
    },
  ],
});
const failed = (id: string, error: string, s: number) => ({
  role: 'user',
  created: S + s,
  content: [{ type: 'toolResponse', id, toolResult: { status: 'error', error } }],
});

function session(cwd: string): string {
  return jsonl([
    meta(cwd),
    user('the worker leaks memory: find it and make the tests pass', 0),
    call('toolu_1', 'developer__shell', { command: 'ps aux | grep worker' }, 2, 'Let me look at the worker first.'),
    ok('toolu_1', 'coding 1234 node worker.js', 3),
    call('toolu_2', 'developer__text_editor', { command: 'view', path: path.join(cwd, 'worker.js') }, 4),
    ok('toolu_2', 'const cache = []', 5),
    call('toolu_3', 'developer__text_editor', { command: 'str_replace', path: path.join(cwd, 'worker.js'), old_str: 'a', new_str: 'b' }, 6),
    ok('toolu_3', 'The file has been edited', 7),
    call('toolu_4', 'developer__text_editor', { command: 'write', path: path.join(cwd, 'test/leak.test.js'), file_text: 'x' }, 8),
    ok('toolu_4', 'Successfully wrote', 9),
    call('toolu_5', 'developer__shell', { command: 'npm test' }, 10),
    ok('toolu_5', 'Tests: 1 failed, 4 passed, 5 total\n\nCommand exited with code 1', 11, true),
    call('toolu_6', 'developer__shell', { command: 'git push --force' }, 12),
    failed('toolu_6', 'The user has declined to run this tool. DO NOT attempt to call this tool again.', 13),
    call('toolu_7', 'developer__shell', { command: 'npm run lint' }, 14),
    failed('toolu_7', 'Failed to spawn shell command: No such file or directory', 15),
    call('toolu_8', 'todo__write', { content: '- [x] Find the leak\n- [ ] Make the tests pass' }, 16),
    ok('toolu_8', 'Updated', 17),
    call('toolu_9', 'developer__shell', { command: 'npm test' }, 18),
    ok('toolu_9', 'Tests: 5 passed, 5 total', 19, false),
    { role: 'assistant', created: S + 20, content: [{ type: 'text', text: 'Fixed: the cache is cleared after each job.' }] },
  ]);
}

describe('Goose JSONL sessions', function () {
  after(cleanupTempDirs);

  it('shell runs with their exit codes, a declined call not run, text_editor writes (not views), the todo checklist, the turns', async () => {
    const ws = tempDir();
    const r = await readGoose(put(ws, '20250513_231848.jsonl', session(ws)), { workspaceRoot: ws });
    assert.equal(r.error, undefined);
    assert.deepEqual(commands(r.events), [
      ['ps aux | grep worker', null, true, false],
      ['npm test', 1, true, false],
      ['git push --force', null, false, false],
      ['npm run lint', null, true, true],
      ['npm test', null, true, false],
    ]);
    assert.equal((r.events.find((e) => e.kind === 'command') as SessionCommand).cwd, ws);
    assert.deepEqual(edits(r.events), ['worker.js', 'test/leak.test.js']);
    assert.deepEqual(plans(r.events).at(-1), ['completed:Find the leak', 'pending:Make the tests pass']);
    assert.deepEqual(turns(r.events), [
      'user:the worker leaks memory: find it and make the tests pass',
      'assistant:Let me look at the worker first.',
      'assistant:Fixed: the cache is cleared after each job.',
    ]);
    assert.deepEqual(
      r.user_requests?.map((q) => q.text),
      ['the worker leaks memory: find it and make the tests pass'],
    );
    assert.equal(r.events[0].kind === 'turn' && r.events[0].time, new Date(S * 1000).toISOString());

    const got = await collectSessionLog({ workspaceRoot: ws, mode: path.join(ws, '20250513_231848.jsonl') });
    assert.deepEqual(
      got.tests_run.map((t) => [t.command, t.result, t.exit_code]),
      [
        ['npm test', 'failed', 1],
        ['npm test', 'passed', null],
      ],
    );
  });

  it("read from an offset (only the lines appended since), commands still run in the metadata line's folder", async () => {
    const ws = tempDir();
    const text = session(ws);
    const file = put(ws, 's.jsonl', text);
    const from = Buffer.byteLength(text.slice(0, text.indexOf('{"role":"assistant","created":' + (S + 10))));
    const r = await readGoose(file, { fromOffset: from });
    assert.deepEqual(
      r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.cwd]),
      [
        ['npm test', ws],
        ['git push --force', ws],
        ['npm run lint', ws],
        ['npm test', ws],
      ],
    );
  });

  it('is detected by its content under any name (its metadata line, or messages alone), not an Amp or Claude Code log', async () => {
    const dir = tempDir();
    assert.equal((await detectTranscript(put(dir, 'log', session('/w'))))?.format, 'goose');
    const noMeta = put(dir, 'messages-only', jsonl([user('hello', 0), call('t1', 'developer__shell', { command: 'ls' }, 1)]));
    assert.equal((await readByContent(noMeta))?.read.source, 'goose');
    const claude = put(dir, 'c.jsonl', jsonl([{ type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: 'hi' } }]));
    assert.equal((await detectTranscript(claude))?.source, 'claude-code');
  });

  it("finds the workspace's newest session in the sessions folder by its working_dir", async () => {
    const sessions = tempDir();
    const ws = path.join(tempDir(), 'app');
    put(sessions, 'a.jsonl', session('/elsewhere'));
    const mine = put(sessions, 'b.jsonl', session(ws));
    assert.deepEqual(
      (await findGoose(sessions, ws)).map((f) => [f.source, f.file]),
      [['goose', mine]],
    );
    assert.deepEqual(await findGoose(path.join(sessions, 'none'), ws), []);
  });
});
