import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TouchedFile } from '../../../../src/core/handoff/schema';
import { collectGitEvidence } from '../../../../src/evidence/git/collectGit';
import { decodeField, displayPath, parseNumstatZ, parseStatusV2 } from '../../../../src/evidence/git/gitParse';
import { HASH_CONTENT_MAX_BYTES, hashWorktree } from '../../../../src/evidence/git/worktreeHash';
import { GIT_ENV, cleanupTempDirs, commitAll, git, initRepo, rawGitView, tempDir, write } from '../../../helpers/repo';

function byPath(files: readonly TouchedFile[]): Map<string, TouchedFile> {
  return new Map(files.map((f) => [f.path, f]));
}

/** Asserts our touched files equal git's own view (paths, XY, original paths, +/-). */
function assertMatchesGit(dir: string, files: readonly TouchedFile[]): void {
  const raw = rawGitView(dir);
  assert.deepEqual(
    files.map((f) => ({ path: f.path, xy: f.xy, orig: f.old_path, added: f.added, deleted: f.deleted })),
    raw.map((r) => ({ path: r.path, xy: r.xy, orig: r.orig, added: r.added, deleted: r.deleted })),
  );
}

describe('git evidence (real repositories)', function () {
  this.timeout(20_000);
  after(cleanupTempDirs);

  it('reports renames across folders, deletions, untracked, binary, unicode and space paths as git does', async () => {
    const dir = initRepo();
    write(dir, 'src/util/format.ts', 'export const f = 1;\nexport const g = 2;\nexport const h = 3;\n');
    write(dir, 'old/legacy.js', 'module.exports = 1;\n');
    write(dir, 'gone.txt', 'bye\n');
    write(dir, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0]));
    write(dir, 'docs/über design.md', '# Design\n');
    write(dir, 'with space.txt', 'a\n');
    commitAll(dir, 'initial');
    mkdirSync(path.join(dir, 'lib/text'), { recursive: true });
    git(dir, 'mv', 'src/util/format.ts', 'lib/text/format.ts');
    git(dir, 'rm', '-q', 'old/legacy.js');
    rmSync(path.join(dir, 'gone.txt'));
    write(dir, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9, 0, 0, 7]));
    write(dir, 'docs/über design.md', '# Design\n\nMore.\n');
    write(dir, 'with space.txt', 'a\nb\n');
    write(dir, 'notes/名前 メモ.txt', 'untracked\n');
    write(dir, ' lead and trail .txt', 'spaces at both ends\n');
    write(dir, '--output=x', 'option-like name\n');
    write(dir, '-rf', 'option-like name\n');
    write(dir, 'src/new.ts', 'export {};\n');
    git(dir, 'add', 'src/new.ts');

    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.notes, []);
    assertMatchesGit(dir, ev.touchedFiles);
    const f = byPath(ev.touchedFiles);
    assert.deepEqual(f.get('lib/text/format.ts'), {
      path: 'lib/text/format.ts',
      status: 'R',
      old_path: 'src/util/format.ts',
      added: 0,
      deleted: 0,
      binary: false,
      xy: 'R.',
    });
    assert.equal(f.get('old/legacy.js')?.status, 'D');
    assert.equal(f.get('old/legacy.js')?.deleted, 1);
    assert.equal(f.get('gone.txt')?.status, 'D');
    assert.equal(f.get('assets/logo.png')?.binary, true);
    assert.equal(f.get('assets/logo.png')?.added, null);
    assert.equal(f.get('docs/über design.md')?.added, 2);
    assert.equal(f.get('with space.txt')?.status, 'M');
    assert.equal(f.get('notes/名前 メモ.txt')?.status, '?');
    assert.equal(f.get(' lead and trail .txt')?.status, '?');
    assert.equal(f.get('--output=x')?.status, '?');
    assert.equal(f.get('-rf')?.status, '?');
    assert.equal(f.get('src/new.ts')?.status, 'A');
    assert.equal(ev.branch, 'main');
    assert.equal(ev.detached, false);
    assert.match(ev.headCommit ?? '', /^[0-9a-f]{40}$/);
  });

  it('keeps an excerpt of at most 40,000 characters of the diff, cut at a line end', async () => {
    const dir = initRepo();
    write(dir, 'big.txt', 'start\n');
    commitAll(dir, 'initial');
    write(dir, 'big.txt', Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long change`).join('\n'));
    const ev = await collectGitEvidence({ cwd: dir });
    const full = execFileSync('git', ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', 'HEAD'], {
      cwd: dir,
      env: GIT_ENV,
      maxBuffer: 1e8,
    });
    assert.ok(full.length > 400_000);
    assert.ok(ev.diffExcerpt && ev.diffExcerpt.length <= 40_000);
    assert.ok(ev.diffExcerpt!.length > 30_000);
    assert.equal(ev.diffExcerptTruncated, true);
    assert.ok(full.toString('utf8').startsWith(ev.diffExcerpt!));
    assert.ok(ev.diffExcerpt!.endsWith('\n'), 'cut at a line end');
    const small = await collectGitEvidence({ cwd: dir, diffExcerptChars: 100_000_000 });
    assert.equal(small.diffExcerpt, full.toString('utf8'), 'a diff under the cap is kept whole');
    assert.equal(small.diffExcerptTruncated, false);
  });

  it('the diff hash changes exactly when the changes against HEAD change', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a=1\n');
    write(dir, 'b.txt', 'b\n');
    commitAll(dir, 'c1');
    const hash = async () => (await collectGitEvidence({ cwd: dir })).diffHash;
    const clean = await hash();
    assert.match(clean ?? '', /^[0-9a-f]{64}$/);
    assert.equal(await hash(), clean, 'stable when nothing changed');
    write(dir, 'a.txt', 'a=2\n');
    const two = await hash();
    assert.notEqual(two, clean);
    write(dir, 'a.txt', 'a=3\n');
    const three = await hash();
    assert.notEqual(three, two, 'same +1 −1 counts, different content');
    write(dir, 'a.txt', 'a=3\n');
    assert.equal(await hash(), three, 'rewriting the same bytes is no change');
    git(dir, 'add', 'a.txt');
    assert.equal(await hash(), three, 'staging does not change the diff against HEAD');
    write(dir, 'new.txt', 'x\n');
    const untracked = await hash();
    assert.notEqual(untracked, three, 'a new untracked file counts');
    write(dir, 'new.txt', 'y\n');
    assert.notEqual(await hash(), untracked, 'so do its contents');
    write(dir, 'a.txt', 'a=1\n');
    rmSync(path.join(dir, 'new.txt'));
    git(dir, 'add', 'a.txt');
    assert.equal(await hash(), clean, 'back to HEAD: back to the clean hash');
  });

  it('hashes symbolic links (even dangling ones) and files git cannot open without failing', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c1');
    const { symlinkSync } = await import('node:fs');
    symlinkSync('nowhere', path.join(dir, 'dangling'));
    symlinkSync('a.txt', path.join(dir, 'good link'));
    write(dir, 'a.txt', 'b\n');
    const one = await collectGitEvidence({ cwd: dir });
    assert.match(one.diffHash ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(one.notes, []);
    rmSync(path.join(dir, 'dangling'));
    symlinkSync('elsewhere', path.join(dir, 'dangling'));
    const two = await collectGitEvidence({ cwd: dir });
    assert.notEqual(two.diffHash, one.diffHash, 'a changed link target changes the hash');
  });

  it('a clean repository has no touched files and no diff excerpt', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c1');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(ev.touchedFiles, []);
    assert.equal(ev.diffExcerpt, null);
    assert.match(ev.diffHash ?? '', /^[0-9a-f]{64}$/);
  });

  it('never lists the handoff root as touched', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c1');
    write(dir, '.handoff/handoffs/x.md', 'handoff\n');
    write(dir, '.handoff/briefings/y.md', 'briefing\n');
    write(dir, 'b.txt', 'b\n');
    const ev = await collectGitEvidence({ cwd: dir, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(
      ev.touchedFiles.map((f) => f.path),
      ['b.txt'],
    );
  });

  it('handles a detached HEAD', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    const first = commitAll(dir, 'c1');
    write(dir, 'a.txt', 'b\n');
    commitAll(dir, 'c2');
    git(dir, 'checkout', '-q', '--detach', first);
    write(dir, 'a.txt', 'changed\n');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.equal(ev.detached, true);
    assert.equal(ev.branch, null);
    assert.equal(ev.headCommit, first);
    assert.deepEqual(
      ev.touchedFiles.map((f) => [f.path, f.status]),
      [['a.txt', 'M']],
    );
  });

  it('handles a repository with no commits yet', async () => {
    const dir = initRepo();
    write(dir, 'staged.txt', 'one\ntwo\n');
    git(dir, 'add', 'staged.txt');
    write(dir, 'loose.txt', 'untracked\n');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.equal(ev.headCommit, null);
    assert.equal(ev.branch, 'main');
    assert.deepEqual(ev.commits, []);
    assertMatchesGit(dir, ev.touchedFiles);
    assert.deepEqual(byPath(ev.touchedFiles).get('staged.txt'), {
      path: 'staged.txt',
      status: 'A',
      old_path: null,
      added: 2,
      deleted: 0,
      binary: false,
      xy: 'A.',
    });
    assert.match(ev.notes.join(), /no commits yet/);
    assert.match(ev.diffExcerpt ?? '', /\+two/);
  });

  it('reports "not a git repository" as a note, not an error', async () => {
    const dir = tempDir();
    const ev = await collectGitEvidence({ cwd: dir });
    assert.equal(ev.repoRoot, null);
    assert.deepEqual(ev.touchedFiles, []);
    assert.match(ev.notes[0], /^Not a git repository — .* run "git init"/);
    assert.equal(ev.problem, 'not_repository', 'the panel offers "Initialize Repository" for this kind');
    assert.ok(!ev.notes[0].includes(dir), 'no absolute path in a note that goes into a committed file');
  });

  it('reports a missing git binary as a note, not an error', async () => {
    const dir = initRepo();
    const ev = await collectGitEvidence({ cwd: dir, binary: '/nonexistent/bin/git' });
    assert.deepEqual(ev.touchedFiles, []);
    assert.match(ev.notes[0], /^git is not installed or not on PATH/);
    assert.equal(ev.problem, 'git_missing', 'the panel offers the git.path setting for this kind');
  });

  it('collects from a linked worktree', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c1');
    const wt = path.join(tempDir(), 'feature wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'feature', wt);
    write(wt, 'a.txt', 'a\nfeature\n');
    write(wt, 'new.txt', 'n\n');
    write(dir, 'main-only.txt', 'not in the worktree\n');
    const ev = await collectGitEvidence({ cwd: wt });
    assert.equal(ev.branch, 'feature');
    assert.equal(ev.repoRoot, execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: wt }).toString().trim());
    assertMatchesGit(wt, ev.touchedFiles);
    assert.deepEqual(ev.touchedFiles.map((f) => f.path).sort(), ['a.txt', 'new.txt']);
  });

  it('collects from a subfolder of the repository, with paths relative to the repository root', async () => {
    const dir = initRepo();
    write(dir, 'pkg/app/a.txt', 'a\n');
    write(dir, 'other/b.txt', 'b\n');
    commitAll(dir, 'c1');
    write(dir, 'pkg/app/a.txt', 'a2\n');
    write(dir, 'other/b.txt', 'b2\n');
    const ev = await collectGitEvidence({ cwd: path.join(dir, 'pkg') });
    assert.deepEqual(
      ev.touchedFiles.map((f) => f.path),
      ['other/b.txt', 'pkg/app/a.txt'],
    );
  });

  it('lists commits since the base commit, and says when the base is unknown', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', '1\n');
    const base = commitAll(dir, 'first');
    for (let i = 2; i <= 4; i++) {
      write(dir, 'a.txt', `${i}\n`);
      commitAll(dir, `commit ${i}: subject with "quotes" and ünïcode`);
    }
    const ev = await collectGitEvidence({ cwd: dir, baseCommit: base });
    assert.equal(ev.baseCommit, base);
    assert.deepEqual(
      ev.commits.map((c) => c.subject),
      ['commit 4: subject with "quotes" and ünïcode', 'commit 3: subject with "quotes" and ünïcode', 'commit 2: subject with "quotes" and ünïcode'],
    );
    assert.equal(ev.commitsOmitted, 0);
    assert.equal(ev.commits[0].author, 'Test Author');
    const unknown = await collectGitEvidence({ cwd: dir, baseCommit: 'deadbeef'.repeat(5) });
    assert.equal(unknown.baseCommit, null);
    assert.match(unknown.notes.join(), /Base commit deadbeefdead is not in this repository/);
    assert.equal(unknown.commits.length, 4);
    const injected = await collectGitEvidence({ cwd: dir, baseCommit: '--output=/tmp/pwned' });
    assert.equal(injected.baseCommit, null);
  });

  it('caps long commit lists with "… and N more"', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', '0\n');
    const base = commitAll(dir, 'base');
    for (let i = 1; i <= 55; i++) {
      git(dir, 'commit', '-q', '--allow-empty', '-m', `c${i}`);
    }
    const ev = await collectGitEvidence({ cwd: dir, baseCommit: base });
    assert.equal(ev.commits.length, 50);
    assert.equal(ev.commitsOmitted, 5);
  });

  it('reports upstream ahead / behind', async () => {
    const origin = initRepo();
    write(origin, 'a.txt', 'a\n');
    commitAll(origin, 'c1');
    const clone = path.join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', origin, clone], { env: GIT_ENV });
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'local');
    const ev = await collectGitEvidence({ cwd: clone });
    assert.equal(ev.upstream, 'origin/main');
    assert.equal(ev.ahead, 1);
    assert.equal(ev.behind, 0);
  });

  it('reports unmerged files during a merge conflict', async () => {
    const dir = initRepo();
    write(dir, 'c.txt', 'base\n');
    commitAll(dir, 'base');
    git(dir, 'checkout', '-q', '-b', 'other');
    write(dir, 'c.txt', 'other\n');
    commitAll(dir, 'other');
    git(dir, 'checkout', '-q', 'main');
    write(dir, 'c.txt', 'main\n');
    commitAll(dir, 'main');
    try {
      git(dir, 'merge', '-q', 'other');
    } catch {
      // conflict expected
    }
    const ev = await collectGitEvidence({ cwd: dir });
    assert.equal(byPath(ev.touchedFiles).get('c.txt')?.status, 'U');
    assert.match(ev.notes.join(), /unresolved merge conflicts/);
  });

  it('caps the touched-file list and counts the rest', async () => {
    const dir = initRepo();
    write(dir, 'keep.txt', 'k\n');
    commitAll(dir, 'c');
    mkdirSync(path.join(dir, 'many'));
    for (let i = 0; i < 30; i++) writeFileSync(path.join(dir, 'many', `f${i}.txt`), 'x\n');
    const ev = await collectGitEvidence({ cwd: dir, maxFiles: 10 });
    assert.equal(ev.touchedFiles.length, 10);
    assert.equal(ev.touchedFilesOmitted, 20);
  });

  it('parses porcelain v2 and numstat -z records exactly', () => {
    const status = [
      '# branch.oid 1111111111111111111111111111111111111111',
      '# branch.head feature/x',
      '# branch.upstream origin/feature/x',
      '# branch.ab +2 -3',
      '1 .M N... 100644 100644 100644 aaaa bbbb path with  two spaces ',
      '2 R. N... 100644 100644 100644 aaaa bbbb R100 new name.txt',
      'old name.txt',
      'u UU N... 100644 100644 100644 100644 a b c conflict.txt',
      '? untracked file',
      '! ignored',
      '',
    ].join('\0');
    const { branch, entries } = parseStatusV2(status.split('\0'));
    assert.deepEqual(branch, {
      oid: '1111111111111111111111111111111111111111',
      head: 'feature/x',
      detached: false,
      upstream: 'origin/feature/x',
      ahead: 2,
      behind: 3,
    });
    assert.deepEqual(entries, [
      { kind: '1', xy: '.M', path: 'path with  two spaces ', origPath: null, worktreeMode: '100644', sub: 'N...' },
      { kind: '2', xy: 'R.', path: 'new name.txt', origPath: 'old name.txt', worktreeMode: '100644', sub: 'N...' },
      { kind: 'u', xy: 'UU', path: 'conflict.txt', origPath: null, worktreeMode: '100644', sub: 'N...' },
      { kind: '?', xy: '??', path: 'untracked file', origPath: null, worktreeMode: null, sub: null },
    ]);
    const numstat = parseNumstatZ(['3\t1\ta b.txt', '-\t-\tbin.dat', '0\t0\t', 'old.txt', 'new.txt', ''].join('\0'));
    assert.deepEqual(numstat, [
      { path: 'a b.txt', origPath: null, added: 3, deleted: 1, binary: false },
      { path: 'bin.dat', origPath: null, added: null, deleted: null, binary: true },
      { path: 'new.txt', origPath: 'old.txt', added: 0, deleted: 0, binary: false },
    ]);
  });

  it('a rename staged and then deleted in the worktree is the deletion of the original path, with its counts', async () => {
    const dir = initRepo();
    write(dir, 'big.txt', Array.from({ length: 100 }, (_, i) => `l${i}`).join('\n') + '\n');
    commitAll(dir, 'c');
    git(dir, 'mv', 'big.txt', 'moved.txt');
    rmSync(path.join(dir, 'moved.txt'));
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(
      ev.touchedFiles.map((f) => [f.path, f.status, f.old_path, f.added, f.deleted]),
      [['big.txt', 'D', null, 0, 100]],
    );
  });

  it("a staged copy plus an unstaged deletion keeps each path's own counts (no counts borrowed from a rename git pairs differently)", async () => {
    const dir = initRepo();
    write(dir, 'old.txt', Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n');
    commitAll(dir, 'c');
    write(dir, 'new.txt', Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\nextra\n');
    git(dir, 'add', 'new.txt');
    rmSync(path.join(dir, 'old.txt'));
    const ev = await collectGitEvidence({ cwd: dir });
    const byName = new Map(ev.touchedFiles.map((f) => [f.path, f]));
    assert.deepEqual([byName.get('new.txt')?.status, byName.get('new.txt')?.added, byName.get('new.txt')?.deleted], ['A', 21, 0]);
    assert.deepEqual([byName.get('old.txt')?.status, byName.get('old.txt')?.added, byName.get('old.txt')?.deleted], ['D', 0, 20]);
  });

  it('a tracked file replaced by a FIFO neither hangs nor loses the other files', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    write(dir, 'b.txt', 'b\n');
    commitAll(dir, 'c');
    rmSync(path.join(dir, 'a.txt'));
    execFileSync('mkfifo', [path.join(dir, 'a.txt')]);
    write(dir, 'b.txt', 'b2\n');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.ok(
      ev.touchedFiles.some((f) => f.path === 'b.txt'),
      'b.txt is still listed',
    );
    assert.ok(
      ev.touchedFiles.some((f) => f.path === 'a.txt'),
      'a.txt is listed',
    );
  });

  it('a file name that is not valid UTF-8 is shown quoted, as git shows it', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c');
    const { writeFileSync: wf } = await import('node:fs');
    wf(Buffer.concat([Buffer.from(path.join(dir, 'bad')), Buffer.from([0xe9]), Buffer.from('name.txt')]), 'x\n');
    const ev = await collectGitEvidence({ cwd: dir });
    assert.deepEqual(
      ev.touchedFiles.map((f) => f.path),
      ['"bad\\351name.txt"'],
    );
    assert.match(ev.notes.join(), /not valid UTF-8/);
    assert.equal(decodeField(Buffer.from('ok ü')), 'ok ü');
    assert.equal(displayPath(decodeField(Buffer.from([0x61, 0xff, 0x22, 0x5c]))), '"a\\377\\"\\\\"');
  });

  it('excludes a .handoff that is a symbolic link to another folder of the repository, and a workspace opened through a link', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c');
    write(dir, 'docs/notes/handoffs/h.md', 'handoff\n');
    const { symlinkSync } = await import('node:fs');
    symlinkSync('docs/notes', path.join(dir, '.handoff'));
    write(dir, 'b.txt', 'b\n');
    const ev = await collectGitEvidence({ cwd: dir, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(
      ev.touchedFiles.map((f) => f.path),
      ['b.txt'],
    );
    const linkedWorkspace = path.join(tempDir(), 'ws-link');
    symlinkSync(dir, linkedWorkspace);
    const viaLink = await collectGitEvidence({ cwd: linkedWorkspace, handoffRoot: path.join(linkedWorkspace, '.handoff') });
    assert.deepEqual(
      viaLink.touchedFiles.map((f) => f.path),
      ['b.txt'],
    );
  });

  it('fingerprints very large files by size and time, and special files by kind, without reading them', async () => {
    const dir = tempDir();
    const { openSync, closeSync, ftruncateSync, writeFileSync: wf } = await import('node:fs');
    const fd = openSync(path.join(dir, 'disk.img'), 'w');
    ftruncateSync(fd, HASH_CONTENT_MAX_BYTES + 1);
    closeSync(fd);
    wf(path.join(dir, 'small.txt'), 'x');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    let asked: string[] = [];
    const result = new Map(await hashWorktree(['disk.img', 'small.txt', 'pipe', 'gone.txt'], dir, async (paths) => ((asked = paths), paths.map(() => 'oid'))));
    assert.deepEqual(asked, ['small.txt']);
    assert.match(result.get('disk.img') ?? '', /^large:67108865:/);
    assert.equal(result.get('pipe'), 'special:fifo');
    assert.equal(result.get('gone.txt'), 'missing:ENOENT');
    assert.equal(result.get('small.txt'), 'oid');
  });

  it('a file renamed in the worktree only shows as a deletion plus an untracked file, as git does', async () => {
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c');
    renameSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    const ev = await collectGitEvidence({ cwd: dir });
    assertMatchesGit(dir, ev.touchedFiles);
    assert.deepEqual(
      ev.touchedFiles.map((f) => [f.path, f.status]),
      [
        ['a.txt', 'D'],
        ['b.txt', '?'],
      ],
    );
  });
});
