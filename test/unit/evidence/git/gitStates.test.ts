/**
 * Git states that porcelain status alone describes wrongly or not at all (issue 16): an
 * intent-to-add file, a changed submodule, and an operation left in progress (merge,
 * rebase, am, cherry-pick, revert, bisect). Every state is made by git's own commands in a
 * real repository; the expected values are read from git directly, not from the code under test.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderHandoff, renderTouchedFile } from '../../../../src/core/handoff/render';
import { parseHandoff, parseTouchedFiles } from '../../../../src/core/handoff/parse';
import { describeGitOperation } from '../../../../src/core/handoff/gitOperation';
import { collectGitEvidence } from '../../../../src/evidence/git/collectGit';
import { META, pkgFrom, reviewer } from '../../../helpers/packages';
import { GIT_ENV, cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../../../helpers/repo';

/** Runs git where it is expected to fail (a conflicting merge, pick or rebase) and returns nothing. */
function gitFails(cwd: string, ...args: string[]): void {
  assert.throws(() => execFileSync('git', args, { cwd, env: GIT_ENV, stdio: 'pipe' }));
}

function rev(dir: string, what: string): string {
  return git(dir, 'rev-parse', what).trim();
}

/** A repository whose `main` and `topic` both change line 1 of `a.txt`: any merge of them conflicts. */
function conflictingBranches(): string {
  const dir = initRepo();
  write(dir, 'a.txt', 'base\n');
  commitAll(dir, 'base');
  git(dir, 'switch', '-q', '-c', 'topic');
  write(dir, 'a.txt', 'topic 1\n');
  commitAll(dir, 'topic one');
  write(dir, 't2.txt', 'two\n');
  commitAll(dir, 'topic two');
  write(dir, 't3.txt', 'three\n');
  commitAll(dir, 'topic three');
  git(dir, 'switch', '-q', 'main');
  write(dir, 'a.txt', 'main\n');
  commitAll(dir, 'main change');
  return dir;
}

describe('git states the status letters do not say (real repositories)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('reports a `git add -N` (intent-to-add) file as an addition, with its lines counted', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'initial');
    write(dir, 'planned.ts', 'one\ntwo\nthree\n');
    git(dir, 'add', '-N', 'planned.ts');
    // git's own view: `.A` in porcelain v2, an added file in the diff against HEAD.
    assert.match(git(dir, 'status', '--porcelain=v2'), /^1 \.A .* planned\.ts$/m);
    assert.match(git(dir, 'diff', '--name-status', 'HEAD'), /^A\tplanned\.ts$/m);
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.touchedFiles, [{ path: 'planned.ts', status: 'A', old_path: null, added: 3, deleted: 0, binary: false, xy: '.A' }]);
  });

  it('says a changed submodule is one, with the commit HEAD records and the one checked out', async () => {
    const lib = initRepo();
    write(lib, 'lib.txt', 'v1\n');
    const v1 = commitAll(lib, 'lib v1');
    const dir = initRepo();
    write(dir, 'app.txt', 'app\n');
    commitAll(dir, 'app');
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib');
    git(dir, 'commit', '-q', '-m', 'add lib');
    const sub = path.join(dir, 'vendor/lib');
    write(sub, 'lib.txt', 'v2\n');
    git(sub, 'commit', '-q', '-am', 'lib v2');
    const v2 = rev(sub, 'HEAD');
    write(sub, 'scratch.txt', 'untracked inside the submodule\n');
    assert.equal(git(dir, 'ls-tree', 'HEAD', 'vendor/lib').split(/\s+/)[2], v1);

    const ev = await collectGitEvidence({ cwd: dir });
    const f = ev.touchedFiles.find((t) => t.path === 'vendor/lib');
    assert.deepEqual(f, {
      path: 'vendor/lib',
      status: 'M',
      old_path: null,
      added: null,
      deleted: null,
      binary: false,
      xy: '.M',
      submodule: { from: v1, to: v2, dirty: true },
    });
    const line = renderTouchedFile(f);
    assert.equal(line, `- **M** \`vendor/lib\` (submodule ${v1.slice(0, 10)}..${v2.slice(0, 10)}, with uncommitted changes inside)`);
    // The line reads back as the same submodule change (the receiving side compares it).
    assert.deepEqual(parseTouchedFiles(line), [
      {
        path: 'vendor/lib',
        status: 'M',
        old_path: null,
        added: null,
        deleted: null,
        binary: false,
        submodule: { from: v1.slice(0, 10), to: v2.slice(0, 10), dirty: true },
      },
    ]);
  });

  it('says a merge is in progress, and with which commit and branch', async () => {
    const dir = conflictingBranches();
    gitFails(dir, 'merge', 'topic');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.operation, { kind: 'merge', commit: rev(dir, 'topic'), ref: 'topic', branch: null, step: null, total: null, subject: null });
    assert.ok(ev.touchedFiles.some((f) => f.path === 'a.txt' && f.status === 'U'));
    assert.match(describeGitOperation(ev.operation), new RegExp(`^Merge in progress: merging ${rev(dir, 'topic').slice(0, 10)} \\(\`topic\`\\)`));
  });

  it('says a rebase is in progress: the branch rebased, onto what, and the step', async () => {
    const dir = conflictingBranches();
    git(dir, 'switch', '-q', 'topic');
    gitFails(dir, 'rebase', 'main');
    const onto = rev(dir, 'main');
    // git's own count of the steps, from its state folder.
    const gitDir = git(dir, 'rev-parse', '--absolute-git-dir').trim();
    assert.equal(readFileSync(path.join(gitDir, 'rebase-merge/end'), 'utf8').trim(), '3');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.operation, { kind: 'rebase', commit: onto, ref: 'main', branch: 'topic', step: 1, total: 3, subject: null });
    assert.equal(ev.detached, true);
    assert.match(
      describeGitOperation(ev.operation),
      new RegExp(`^Rebase in progress: rebasing \`topic\` onto ${onto.slice(0, 10)} \\(\`main\`\\), step 1/3 — `),
    );
    // The handoff says it in its git header and keeps it in its frontmatter.
    const text = renderHandoff(pkgFrom({ summary: 's' }, ev), META, reviewer);
    const header = text.split('## Touched files\n\n')[1].split('\n- ')[0];
    assert.match(
      header,
      new RegExp(
        `^Detached HEAD · HEAD \`${rev(dir, 'HEAD').slice(0, 10)}\` · \\d+ files? changed .*\n\n\\*\\*Rebase in progress: rebasing \`topic\` onto ${onto.slice(0, 10)} \\(\`main\`\\), step 1/3 — `,
      ),
    );
    const parsed = parseHandoff(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.handoff.frontmatter.git_operation, ev.operation);
  });

  it('says an apply-backend rebase and a `git am` are in progress, with their steps', async () => {
    const dir = conflictingBranches();
    git(dir, 'switch', '-q', 'topic');
    gitFails(dir, 'rebase', '--apply', 'main');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.operation, { kind: 'rebase', commit: rev(dir, 'main'), ref: 'main', branch: 'topic', step: 1, total: 3, subject: null });

    const other = conflictingBranches();
    const patches = tempDir();
    git(other, 'format-patch', '-q', '-o', patches, 'main..topic');
    gitFails(
      other,
      'am',
      ...execFileSync('ls', [patches], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((n) => path.join(patches, n)),
    );
    const am = await collectGitEvidence({ cwd: other });
    assert.deepEqual(am.operation, { kind: 'am', commit: null, ref: null, branch: null, step: 1, total: 3, subject: null });
    assert.match(describeGitOperation(am.operation), /^git am in progress: applying patches, patch 1\/3 — /);
  });

  it('says a cherry-pick and a revert are in progress, with the commit and its subject', async () => {
    const dir = conflictingBranches();
    const pick = rev(dir, 'topic~2');
    gitFails(dir, 'cherry-pick', pick);
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.operation, { kind: 'cherry-pick', commit: pick, ref: null, branch: null, step: null, total: null, subject: 'topic one' });
    assert.match(describeGitOperation(ev.operation), new RegExp(`^Cherry-pick in progress: picking ${pick.slice(0, 10)} "topic one"`));

    const r = initRepo();
    write(r, 'a.txt', 'one\n');
    commitAll(r, 'first');
    write(r, 'a.txt', 'two\n');
    const second = commitAll(r, 'second');
    write(r, 'a.txt', 'three\n');
    commitAll(r, 'third');
    gitFails(r, 'revert', '--no-edit', second);
    const rv = await collectGitEvidence({ cwd: r });
    assert.deepEqual(rv.operation, { kind: 'revert', commit: second, ref: null, branch: null, step: null, total: null, subject: 'second' });
  });

  it('says a bisect is in progress, where it started and the bad commit it knows', async () => {
    const dir = initRepo();
    const shas: string[] = [];
    for (let i = 0; i < 6; i++) {
      write(dir, 'n.txt', `${i}\n`);
      shas.push(commitAll(dir, `step ${i}`));
    }
    git(dir, 'bisect', 'start');
    git(dir, 'bisect', 'bad', shas[5]);
    git(dir, 'bisect', 'good', shas[0]);
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.operation, { kind: 'bisect', commit: shas[5], ref: null, branch: 'main', step: null, total: null, subject: null });
    assert.match(describeGitOperation(ev.operation), new RegExp(`^Bisect in progress: started from \`main\`; first bad commit so far ${shas[5].slice(0, 10)}`));
  });

  it('reports no operation in a quiet repository', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'initial');
    write(dir, 'a.txt', 'b\n');
    assert.equal((await collectGitEvidence({ cwd: dir })).operation, null);
  });
});
