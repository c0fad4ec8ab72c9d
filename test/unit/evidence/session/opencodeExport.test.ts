/**
 * `opencode export` documents (and Kilo Code's CLI export, the same shape) are transcripts on
 * their own, wherever they are and whatever their name: found by content, read message by message.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit, SessionTurn } from '../../../../src/core/session/events';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const SES = 'ses_450b70e67ffeoaXH496F8i0fVA';
const part = (id: string, msg: string, p: object) => ({ id: `prt_${id}`, sessionID: SES, messageID: `msg_${msg}`, ...p });
/** An export as OpenCode 1.1 writes it: a request, a bash run, an edit, a todo list, a reply. */
const EXPORT = {
  info: {
    id: SES,
    version: '1.1.13',
    projectID: 'p1',
    directory: '/home/user/app',
    title: 'New session',
    time: { created: 1768172351896, updated: 1768172361896 },
  },
  messages: [
    {
      info: { id: 'msg_a1', sessionID: SES, role: 'user', time: { created: 1768172351902 } },
      parts: [part('a', 'a1', { type: 'text', text: 'make the failing test pass' })],
    },
    {
      info: {
        id: 'msg_a2',
        sessionID: SES,
        role: 'assistant',
        time: { created: 1768172351908, completed: 1768172357148 },
        path: { cwd: '/home/user/app', root: '/home/user/app' },
      },
      parts: [
        part('b', 'a2', { type: 'step-start' }),
        part('c', 'a2', {
          type: 'tool',
          tool: 'bash',
          callID: 'c1',
          state: {
            status: 'completed',
            input: { command: 'npm test' },
            output: 'Tests: 1 failed, 3 passed',
            metadata: { output: 'Tests: 1 failed, 3 passed', exit: 1 },
            time: { start: 1768172352000, end: 1768172353000 },
          },
        }),
        part('d', 'a2', {
          type: 'tool',
          tool: 'edit',
          callID: 'c2',
          state: {
            status: 'completed',
            input: { filePath: '/home/user/app/src/sum.ts', oldString: 'a - b', newString: 'a + b' },
            output: '',
            metadata: {},
            time: { start: 1768172354000, end: 1768172355000 },
          },
        }),
        part('e', 'a2', {
          type: 'tool',
          tool: 'todowrite',
          callID: 'c3',
          state: {
            status: 'completed',
            input: {
              todos: [
                { id: '1', content: 'Fix sum', status: 'completed', priority: 'high' },
                { id: '2', content: 'Add a test for negatives', status: 'pending', priority: 'low' },
              ],
            },
            output: '',
            metadata: {},
            time: { start: 1768172355500, end: 1768172355600 },
          },
        }),
        part('f', 'a2', { type: 'text', text: 'Fixed `sum`; the suite should pass now.' }),
        part('g', 'a2', { type: 'step-finish', reason: 'stop' }),
      ],
    },
  ],
};

describe('OpenCode export documents', () => {
  let dir: string;
  before(() => (dir = tempDir('handoff-opencode-export-')));
  after(cleanupTempDirs);

  it('are found by content under any name, outside any storage folder, and read whole', async () => {
    for (const [name, text] of [
      ['session.json', JSON.stringify(EXPORT, null, 2)],
      ['export-without-extension', JSON.stringify(EXPORT)],
    ] as const) {
      write(dir, name, text);
      const file = path.join(dir, name);
      const d = await detectTranscript(file);
      assert.deepEqual([d?.source, d?.format], ['opencode', 'opencode-export'], name);
      const r = await readByContent(file);
      assert.ok(r);
      assert.equal(r.read.error, undefined);
      const ev = r.read.events;
      assert.deepEqual(
        ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran]),
        [['npm test', 1, true]],
      );
      assert.deepEqual(
        ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => e.path),
        ['src/sum.ts'],
      );
      assert.deepEqual(
        ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => t.role),
        ['user', 'assistant'],
      );
      const plan = ev.find((e) => e.kind === 'plan');
      assert.deepEqual(plan?.kind === 'plan' && plan.items.map((i) => [i.text, i.status]), [
        ['Fix sum', 'completed'],
        ['Add a test for negatives', 'pending'],
      ]);
    }
  });

  it('a later handoff reads only messages newer than the previous read', async () => {
    write(dir, 'again.json', JSON.stringify(EXPORT));
    const file = path.join(dir, 'again.json');
    const first = await collectSessionLog({ workspaceRoot: '/home/user/app', mode: file });
    assert.equal(first.tests_run.length, 1);
    const second = await collectSessionLog({ workspaceRoot: '/home/user/app', mode: file, state: first.next_state });
    assert.equal(second.tests_run.length, 0);
    assert.equal(second.user_requests?.at(-1)?.text, 'make the failing test pass');
  });

  it('a document cut short keeps the messages before the cut and counts the rest', async () => {
    const text = JSON.stringify(EXPORT);
    write(dir, 'cut.json', text.slice(0, text.indexOf('"msg_a2"') + 20));
    const r = await readByContent(path.join(dir, 'cut.json'));
    assert.ok(r);
    assert.equal(r.read.error, undefined);
    assert.deepEqual(
      r.read.user_requests?.map((q) => q.text),
      ['make the failing test pass'],
    );
    assert.equal(r.read.stats.malformed, 1);
  });
});
