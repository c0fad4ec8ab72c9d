/**
 * A JSON Lines transcript is recognised from its records, not from its first line or a fixed
 * head: Claude Code 2.x files open with bookkeeping records (`file-history-snapshot`, `summary`,
 * `queue-operation`, `last-prompt`, record types not known yet), and a first record can be longer
 * than any head (a pasted prompt, a Codex `session_meta` with its instructions). Each case is
 * written as the agent writes it, then detected by content and read; no record drops the file.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { DETECT_HEAD_BYTES, detectTranscript } from '../../../../src/evidence/session/detect';
import { RECORD_PREFIX_BYTES, recordHeadOfPrefix, sniffJsonLines } from '../../../../src/evidence/session/jsonLinesFormat';
import { codexSessionCwd } from '../../../../src/evidence/session/readers/codex';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const claudeUser = (text: string) => ({
  parentUuid: null,
  isSidechain: false,
  cwd: '/w',
  sessionId: 's1',
  version: '2.1.3',
  type: 'user',
  message: { role: 'user', content: text },
  uuid: 'u1',
  timestamp: '2026-01-01T00:00:00Z',
});
const claudeBash = {
  parentUuid: 'u1',
  sessionId: 's1',
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }] },
  uuid: 'a1',
  timestamp: '2026-01-01T00:00:01Z',
};
const claudeResult = {
  parentUuid: 'a1',
  sessionId: 's1',
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Tests: 3 passed', is_error: false }] },
  uuid: 'u2',
  timestamp: '2026-01-01T00:00:02Z',
};
const snapshot = {
  type: 'file-history-snapshot',
  messageId: 'm1',
  snapshot: { messageId: 'm1', trackedFileBackups: {}, timestamp: '2026-01-01T00:00:00Z' },
  isSnapshotUpdate: false,
};

describe('JSON Lines transcripts are recognised from their records, whatever the first one', () => {
  let dir: string;
  before(() => (dir = tempDir('handoff-detect-records-')));
  after(cleanupTempDirs);

  const cases: Array<[string, object[]]> = [
    ['a file-history-snapshot first', [snapshot, claudeUser('fix the build'), claudeBash, claudeResult]],
    [
      'a summary first (leafUuid only)',
      [{ type: 'summary', summary: 'Port the parser', leafUuid: 'x1' }, snapshot, claudeUser('fix the build'), claudeBash, claudeResult],
    ],
    [
      'a queue-operation and a last-prompt first',
      [
        { type: 'queue-operation', operation: 'dequeue', timestamp: '2026-01-01T00:00:00Z', sessionId: 's1' },
        { type: 'last-prompt', lastPrompt: 'fix the build' },
        claudeUser('fix the build'),
        claudeBash,
        claudeResult,
      ],
    ],
    [
      'record types not known yet first',
      [{ type: 'worktree-state', worktreeSession: { id: 'w' } }, { type: 'some-new-record', data: 1 }, claudeUser('fix the build'), claudeBash, claudeResult],
    ],
    ['a first record longer than the head (a pasted prompt)', [claudeUser(`fix the build\n${'log line\n'.repeat(20_000)}`), claudeBash, claudeResult]],
  ];
  for (const [name, records] of cases) {
    it(`Claude Code 2.x with ${name}: detected, its command read`, async () => {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.log`);
      write(dir, path.basename(file), jsonl(records));
      assert.equal((await detectTranscript(file))?.format, 'claude-code');
      const r = await readByContent(file);
      assert.ok(r);
      const cmds = r.read.events.filter((e) => e.kind === 'command');
      assert.deepEqual(
        cmds.map((c) => c.kind === 'command' && [c.command, c.exit_code]),
        [['npm test', 0]],
      );
      assert.ok(r.read.user_requests?.some((q) => q.text.startsWith('fix the build')));
    });
  }

  it('a file of bookkeeping records only is still Claude Code (nothing to read yet, not "no transcript")', async () => {
    write(dir, 'only-snapshots.jsonl', jsonl([snapshot, { ...snapshot, messageId: 'm2' }]));
    assert.equal((await detectTranscript(path.join(dir, 'only-snapshots.jsonl')))?.format, 'claude-code');
  });

  it('a Codex rollout whose session_meta is longer than the head (instructions): detected, its cwd found, its commands read', async () => {
    const meta = {
      timestamp: '2026-01-01T00:00:00Z',
      type: 'session_meta',
      payload: { id: 'r1', cwd: '/work/app', originator: 'codex_cli_rs', instructions: 'Follow the rules.\n'.repeat(30_000) },
    };
    const call = {
      timestamp: '2026-01-01T00:00:01Z',
      type: 'response_item',
      payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'pytest -q'] }), call_id: 'c1' },
    };
    const out = {
      timestamp: '2026-01-01T00:00:02Z',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'c1', output: JSON.stringify({ output: '2 passed', metadata: { exit_code: 0 } }) },
    };
    write(dir, 'rollout-long-meta.jsonl', jsonl([meta, call, out]));
    const file = path.join(dir, 'rollout-long-meta.jsonl');
    assert.ok(JSON.stringify(meta).length > 8 * DETECT_HEAD_BYTES);
    assert.equal((await detectTranscript(file))?.format, 'codex');
    assert.equal(await codexSessionCwd(file), '/work/app');
    const r = await readByContent(file);
    assert.deepEqual(
      r?.read.events.filter((e) => e.kind === 'command').map((c) => c.kind === 'command' && [c.command, c.exit_code]),
      [['pytest -q', 0]],
    );
  });

  it('a record cut short is classified by the keys before the cut', async () => {
    const head = await recordHeadOfPrefix('{"timestamp":"t","type":"session_meta","payload":{"cwd":"/a","instructions":"abc');
    assert.ok(head);
    assert.equal(head.values.get('type'), 'session_meta');
    assert.equal(head.values.get('payload.cwd'), '/a');
    assert.ok(head.keys.has('payload'));
    assert.equal(await recordHeadOfPrefix('not json'), undefined);
    assert.equal(await recordHeadOfPrefix('[1,2'), undefined);
  });

  it('other text is no JSON Lines: Markdown, a JSON array, lines that are not objects', async () => {
    write(dir, 'notes.md', '# Notes\n\nnothing here\n');
    write(dir, 'array.json', '[{"a":1}]\n');
    write(dir, 'mixed.jsonl', '{"a":1}\nnot json\n{"type":"user","message":{"role":"user","content":"x"}}\n');
    for (const f of ['notes.md', 'array.json', 'mixed.jsonl']) assert.equal(await sniffJsonLines(path.join(dir, f)), undefined, f);
    // A record of another shape, longer than the prefix kept: read on past it, never the whole file dropped.
    write(dir, 'long-unknown-first.jsonl', jsonl([{ kind: 'note', text: 'x'.repeat(RECORD_PREFIX_BYTES * 2) }, claudeUser('hello')]));
    assert.equal(await sniffJsonLines(path.join(dir, 'long-unknown-first.jsonl')), 'claude-code');
  });
});
