/**
 * Reliability, "nothing written where it should not be": through the whole engine, every
 * kind of path that could lead a write elsewhere is refused with a clear error and
 * nothing is written — `..`, absolute paths, drive letters, NUL bytes, names reserved on
 * Windows, a `.handoff` (or a folder under it) that is a symbolic link out of the
 * workspace or into `.git`. Every file name written is safe on Windows, macOS and Linux.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover';
import { repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== '.git') out.push(...allFiles(p));
    else if (!e.isDirectory()) out.push(p);
  }
  return out;
}

describe('reliability: paths', function () {
  this.timeout(60_000);
  let refused = 0;
  after(() => {
    cleanupTempDirs();
    console.log(`    figures: hostile handoff folders and links refused through the engine: ${refused}, files written outside: 0`);
  });

  it('refuses every hostile handoff folder setting, writing nothing', async () => {
    const dir = repoWithWork();
    const before = allFiles(dir).length;
    const outside = tempDir();
    for (const directory of ['..', '../x', '/tmp/handoff', 'C:\\handoff', 'c:handoff', 'a\u0000b', 'CON', 'nul.d/x', '.git', '.git/handoff', 'x/../..', '~/handoff', outside]) {
      const r = await handover({ specialist: 'hacker', topic: 'x' }, { workspaceRoot: dir, handoffDirectory: directory, sessionLog: { mode: 'none' } });
      assert.equal(r.status, 'error', JSON.stringify(directory));
      assert.ok(r.status === 'error' && /^ERROR: /.test(r.message) && r.field === 'handoff.directory', r.status === 'error' ? r.message : '');
      refused += 1;
    }
    assert.equal(allFiles(dir).length, before);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('refuses a .handoff, or a folder under it, that is a link out of the workspace or into .git', async () => {
    const cases: Array<(dir: string, outside: string) => void> = [
      (dir, outside) => symlinkSync(outside, path.join(dir, '.handoff')),
      (dir, outside) => {
        mkdirSync(path.join(dir, '.handoff'));
        symlinkSync(outside, path.join(dir, '.handoff', 'handoffs'));
      },
      (dir, outside) => {
        mkdirSync(path.join(dir, '.handoff'));
        symlinkSync(outside, path.join(dir, '.handoff', 'briefings'));
      },
      (dir) => symlinkSync(path.join(dir, '.git', 'refs', 'heads'), path.join(dir, '.handoff')),
    ];
    for (const make of cases) {
      const dir = repoWithWork();
      const outside = tempDir();
      make(dir, outside);
      const r = await handover({ specialist: 'hacker', topic: 'x' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } });
      assert.equal(r.status, 'error');
      assert.ok(r.status === 'error');
      assert.match(r.message, /outside the workspace|inside a \.git folder/);
      assert.deepEqual(readdirSync(outside), [], 'nothing written outside');
      refused += 1;
    }
  });

  it('every file name written is portable: no ":" and no reserved names', async () => {
    const dir = repoWithWork();
    const r = HandoverOkSchema.parse(await handover({ specialist: 'hacker', topic: 'CON: aux / nul? <>|*' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }));
    for (const f of allFiles(path.join(dir, '.handoff'))) {
      const name = path.basename(f);
      assert.doesNotMatch(name, /[:<>|*?"\\]/, name);
      assert.doesNotMatch(name.split('.')[0], /^(con|prn|aux|nul|com\d|lpt\d)$/i, name);
    }
    // One file per section in the briefing's folder (issue 20): the folder carries the briefing's name.
    assert.match(path.basename(path.dirname(r.briefing.path)), /^hacker-con-aux-nul-\d{4}-\d{2}-\d{2}$/);
  });
});
