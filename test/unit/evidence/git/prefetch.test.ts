/**
 * Issue 19: the git work the CLI starts before it needs it, checked against git itself.
 * - `prefetchRepository` starts findRepository's `git rev-parse` early (the CLI's entry starts
 *   it while its modules load): the next findRepository of that folder takes its answer, once,
 *   with no process of its own, and answers what it answers without it (a repository, a
 *   subfolder, a folder outside git); another folder is probed as before; a folder named through
 *   a symbolic link is the same folder; a missing folder starts nothing and throws nothing.
 * - `GitEvidenceOptions.onGitStarted` is called once per collection, before the evidence is
 *   there, in a repository and where no git process runs (outside git, the .git folder, a git
 *   executable that is missing).
 * The git processes are counted by a `git` on PATH that logs each call and runs the real one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectGitEvidence } from '../../../../src/evidence/git/collectGit';
import { findRepository, prefetchRepository } from '../../../../src/evidence/git/repository';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../../helpers/repo';

describe('git evidence: the probe started early, and the signal that git has started (issue 19)', function () {
  this.timeout(60_000);
  let log = '';
  let savedPath: string | undefined;
  before(() => {
    // A git that logs its arguments, then runs the real one (found on the PATH as it is now).
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = tempDir('handoff-git-log-');
    log = path.join(bin, 'calls.log');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
  });
  after(() => {
    process.env.PATH = savedPath;
    cleanupTempDirs();
  });
  const calls = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  const reset = () => writeFileSync(log, '');

  it('answers the next findRepository of its folder once, as git answers it, with no process of its own', async () => {
    const dir = initRepo();
    write(dir, 'src/a.ts', 'a\n');
    commitAll(dir, 'one');
    const sub = path.join(dir, 'src');
    const outside = tempDir();
    for (const folder of [dir, sub, outside]) {
      const expected = await findRepository(realpathSync(folder));
      reset();
      prefetchRepository(folder);
      const found = await findRepository(realpathSync(folder));
      assert.deepEqual(found, expected, folder);
      // Outside git the one-process probe answers nothing and a second rev-parse is asked, as without it.
      assert.equal(calls().length, folder === outside ? 2 : 1, `${folder}: ${calls().join(' | ')}`);
      reset();
      assert.deepEqual(await findRepository(realpathSync(folder)), expected, `${folder}, asked again`);
      assert.equal(calls().length, folder === outside ? 2 : 1, 'used once: the next one asks git');
    }
  });

  it('leaves another folder to its own probe, takes a folder named through a link, and starts nothing for a missing folder', async () => {
    const a = initRepo();
    write(a, 'a.txt', 'a\n');
    commitAll(a, 'a');
    const b = initRepo();
    write(b, 'b.txt', 'b\n');
    commitAll(b, 'b');
    reset();
    prefetchRepository(a);
    const foundB = await findRepository(realpathSync(b));
    assert.equal(foundB?.top, realpathSync(b));
    const foundA = await findRepository(realpathSync(a));
    assert.equal(foundA?.top, realpathSync(a));
    assert.equal(calls().length, 2, 'one probe each: B asked its own, A took the early one');

    const links = tempDir();
    symlinkSync(a, path.join(links, 'link-to-a'));
    reset();
    prefetchRepository(path.join(links, 'link-to-a'));
    assert.equal((await findRepository(realpathSync(a)))?.top, realpathSync(a));
    assert.equal(calls().length, 1, 'the link names the same folder');

    reset();
    assert.doesNotThrow(() => prefetchRepository(path.join(links, 'no-such-folder')));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(calls(), [], 'nothing started');
  });

  it('calls onGitStarted once, before the evidence is there, with git running and without it', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'one');
    write(dir, 'a.txt', 'a changed\n');
    const plain = tempDir();
    mkdirSync(path.join(plain, 'folder'));
    const cases: Array<[string, Parameters<typeof collectGitEvidence>[0]]> = [
      ['a repository', { cwd: dir }],
      ['a folder outside git', { cwd: path.join(plain, 'folder') }],
      ['the .git folder', { cwd: path.join(dir, '.git') }],
      ['a missing git', { cwd: dir, binary: path.join(plain, 'no-such-git') }],
    ];
    for (const [name, opts] of cases) {
      let started = 0;
      let done = false;
      let startedBeforeDone: boolean | undefined;
      const evidence = await collectGitEvidence({
        ...opts,
        onGitStarted: () => {
          started++;
          startedBeforeDone ??= !done;
        },
      }).finally(() => (done = true));
      assert.equal(started, 1, name);
      assert.equal(startedBeforeDone, true, name);
      assert.deepEqual(evidence, await collectGitEvidence(opts), `${name}: the same evidence without the signal`);
      if (name === 'a repository') assert.deepEqual(evidence.touchedFiles.map((f) => f.path), ['a.txt']);
    }
  });
});
