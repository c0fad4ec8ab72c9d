/**
 * Issue 19: git processes the evidence no longer starts, checked against git's own answers.
 * - The evidence starts from one `git rev-parse` process (probeRepository) where it used two
 *   (probeRepositorySeparately, kept as the reference). Differential: in every repository state
 *   made here with git's own commands — a commit, a subfolder, a detached HEAD, an unborn HEAD,
 *   a worktree, a SHA-256 repository, the .git folder itself, a folder outside git, a missing
 *   git — both give the same answers, or fail with the same error.
 * - Finding the workspace (findRepository) asks the same process, and the evidence started from
 *   its answers (GitEvidenceOptions.probe) is the evidence that asks git itself, from the top
 *   level and from a subfolder, with staged, unstaged and untracked changes, a rename and an
 *   unborn HEAD (found without a probe: the evidence probes itself); outside a working tree it
 *   finds nothing, as `rev-parse --show-toplevel` does.
 * - `rev-list --count` runs only when the commit log fills its cap: the commits listed plus
 *   those omitted equal `git rev-list --count` of the range on both sides of each cap (10
 *   without a base commit, 50 with one).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MAX_COMMITS, MAX_COMMITS_WITHOUT_BASE, collectGitEvidence } from '../../../../src/evidence/git/collectGit';
import { findRepository, findRepositoryRoot, probeRepository, probeRepositorySeparately } from '../../../../src/evidence/git/repository';
import type { ClientOptions } from '../../../../src/evidence/git/gitClient';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../../../helpers/repo';

/** The answers of a probe, or its error's message. */
async function outcome(
  probe: (cwd: string, opts: ClientOptions) => Promise<[string, string]>,
  cwd: string,
  opts: ClientOptions = {},
): Promise<{ ok: [string, string] } | { error: string }> {
  try {
    return { ok: await probe(cwd, opts) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

async function same(cwd: string, opts: ClientOptions = {}): Promise<{ ok: [string, string] } | { error: string }> {
  const one = await outcome(probeRepository, cwd, opts);
  const two = await outcome(probeRepositorySeparately, cwd, opts);
  assert.deepEqual(one, two, cwd);
  return one;
}

describe('git evidence: one rev-parse process answers as two (differential)', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('a repository with commits, from its top level and from a subfolder, and on a detached HEAD', async () => {
    const dir = initRepo();
    write(dir, 'src/a.ts', 'a\n');
    commitAll(dir, 'one');
    write(dir, 'src/b.ts', 'b\n');
    const second = commitAll(dir, 'two');
    const top = await same(dir);
    assert.ok('ok' in top && top.ok[1].trim() === git(dir, 'rev-parse', 'HEAD').trim());
    await same(path.join(dir, 'src'));
    git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
    await same(dir);
    assert.ok(second);
  });

  it('an unborn HEAD (no commit yet), a linked worktree and a SHA-256 repository', async () => {
    const unborn = initRepo();
    const answer = await same(unborn);
    assert.ok('ok' in answer && answer.ok[1] === '');
    const main = initRepo();
    write(main, 'a.txt', 'a\n');
    commitAll(main, 'one');
    const linked = path.join(tempDir(), 'linked');
    git(main, 'worktree', 'add', '-q', linked);
    await same(linked);
    const sha256 = tempDir();
    git(sha256, 'init', '-q', '--object-format=sha256', '-b', 'main');
    write(sha256, 'a.txt', 'a\n');
    commitAll(sha256, 'one');
    const ids = await same(sha256);
    assert.ok('ok' in ids && ids.ok[1].trim().length === 64);
  });

  it('the .git folder itself, a folder outside git, and a git executable that is not there', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'one');
    await same(path.join(dir, '.git'));
    const outside = tempDir();
    mkdirSync(path.join(outside, 'plain'));
    const none = await same(path.join(outside, 'plain'));
    assert.ok('error' in none);
    const missing = await same(dir, { binary: path.join(outside, 'no-such-git') });
    assert.ok('error' in missing);
  });

  it('the workspace found by findRepository carries the probe of its top level, and evidence started from it equals evidence that probes', async () => {
    const dir = initRepo();
    write(dir, 'src/a.ts', 'a\n');
    write(dir, 'src/old name.ts', 'old\n');
    commitAll(dir, 'one');
    write(dir, 'src/a.ts', 'a changed\n');
    git(dir, 'mv', 'src/old name.ts', 'src/new name.ts');
    write(dir, 'src/new.ts', 'untracked\n');
    write(dir, 'docs/readme.md', 'staged\n');
    git(dir, 'add', 'docs/readme.md');
    const unborn = initRepo();
    write(unborn, 'first.txt', 'not committed yet\n');
    for (const [repo, from] of [
      [dir, dir],
      [dir, path.join(dir, 'src')],
      [unborn, unborn],
    ] as const) {
      const found = await findRepository(from);
      assert.ok(found, from);
      assert.equal(found.top, path.resolve(git(repo, 'rev-parse', '--show-toplevel').trim()));
      assert.equal(await findRepositoryRoot(from), found.top);
      // An unborn HEAD is not answered by the one process: no probe, the evidence probes itself.
      assert.deepEqual(found.probe, repo === unborn ? undefined : await probeRepository(found.top, {}), from);
      const given = await collectGitEvidence({ cwd: found.top, probe: found.probe });
      const asked = await collectGitEvidence({ cwd: found.top });
      assert.deepEqual(given, asked, from);
      assert.ok(given.touchedFiles.length >= (repo === dir ? 4 : 1), JSON.stringify(given.touchedFiles));
    }
    // Outside git: nothing found. In a repository without a working tree (its .git folder, a
    // bare repository): where it is, so that nothing is written there.
    const outside = tempDir();
    mkdirSync(path.join(outside, 'plain'));
    assert.equal(await findRepository(path.join(outside, 'plain')), undefined);
    assert.deepEqual(await findRepository(path.join(dir, '.git')), { outside: 'git-dir' });
    assert.deepEqual(await findRepository(path.join(dir, '.git', 'refs')), { outside: 'git-dir' });
    git(outside, 'init', '-q', '--bare', 'bare.git');
    assert.deepEqual(await findRepository(path.join(outside, 'bare.git')), { outside: 'bare' });
    assert.equal(await findRepository(dir, path.join(outside, 'no-such-git')), undefined);
  });

  it('commits listed + omitted = git rev-list --count, below, at and above each cap', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    const root = commitAll(dir, 'root');
    let made = 1;
    const upTo = (n: number) => {
      for (; made < n; made++) git(dir, 'commit', '-q', '--allow-empty', '-m', `c${made}`);
    };
    for (const n of [1, MAX_COMMITS_WITHOUT_BASE - 1, MAX_COMMITS_WITHOUT_BASE, MAX_COMMITS_WITHOUT_BASE + 1]) {
      upTo(n);
      const ev = await collectGitEvidence({ cwd: dir });
      assert.equal(ev.commits.length + ev.commitsOmitted, Number(git(dir, 'rev-list', '--count', 'HEAD')), `${n} commits, no base`);
      assert.equal(ev.commits.length, Math.min(n, MAX_COMMITS_WITHOUT_BASE));
    }
    for (const n of [MAX_COMMITS - 1, MAX_COMMITS, MAX_COMMITS + 1]) {
      upTo(n + 1); // n commits after the root, the base
      const ev = await collectGitEvidence({ cwd: dir, baseCommit: root });
      assert.equal(ev.commits.length + ev.commitsOmitted, Number(git(dir, 'rev-list', '--count', `${root}..HEAD`)), `${n} commits after the base`);
      assert.equal(ev.commits.length, Math.min(n, MAX_COMMITS));
    }
  });
});
