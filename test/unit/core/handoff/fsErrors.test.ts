/**
 * File-system failures in words (src/core/handoff/fsErrors.ts), from errors the real file
 * system raises on real files and links: each cause in words without its code, and the link
 * that loops found on the way to a path.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { LINK_LOOP_WORDS, fsCause, fsCauseAt, linkLoopProblem, loopingLink } from '../../../../src/core/handoff/fsErrors';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

/** The error `read` throws (a real file-system call). */
function errorOf(read: () => unknown): unknown {
  try {
    read();
  } catch (err) {
    return err;
  }
  return assert.fail('the call did not fail');
}

describe('file-system failures in words', () => {
  after(cleanupTempDirs);

  it('names each cause in words, never the code or the path Node adds', () => {
    const dir = realpathSync(tempDir());
    writeFileSync(path.join(dir, 'file'), 'x');
    symlinkSync('self', path.join(dir, 'self'));
    const cases: Array<[unknown, string, string]> = [
      [errorOf(() => readFileSync(path.join(dir, 'missing'))), 'missing', 'no such file or folder'],
      [errorOf(() => readFileSync(path.join(dir, 'self'))), 'link-loop', LINK_LOOP_WORDS],
      [errorOf(() => readFileSync(path.join(dir, 'file', 'below'))), 'not-folder', 'a file stands where a folder is needed on the way'],
      [errorOf(() => readFileSync(dir)), 'other', 'it is a folder, not a file'],
      [Object.assign(new Error("EXDEV: cross-device link not permitted, link '/a' -> '/b'"), { code: 'EXDEV' }), 'other', 'cross-device link not permitted'],
    ];
    for (const [err, kind, words] of cases) {
      assert.deepEqual(fsCause(err), { kind, words });
    }
  });

  it('finds the link that loops on the way to a path: the path itself, or the folder above it', async () => {
    const dir = realpathSync(tempDir());
    symlinkSync('b', path.join(dir, 'a'));
    symlinkSync('a', path.join(dir, 'b'));
    mkdirSync(path.join(dir, 'real'));
    symlinkSync(path.join(dir, 'a'), path.join(dir, 'real', 'to-loop'));
    const a = path.join(dir, 'a');
    assert.equal(await loopingLink(a, realpath), a);
    assert.equal(await loopingLink(path.join(a, 'x', 'y.jsonl'), realpath), a);
    assert.equal(await loopingLink(path.join(dir, 'real', 'to-loop', 'z'), realpath), path.join(dir, 'real', 'to-loop'));
    const err = await realpath(path.join(a, 'x')).catch((e: unknown) => e);
    assert.equal(await fsCauseAt(err, path.join(a, 'x'), realpath), `${a} is ${LINK_LOOP_WORDS}`);
    assert.equal(await fsCauseAt(err, a, realpath), `it is ${LINK_LOOP_WORDS}`);
    assert.equal(linkLoopProblem(a, a), `${a} is ${LINK_LOOP_WORDS}`);
    assert.equal(linkLoopProblem(path.join(a, 'x'), a), `${path.join(a, 'x')}: ${a} is ${LINK_LOOP_WORDS}`);
  });
});
