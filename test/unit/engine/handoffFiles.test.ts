/**
 * The handoff files of a project as the timeline's commands see them
 * (src/engine/handover/handoffFiles.ts): which files are ours, the open ones a result can answer,
 * a handoff's briefing, its status and the partial mark. Real handoffs written by the
 * engine in temporary git repositories.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HandoverOk } from '../../../src/core/handoff/schema';
import {
  briefingOf,
  isHandoffFile,
  listHandoffs,
  markPartial,
  openHandoffs,
  readHandoffHead,
  setHandoffStatus,
} from '../../../src/engine/handover/handoffFiles';
import { handover } from '../../../src/engine/handover/handover';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

async function written(ws: string, specialist: string, topic: string): Promise<HandoverOk> {
  const r = await handover({ specialist, topic }, { workspaceRoot: ws, sessionLog: { mode: 'none' } });
  assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
  return r as HandoverOk;
}

describe('handoff files (src/engine/handover/handoffFiles.ts)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('lists the handoffs, answers only the open ones, and follows status and partial marks', async () => {
    const ws = initRepo(tempDir('handoff-files-'));
    write(ws, 'a.ts', 'export const a = 1;\n');
    commitAll(ws, 'initial');
    const root = path.join(ws, '.handoff');
    assert.deepEqual(await listHandoffs(root), [], 'no folder yet: an empty list');
    const first = await written(ws, 'hacker', 'first');
    const second = await written(ws, 'quality_reviewer', 'second');
    assert.deepEqual(
      (await listHandoffs(root)).map((f) => f.path),
      [first.handoff_file, second.handoff_file],
    );
    assert.ok(isHandoffFile(root, first.handoff_file));
    assert.equal(isHandoffFile(root, first.briefing.path), false, 'a briefing is not a handoff file');
    assert.equal(isHandoffFile(path.join(ws, 'other'), first.handoff_file), false);

    assert.deepEqual(
      (await openHandoffs(root)).map((o) => o.file.path),
      [second.handoff_file, first.handoff_file],
      'newest first',
    );
    const set = await setHandoffStatus(second.handoff_file, 'complete', { at: new Date().toISOString(), session_id: 'test' });
    assert.ok(set.ok);
    assert.equal((await readHandoffHead(second.handoff_file))?.frontmatter.status, 'complete');
    assert.deepEqual(
      (await openHandoffs(root)).map((o) => o.file.path),
      [first.handoff_file],
      'a complete handoff is not open',
    );
    const partial = await markPartial(first.handoff_file);
    assert.match(partial, /\.partial\.md$/);
    assert.deepEqual(await openHandoffs(root), [], 'a partial handoff is not answered');
  });

  it("reads a handoff's head with its briefing; a file that is not a handoff has neither", async () => {
    const ws = initRepo(tempDir('handoff-files-'));
    const r = await written(ws, 'hacker', 'briefing');
    const root = path.join(ws, '.handoff');
    const found = await briefingOf(root, r.handoff_file);
    assert.equal(found.head?.frontmatter.specialist, 'hacker');
    assert.equal(found.briefing, r.briefing.path, 'the briefing section the frontmatter names (briefings/<name>/<id>.md)');
    assert.equal(found.text, readFileSync(r.briefing.path, 'utf8'), 'the whole briefing: one section so far');
    const escaping = path.join(root, 'handoffs', '2026-01-01T00-00-00.000Z_hacker.md');
    writeFileSync(escaping, readFileSync(r.handoff_file, 'utf8').replace(/^briefing_file: .*$/m, 'briefing_file: ../../outside.md'));
    assert.equal((await briefingOf(root, escaping)).briefing, undefined, 'a briefing_file leading out of the handoff root is refused');
    const missing = await briefingOf(root, path.join(root, 'handoffs', 'nothing.md'));
    assert.deepEqual(missing, { head: undefined, briefing: undefined, text: undefined });
  });
});
