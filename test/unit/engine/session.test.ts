/**
 * What the extension's recorded session needs of the engine (src/engine/project/session.ts): where
 * the session-log offsets are kept, and which saved files the recorder leaves out.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { recorderIgnores, recorderLine, sessionStatePath } from '../../../src/engine/project/session';

describe('the recorded session (src/engine/project/session.ts)', () => {
  const ws = path.resolve('/tmp/project');

  it('keeps the session-log offsets in the workspace storage', () => {
    assert.equal(sessionStatePath('/storage'), path.join('/storage', 'session-log-state.json'));
  });

  it('leaves out the files of the handoff root and of .git folders, and nothing else', () => {
    const ignores = recorderIgnores({ workspaceRoot: ws, handoffDirectory: 'docs/handoffs' });
    assert.equal(ignores(path.join(ws, 'docs', 'handoffs', 'handoffs', 'x.md')), true);
    assert.equal(ignores(path.join(ws, '.git', 'COMMIT_EDITMSG')), true);
    assert.equal(ignores(path.join(ws, 'docs', 'handoffs-notes.md')), false);
    assert.equal(ignores(path.join(ws, 'src', 'a.ts')), false);
  });

  it('with an invalid handoff.directory setting leaves out only .git folders', () => {
    const ignores = recorderIgnores({ workspaceRoot: ws, handoffDirectory: '../outside' });
    assert.equal(ignores(path.join(ws, '.git', 'index')), true);
    assert.equal(ignores(path.join(ws, '..', 'outside', 'x.md')), false);
  });

  it('writes one validated JSON record per line', () => {
    const line = recorderLine({ v: 1, type: 'save', path: 'src/a.ts', time: '2026-01-01T00:00:00.000Z' });
    assert.equal(line, '{"v":1,"type":"save","path":"src/a.ts","time":"2026-01-01T00:00:00.000Z"}\n');
    assert.throws(() => recorderLine({ v: 1, type: 'save', path: '', time: 'x' }));
  });
});
