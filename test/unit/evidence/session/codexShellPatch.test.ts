/**
 * Codex sessions that edit by running `apply_patch` through the shell tool (older rollouts, the
 * VS Code extension) keep their edits: every form codex-rs `maybe_parse_apply_patch` accepts —
 * `["apply_patch", PATCH]`, `bash -lc "applypatch <<'PATCH' …"`, after `cd DIR &&`, as an
 * `exec_command` string — gives the patch's files as edits; a patch that failed gives none; none
 * of them is a command run.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit } from '../../../../src/core/session/events';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { readCodex, shellPatch } from '../../../../src/evidence/session/readers/codex';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const PATCH = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-old\n+new\n*** Add File: docs/notes.md\n+hello\n*** End Patch';
let n = 0;
const call = (name: string, args: object, output: string, exit: number) => {
  const id = `call_${++n}`;
  return [
    { timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id } },
    {
      timestamp: '2026-01-01T00:00:02Z',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: id, output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.1 } }) },
    },
  ];
};

describe('Codex: apply_patch run through the shell tool', () => {
  after(cleanupTempDirs);

  it('recognises the forms codex-rs accepts, and nothing else', () => {
    assert.deepEqual(shellPatch({ command: ['apply_patch', PATCH] }), { patch: PATCH });
    assert.deepEqual(shellPatch({ command: ['applypatch', PATCH] }), { patch: PATCH });
    assert.deepEqual(shellPatch({ command: ['bash', '-lc', `applypatch <<'PATCH'\n${PATCH}\nPATCH`] }), { patch: PATCH });
    assert.deepEqual(shellPatch({ command: ['bash', '-lc', `apply_patch <<"EOF"\n${PATCH}\nEOF\n`] }), { patch: PATCH });
    assert.deepEqual(shellPatch({ command: ['bash', '-lc', `cd packages/web && apply_patch <<'PATCH'\n${PATCH}\nPATCH`] }), {
      patch: PATCH,
      dir: 'packages/web',
    });
    assert.deepEqual(shellPatch({ cmd: `apply_patch '${PATCH}'` }), { patch: PATCH });
    assert.equal(shellPatch({ command: ['bash', '-lc', 'npm test'] }), undefined);
    assert.equal(shellPatch({ command: ['bash', '-lc', `cat <<'EOF' > notes.txt\n${PATCH}\nEOF`] }), undefined);
  });

  it('a rollout editing this way: the files are edits (relative to the session folder), no command, a failed patch no edit', async () => {
    const dir = tempDir();
    const records = [
      {
        timestamp: '2026-01-01T00:00:00Z',
        type: 'session_meta',
        payload: { id: 'r1', cwd: '/home/u/repo', originator: 'codex_vscode', cli_version: '0.39.0' },
      },
      ...call(
        'shell',
        { command: ['bash', '-lc', `applypatch <<'PATCH'\n${PATCH}\nPATCH`], workdir: '/home/u/repo' },
        'Success. Updated the following files:\nM src/app.ts\nA docs/notes.md\n',
        0,
      ),
      ...call(
        'shell',
        {
          command: ['bash', '-lc', `cd packages/web && apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: index.html\n@@\n-a\n+b\n*** End Patch\nPATCH`],
          workdir: '/home/u/repo',
        },
        'Done!',
        0,
      ),
      ...call(
        'shell',
        { command: ['apply_patch', '*** Begin Patch\n*** Update File: src/missing.ts\n@@\n-x\n+y\n*** End Patch'], workdir: '/home/u/repo' },
        'Failed to find expected lines in src/missing.ts',
        1,
      ),
      ...call('shell', { command: ['bash', '-lc', 'npm test'], workdir: '/home/u/repo' }, 'Tests: 4 passed', 0),
    ];
    write(dir, 'rollout.jsonl', `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const r = await readCodex(path.join(dir, 'rollout.jsonl'));
    assert.deepEqual(
      r.events
        .filter((e): e is SessionFileEdit => e.kind === 'file_edit')
        .map((e) => e.path)
        .sort(),
      ['docs/notes.md', 'packages/web/index.html', 'src/app.ts'],
    );
    assert.deepEqual(
      r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => c.command),
      ['npm test'],
    );
  });

  it('a rollout without envelopes (header, record_type markers, bare items): detected, its commands, patch edits and turns read', async () => {
    const dir = tempDir();
    const lines = [
      { id: 'c27a914d', timestamp: '2025-08-20T13:20:47.060Z', instructions: null, git: { branch: 'main' } },
      { record_type: 'state' },
      {
        type: 'message',
        id: null,
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/home/u/repo</cwd>\n</environment_context>' }],
      },
      { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'fix the parser and run the tests' }] },
      { record_type: 'state' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
      {
        type: 'function_call',
        id: 'fc_1',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', `applypatch <<'PATCH'\n${PATCH}\nPATCH`], workdir: '/home/u/repo' }),
        call_id: 'call_1',
      },
      { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'Done!', metadata: { exit_code: 0, duration_seconds: 0.1 } }) },
      {
        type: 'function_call',
        id: 'fc_2',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'pytest -q'], workdir: '/home/u/repo' }),
        call_id: 'call_2',
      },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: JSON.stringify({ output: '1 failed, 3 passed', metadata: { exit_code: 1, duration_seconds: 1.2 } }),
      },
      { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'One test still fails.' }] },
    ];
    write(dir, 'rollout-2025-08-20.jsonl', `${lines.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const file = path.join(dir, 'rollout-2025-08-20.jsonl');
    assert.equal((await detectTranscript(file))?.format, 'codex');
    const r = await readCodex(file);
    assert.equal(r.stats.skipped, 0);
    assert.deepEqual(
      r.events
        .filter((e): e is SessionFileEdit => e.kind === 'file_edit')
        .map((e) => e.path)
        .sort(),
      ['docs/notes.md', 'src/app.ts'],
    );
    assert.deepEqual(
      r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.time]),
      [['pytest -q', 1, '2025-08-20T13:20:47.060Z']],
    );
    assert.deepEqual(
      r.user_requests?.map((q) => q.text),
      ['fix the parser and run the tests'],
    );
  });
});
