/**
 * Amp threads, read by content whatever the file's name. Messages are written in the shapes of a
 * real `amp threads export` document (empathic/toolpath `test-fixtures/amp/convo.json` @ a273b872,
 * Amp 0.0.1785170481, see test/fixtures/real/SOURCES.md): `shell_command {command, workdir}` with
 * `run.result {output, exitCode}`, `apply_patch {patchText}` with `run.result.files[].uri`, a `Task`
 * whose result is a string, tool results in `user` messages; and in the shapes of Amp's Claude-backed
 * tools (`Bash {cmd, cwd}`, `edit_file` / `create_file {path}`, `todo_write {todos}`) and its tool-run
 * states (`rejected-by-user`, `cancelled`, `error`, `in-progress`).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findAmp } from '../../../../src/evidence/session/discoveryCliAgents';
import { readAmp } from '../../../../src/evidence/session/readers/amp';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionPlan, SessionTurn } from '../../../../src/core/session/events';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

/** Its path. */
const put = (dir: string, name: string, content: string) => {
  write(dir, name, content);
  return path.join(dir, name);
};

const commands = (ev: SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.failed ?? false]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => `${e.tool}:${e.path}`);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));
const turns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}:${t.text}`);

const MS = Date.UTC(2026, 6, 27, 18, 34, 15);
let n = 0;
const user = (text: string, s: number) => ({
  meta: { sentAt: MS + s * 1000 },
  role: 'user',
  readAt: null,
  content: [{ text, type: 'text' }],
  messageId: ++n,
  userState: { timeZone: 'America/New_York', currentlyVisibleFiles: [] },
});
const call = (id: string, name: string, input: object, s: number, text = '') => ({
  role: 'assistant',
  state: { type: 'complete', stopReason: 'tool_use' },
  usage: { model: 'gpt-5.6-sol', timestamp: new Date(MS + s * 1000).toISOString(), inputTokens: 0, outputTokens: 117 },
  content: [
    { type: 'thinking', provider: 'openai', thinking: '', signature: 'gAAAA' },
    ...(text ? [{ text, type: 'text', blockState: 'complete' }] : []),
    { id, name, type: 'tool_use', input, complete: true, blockState: 'complete' },
  ],
  messageId: ++n,
});
const result = (id: string, run: object) => ({ role: 'user', readAt: null, content: [{ run, type: 'tool_result', toolUseID: id }], messageId: ++n });
const thread = (cwd: string, messages: object[]) => ({
  v: 73,
  id: 'T-019fa4db-29cf-70c9-8d9b-81524df70e52',
  env: { initial: { trees: [{ uri: `file://${cwd}`, displayName: path.basename(cwd) }], platform: { client: 'VS Code CLI Execute Mode' } } },
  meta: { executorType: 'local-client', visibility: 'private' },
  title: 'Filesystem tool exercise',
  created: MS,
  messages,
  agentMode: 'medium',
});

/** Like the real export: a request, shell commands (one failing), apply_patch adds and updates, a Task sub-agent, a closing reply. */
function exported(cwd: string): object {
  return thread(cwd, [
    user('List the files, then write notes.md and count.sh.', 0),
    call('TU-1', 'shell_command', { command: 'ls -la', workdir: cwd }, 5, 'I’ll use `ls`.'),
    result('TU-1', { result: { output: 'total 0\n', exitCode: 0 }, status: 'done' }),
    call('TU-2', 'apply_patch', { patchText: '*** Begin Patch\n*** Add File: notes.md\n+scratch\n*** End Patch' }, 8),
    result('TU-2', {
      result: { files: [{ uri: `file://${cwd}/notes.md`, diff: '', type: 'add', additions: 1, deletions: 0 }], summary: 'add' },
      status: 'done',
      progress: {},
    }),
    call('TU-3', 'shell_command', { command: 'cat does-not-exist.txt', workdir: cwd }, 12),
    result('TU-3', { result: { output: 'cat: does-not-exist.txt: No such file or directory\n', exitCode: 1 }, status: 'done' }),
    call('TU-4', 'Task', { prompt: 'Count the words in `notes.md`.', description: 'Count words' }, 15),
    result('TU-4', { result: '`notes.md` contains **11 words**.', status: 'done' }),
    {
      role: 'assistant',
      state: { type: 'complete', stopReason: 'end_turn' },
      usage: { timestamp: new Date(MS + 20_000).toISOString() },
      content: [{ text: 'Created notes.md; the missing-file read failed as expected.', type: 'text' }],
      messageId: ++n,
    },
  ]);
}

describe('Amp threads', function () {
  after(cleanupTempDirs);

  it('an exported thread: the request, commands with exit codes, apply_patch files, the reply; a tool result is no request', async () => {
    const cwd = '/tmp/amp-elicit';
    const file = put(tempDir(), 'anything', JSON.stringify(exported(cwd), null, 2));
    const r = await readAmp(file);
    assert.equal(r.error, undefined);
    assert.deepEqual(commands(r.events), [
      ['ls -la', 0, true, false],
      ['cat does-not-exist.txt', 1, true, false],
    ]);
    assert.equal((r.events.find((e) => e.kind === 'command') as SessionCommand).cwd, cwd);
    assert.deepEqual(edits(r.events), ['apply_patch:notes.md']);
    assert.deepEqual(turns(r.events), [
      'user:List the files, then write notes.md and count.sh.',
      'assistant:I’ll use `ls`.',
      'assistant:Created notes.md; the missing-file read failed as expected.',
    ]);
    assert.deepEqual(
      r.user_requests?.map((q) => q.text),
      ['List the files, then write notes.md and count.sh.'],
    );
    assert.equal(r.events[0].kind === 'turn' && r.events[0].time, new Date(MS).toISOString());
    assert.equal(r.last_time, MS + 20_000);
  });

  it('Claude-backed tools: Bash {cmd, cwd} runs and test runs, a command the user rejected or cancelled is not run, edit_file / create_file paths, todo_write', async () => {
    const ws = tempDir();
    const file = put(
      ws,
      'T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001.json',
      JSON.stringify(
        thread(ws, [
          user('fix the off-by-one and run the tests', 0),
          call('toolu_1', 'todo_write', { todos: [{ id: '1', content: 'Fix the loop bound', status: 'in-progress', priority: 'high' }] }, 1),
          result('toolu_1', { status: 'done', result: [] }),
          call('toolu_2', 'edit_file', { path: path.join(ws, 'src/loop.ts'), old_str: 'i <= n', new_str: 'i < n' }, 2),
          result('toolu_2', { status: 'done', result: { diff: '-i <= n\n+i < n' } }),
          call('toolu_3', 'create_file', { path: path.join(ws, 'test/loop.test.ts'), content: 'x' }, 3),
          result('toolu_3', { status: 'done', result: 'created' }),
          call('toolu_4', 'Bash', { cmd: 'npm test', cwd: ws }, 4),
          result('toolu_4', { status: 'done', result: { output: 'Tests: 1 failed, 4 passed, 5 total', exitCode: 1 } }),
          call('toolu_5', 'Bash', { cmd: 'git push --force' }, 5),
          result('toolu_5', { status: 'rejected-by-user', reason: 'no' }),
          call('toolu_6', 'Bash', { cmd: 'npm run watch' }, 6),
          result('toolu_6', { status: 'cancelled' }),
          call('toolu_7', 'Bash', { cmd: 'npx tsc' }, 7),
          result('toolu_7', { status: 'error', error: { message: 'spawn failed' } }),
          call('toolu_8', 'edit_file', { path: path.join(ws, 'README.md'), old_str: 'a', new_str: 'b' }, 8),
          result('toolu_8', { status: 'rejected-by-user' }),
          call('toolu_9', 'Bash', { cmd: 'npm run build' }, 9),
          result('toolu_9', { status: 'in-progress', progress: { output: 'building' } }),
          call(
            'toolu_10',
            'todo_write',
            {
              todos: [
                { id: '1', content: 'Fix the loop bound', status: 'completed', priority: 'high' },
                { id: '2', content: 'Release', status: 'todo' },
              ],
            },
            10,
          ),
          result('toolu_10', { status: 'done', result: [] }),
        ]),
      ),
    );
    const r = await readAmp(file, { workspaceRoot: ws });
    assert.deepEqual(commands(r.events), [
      ['npm test', 1, true, false],
      ['git push --force', null, false, false],
      ['npm run watch', null, false, false],
      ['npx tsc', null, true, true],
    ]);
    assert.deepEqual(edits(r.events), ['edit_file:src/loop.ts', 'create_file:test/loop.test.ts']);
    // The list the last call left (`todo` is open, `in-progress` moved on to `completed`).
    assert.deepEqual(plans(r.events).at(-1), ['completed:Fix the loop bound', 'pending:Release']);

    const got = await collectSessionLog({ workspaceRoot: ws, mode: file });
    assert.deepEqual(
      got.tests_run.map((t) => [t.command, t.result, t.exit_code]),
      [['npm test', 'failed', 1]],
    );
    assert.deepEqual(
      got.plan?.items.map((i) => [i.text, i.status]),
      [
        ['Fix the loop bound', 'completed'],
        ['Release', 'pending'],
      ],
    );
    assert.deepEqual(
      got.user_requests?.map((q) => q.text),
      ['fix the off-by-one and run the tests'],
    );
    // Only what is newer than the last read counts the next time.
    const again = await collectSessionLog({ workspaceRoot: ws, mode: file, state: got.next_state });
    assert.deepEqual(again.tests_run, []);
  });

  it('is detected by its content under any name, not a JSON document with another id', async () => {
    const dir = tempDir();
    const t = put(dir, 'export.txt', JSON.stringify(exported('/w'), null, 2));
    assert.equal((await detectTranscript(t))?.format, 'amp');
    assert.equal((await readByContent(t))?.read.source, 'amp');
    const other = put(dir, 'T-x.json', JSON.stringify({ id: 'thread-1', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(await detectTranscript(other), undefined);
  });

  it('a compaction summary (an info message) is the compaction, not a turn; a cut document keeps what was read', async () => {
    const dir = tempDir();
    const doc = thread('/w', [
      { role: 'info', content: [{ type: 'summary', summary: { type: 'message', summary: 'We fixed the loop bound.' } }], messageId: 1 },
      user('now release it', 3),
      user('and tag it', 4),
    ]);
    const whole = JSON.stringify(doc);
    const r = await readAmp(put(dir, 'a.json', whole));
    assert.deepEqual(
      r.events.filter((e) => e.kind === 'compaction').map((e) => e.kind === 'compaction' && e.text),
      ['We fixed the loop bound.'],
    );
    assert.deepEqual(turns(r.events), ['user:now release it', 'user:and tag it']);
    const cut = await readAmp(put(dir, 'b.json', whole.slice(0, whole.indexOf('and tag it'))));
    assert.equal(cut.error, undefined);
    assert.deepEqual(turns(cut.events), ['user:now release it']);
    assert.equal(cut.stats.malformed + cut.stats.skipped > 0 || (cut.stats.bad_records?.count ?? 0) > 0, true);
  });

  it("finds the workspace's newest thread in the threads folder by its tree, not another folder's", async () => {
    const threads = tempDir();
    const ws = path.join(tempDir(), 'app');
    put(threads, 'T-019fa4db-29cf-70c9-8d9b-81524df70e51.json', JSON.stringify(exported('/elsewhere')));
    const mine = put(threads, 'T-019fa4db-29cf-70c9-8d9b-81524df70e52.json', JSON.stringify(exported(ws)));
    assert.deepEqual(
      (await findAmp(threads, ws)).map((f) => [f.source, f.file]),
      [['amp', mine]],
    );
    assert.deepEqual(await findAmp(path.join(threads, 'missing'), ws), []);
  });
});
