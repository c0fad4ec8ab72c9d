import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff, parseTouchedFiles, type ParsedHandoff } from '../../../../src/core/handoff/parse';
import type { Commit, TouchedFile } from '../../../../src/core/handoff/schema';
import {
  REVERTED_STATUS,
  artifactPath,
  changesSinceHandoff,
  emptyStalenessReport,
  isUpToDate,
  namedPaths,
  pathsExpectedToExist,
  stalenessLines,
  type StalenessReport,
} from '../../../../src/core/receive/stalenessReport';
import { handover } from '../../../../src/engine/handover/handover';
import { collectStaleness } from '../../../../src/evidence/git/stalenessFacts';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../../../helpers/repo';

/** Writes a real handoff with the engine in `dir` and parses the file back. */
async function handoffIn(dir: string, request: Record<string, unknown> = {}): Promise<ParsedHandoff> {
  const r = await handover({ specialist: 'quality_reviewer', topic: 'Staleness', summary: 'Work in progress.', ...request }, { workspaceRoot: dir });
  if (r.status !== 'ok') {
    assert.fail(r.message);
  }
  const parsed = parseHandoff(readFileSync(r.handoff_file, 'utf8'));
  if (!parsed.ok) {
    assert.fail(parsed.message);
  }
  return parsed.handoff;
}

/** A repository with one commit and uncommitted work: a modification, a staged rename, an untracked file. */
function repoWithWork(): { dir: string; head: string } {
  const dir = initRepo();
  write(dir, 'src/a.ts', 'export const a = 1;\n');
  write(dir, 'src/b.ts', 'export const b = 1;\n');
  write(dir, 'docs/plan.md', '# plan\n');
  const head = commitAll(dir, 'initial');
  write(dir, 'src/a.ts', 'export const a = 2;\nexport const c = 3;\n');
  git(dir, 'mv', 'src/b.ts', 'src/renamed b.ts');
  write(dir, 'new file.md', '# new\n');
  return { dir, head };
}

function parseTouchedFilesOf(h: ParsedHandoff): TouchedFile[] {
  return parseTouchedFiles(h.sections.get('Touched files') ?? '');
}

function withHead(h: ParsedHandoff, head: string | null): ParsedHandoff {
  return { ...h, frontmatter: { ...h.frontmatter, head_commit: head } };
}

const sha = (n: number) => `${n.toString(16)}${'f'.repeat(40)}`.slice(0, 40);

describe('staleness of a handoff (real repositories)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('a listed file renamed in a commit since is reported as a rename from its old path, never as reverted or missing', async () => {
    const dir = initRepo();
    const lines10 = Array.from({ length: 10 }, (_, i) => `export const p${i} = ${i};`);
    write(dir, 'src/parser.ts', `${lines10.join('\n')}\n`);
    write(dir, 'src/other.ts', 'export const o = 1;\n');
    commitAll(dir, 'initial');
    write(dir, 'src/parser.ts', `${[...lines10.slice(0, 9), 'export const p9 = 99;'].join('\n')}\n`);
    const h = await handoffIn(dir);
    assert.deepEqual(parseTouchedFilesOf(h), [{ path: 'src/parser.ts', status: 'M', old_path: null, added: 1, deleted: 1, binary: false }]);
    commitAll(dir, 'parser change');
    git(dir, 'mv', 'src/parser.ts', 'src/grammar.ts');
    commitAll(dir, 'rename parser to grammar');
    // git's own view against the handoff's head commit: one rename.
    assert.match(git(dir, 'diff', '--name-status', '-M', h.frontmatter.head_commit ?? '', '--', 'src'), /^R\d+\tsrc\/parser\.ts\tsrc\/grammar\.ts\n$/);
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r.changedSince, [{ path: 'src/grammar.ts', status: 'R', oldPath: 'src/parser.ts' }]);
    assert.deepEqual(r.missingPaths, []);
    const lines = stalenessLines(r);
    assert.ok(lines.includes('1 file changed since: R `src/parser.ts` → `src/grammar.ts`'), lines.join('\n'));
    assert.ok(!lines.join('\n').includes(REVERTED_STATUS));
  });

  it('(a) right after the handoff: nothing changed, exactly one "up to date" line', async () => {
    const { dir, head } = repoWithWork();
    const h = await handoffIn(dir, { artifacts: ['docs/plan.md'] });
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r, {
      headCommit: head,
      currentHead: head,
      commitsSince: [],
      commitsOmitted: 0,
      changedSince: [],
      changedOmitted: 0,
      missingPaths: [],
      diffChanged: false,
      notes: [],
    });
    assert.ok(isUpToDate(r));
    const lines = stalenessLines(r);
    assert.equal(lines.length, 1);
    assert.match(lines[0], new RegExp(`^Up to date: HEAD is still ${head.slice(0, 10)} and the working tree is as the handoff describes$`));
  });

  it('(a) without a diff hash to compare, the same files with the same counts are still "up to date as far as can be told"', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff'), currentDiffHash: null });
    assert.equal(r.diffChanged, null);
    assert.deepEqual(r.changedSince, []);
    const lines = stalenessLines(r);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^Up to date as far as can be told/);
  });

  it('(b) a commit after the handoff is listed, newest first, and its files are changed since', async () => {
    const { dir, head } = repoWithWork();
    const h = await handoffIn(dir);
    write(dir, 'src/c.ts', 'export const c = 1;\n');
    const first = commitAll(dir, 'Add c');
    write(dir, 'docs/plan.md', '# plan\n\nmore\n');
    const second = commitAll(dir, 'Extend the plan');
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.equal(r.headCommit, head);
    assert.equal(r.currentHead, second);
    assert.deepEqual(
      r.commitsSince.map((c) => [c.sha, c.subject, c.author]),
      [
        [second, 'Extend the plan', 'Test Author'],
        [first, 'Add c', 'Test Author'],
      ],
    );
    assert.match(r.commitsSince[0].date, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(r.commitsOmitted, 0);
    // git's own view of what differs from the handoff's head commit, minus what the handoff describes as it is.
    const truth = git(dir, 'diff', '--name-status', '-M', head, '--', ':/', ':(exclude).handoff')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.ok(truth.some(([s, p]) => s === 'A' && p === 'src/c.ts'));
    assert.deepEqual(
      r.changedSince.map((f) => `${f.status} ${f.path}`).sort(),
      // src/a.ts and the rename are as the handoff lists them (now committed); the untracked file is now added (with counts).
      ['A new file.md', 'A src/c.ts', 'M docs/plan.md'],
    );
    assert.equal(r.diffChanged, true);
    assert.deepEqual(r.notes, []);
    const lines = stalenessLines(r);
    assert.equal(lines.length, 2);
    assert.equal(
      lines[0],
      `2 commits since the handoff (HEAD ${head.slice(0, 10)} → ${second.slice(0, 10)}): ${second.slice(0, 10)} Extend the plan; ${first.slice(0, 10)} Add c`,
    );
    assert.match(lines[1], /^3 files changed since: /);
    assert.ok(lines[1].includes('A `src/c.ts`'));
    assert.ok(!isUpToDate(r));
  });

  it('(b) caps commits and files at maxItems and says how many more', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);
    for (let i = 1; i <= 3; i++) {
      write(dir, `more/${i}.txt`, `${i}\n`);
      commitAll(dir, `Commit ${i}`);
    }
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff'), maxItems: 2 });
    assert.deepEqual(
      r.commitsSince.map((c) => c.subject),
      ['Commit 3', 'Commit 2'],
    );
    assert.equal(r.commitsOmitted, 1);
    assert.equal(r.changedSince.length, 2);
    assert.equal(r.changedOmitted, 2); // more/1..3.txt and "new file.md", now committed
    const lines = stalenessLines(r);
    assert.match(lines[0], /^3 commits since the handoff .*; and 1 more$/);
    assert.match(lines[1], /^4 files changed since: .*, and 2 more$/);
  });

  it('uncommitted edits after the handoff: changed counts are listed, an edit that keeps them shows in the diff hash, a discarded change as reverted', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);

    write(dir, 'src/a.ts', 'export const a = 9;\nexport const c = 3;\n'); // same +/- counts, other text
    let r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r.changedSince, []);
    assert.equal(r.diffChanged, true);
    assert.deepEqual(stalenessLines(r), ['The working tree differs from when the handoff was written: files it lists as touched were edited further']);

    write(dir, 'src/a.ts', 'export const a = 9;\nexport const c = 3;\nexport const d = 4;\n');
    r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r.changedSince, [{ path: 'src/a.ts', status: 'M' }]);

    git(dir, 'checkout', '--', 'src/a.ts');
    r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r.changedSince, [{ path: 'src/a.ts', status: REVERTED_STATUS }]);
    const lines = stalenessLines(r);
    assert.deepEqual(lines, ['1 file changed since: reverted `src/a.ts`', 'The working tree differs from when the handoff was written']);
  });

  it('(c) a file the handoff names that was deleted is a missing path, and a line says so', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir, { artifacts: ['docs/plan.md', 'https://example.com/spec.md'] });
    rmSync(path.join(dir, 'src/a.ts'));
    rmSync(path.join(dir, 'docs/plan.md'));
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    // The rename source src/b.ts was already gone when the handoff was written: not news.
    assert.deepEqual(r.missingPaths, ['src/a.ts', 'docs/plan.md']);
    assert.deepEqual(
      r.changedSince.map((f) => `${f.status} ${f.path}`),
      ['D docs/plan.md', 'D src/a.ts'],
    );
    const lines = stalenessLines(r);
    assert.ok(lines.includes('2 paths it names no longer exist: `src/a.ts`, `docs/plan.md`'), lines.join('\n'));
    assert.ok(!isUpToDate(r));
  });

  it('a named path behind a symbolic link that leads out of the repository is not checked, and a note says so', async () => {
    const { dir } = repoWithWork();
    const outside = tempDir();
    symlinkSync(outside, path.join(dir, 'link'));
    git(dir, 'add', 'link');
    const h = await handoffIn(dir, { artifacts: ['link/secret.md', 'docs/gone.md'] });
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r.missingPaths, ['docs/gone.md']);
    assert.ok(r.notes.includes('1 path the handoff names leads outside the repository (through a symbolic link) and was not checked'), r.notes.join('\n'));
  });

  it('a custom handoff.directory is left out of changed files and of the diff hash', async () => {
    const { dir } = repoWithWork();
    const r0 = await handover({ specialist: 'hacker', topic: 'custom dir' }, { workspaceRoot: dir, handoffDirectory: 'docs/handoffs' });
    assert.equal(r0.status, 'ok');
    const parsed = parseHandoff(readFileSync(r0.status === 'ok' ? r0.handoff_file : '', 'utf8'));
    assert.ok(parsed.ok);
    const h = parsed.handoff;
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, 'docs', 'handoffs') });
    assert.deepEqual([r.changedSince, r.diffChanged, r.notes], [[], false, []]);
    // Without the setting, the handoff's own files look like new untracked files.
    const wrong = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.equal(wrong.diffChanged, true);
    assert.ok(wrong.changedSince.every((f) => f.status === '?' && f.path.startsWith('docs/handoffs/')));
  });

  it('(d) a head commit this repository does not have: a note, no crash, missing paths still checked', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);
    // Another repository with other history: the handoff's commit is not in it.
    const other = initRepo();
    write(other, 'src/a.ts', 'export const a = 1;\n');
    write(other, 'new file.md', '# new\n');
    commitAll(other, 'unrelated');
    const r = await collectStaleness({ cwd: other, handoff: h, handoffRoot: path.join(other, '.handoff') });
    assert.equal(r.headCommit, h.frontmatter.head_commit);
    assert.equal(r.currentHead, git(other, 'rev-parse', 'HEAD').trim());
    assert.deepEqual(r.commitsSince, []);
    assert.deepEqual(r.changedSince, []);
    assert.equal(r.notes.length, 1);
    assert.match(r.notes[0], /head commit [0-9a-f]{10} is not in this repository \(history rewritten, or another clone\)/);
    assert.deepEqual(r.missingPaths, ['src/renamed b.ts']);
    const lines = stalenessLines(r);
    assert.equal(lines[0], r.notes[0]);
    assert.ok(lines.some((l) => l.startsWith('1 path it names no longer exists')));
  });

  it('(d) a head commit that is null or not a commit id, or that HEAD no longer contains', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);
    let r = await collectStaleness({ cwd: dir, handoff: withHead(h, null), handoffRoot: path.join(dir, '.handoff') });
    assert.match(r.notes.join('\n'), /records no head commit/);
    assert.deepEqual(stalenessLines(r), [r.notes[0], 'Nothing else found that changed since the handoff']);

    r = await collectStaleness({ cwd: dir, handoff: withHead(h, '--output=x'), handoffRoot: path.join(dir, '.handoff') });
    assert.match(r.notes.join('\n'), /"--output=x" is not a commit id/);
    assert.ok(!existsSync(path.join(dir, 'x')));

    r = await collectStaleness({ cwd: dir, handoff: withHead(h, 'deadbeef'), handoffRoot: path.join(dir, '.handoff') });
    assert.match(r.notes.join('\n'), /deadbeef is not in this repository/);

    // HEAD reset to before the handoff's head commit.
    const before = git(dir, 'rev-parse', 'HEAD').trim();
    write(dir, 'later.txt', 'later\n');
    const later = commitAll(dir, 'later');
    const h2 = await handoffIn(dir);
    assert.equal(h2.frontmatter.head_commit, later);
    git(dir, 'reset', '-q', '--hard', before);
    r = await collectStaleness({ cwd: dir, handoff: h2, handoffRoot: path.join(dir, '.handoff') });
    assert.deepEqual(r.commitsSince, []);
    assert.match(r.notes.join('\n'), /HEAD does not contain the handoff's head commit .*: 1 commit of the history it was written on is not in HEAD/);
    assert.ok(stalenessLines(r).some((l) => l.startsWith(`HEAD is now ${before.slice(0, 10)}, not the handoff's ${later.slice(0, 10)}`)));
  });

  it('(e) not a git repository: a note, and the paths it names are still checked', async () => {
    const dir = tempDir();
    write(dir, 'docs/plan.md', '# plan\n');
    write(dir, 'notes.txt', 'n\n');
    const h = await handoffIn(dir, { artifacts: ['docs/plan.md', 'notes.txt', 'PR #12', '../outside.md'] });
    assert.equal(h.frontmatter.head_commit, null);
    rmSync(path.join(dir, 'notes.txt'));
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.equal(r.currentHead, null);
    assert.deepEqual(r.missingPaths, ['notes.txt']);
    assert.equal(r.notes.length, 1);
    assert.match(r.notes[0], /^Not a git repository/);
    const lines = stalenessLines(r);
    assert.deepEqual(lines, [r.notes[0], '1 path it names no longer exists: `notes.txt`']);
  });

  it('(e) git that cannot be run: a note instead of a crash', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff'), binary: path.join(dir, 'no-such-git') });
    assert.match(r.notes.join('\n'), /git is not installed or not on PATH/);
    assert.deepEqual(r.missingPaths, []);
  });

  it('a cancelled check says so and never throws', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir);
    const controller = new AbortController();
    controller.abort();
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff'), signal: controller.signal });
    assert.ok(
      r.notes.some((n) => /cancelled/.test(n)),
      r.notes.join('\n'),
    );
  });

  it('(f) names with spaces, unicode and leading dashes are paths, never options', async () => {
    const dir = initRepo();
    const names = ['-rf', '--output=x', 'with space.txt', 'ünïcødé ✓.ts', '-n'];
    for (const n of names) write(dir, n, 'one\n');
    const head = commitAll(dir, 'odd names');
    for (const n of names) write(dir, n, 'one\ntwo\n');
    const h = await handoffIn(dir, { artifacts: ['--output=x'] });
    assert.deepEqual([...namedPaths(h)].sort(), [...names].sort());

    rmSync(path.join(dir, '-rf'));
    write(dir, '--output=x', 'one\ntwo\nthree\n');
    renameSync(path.join(dir, 'with space.txt'), path.join(dir, '--help'));
    write(dir, '-- new', 'new\n');
    const r = await collectStaleness({ cwd: dir, handoff: h, handoffRoot: path.join(dir, '.handoff') });
    assert.equal(r.headCommit, head);
    assert.deepEqual([...r.missingPaths].sort(), ['-rf', 'with space.txt']);
    assert.deepEqual(r.changedSince.map((f) => `${f.status} ${f.path}`).sort(), ['? -- new', '? --help', 'D -rf', 'D with space.txt', 'M --output=x'].sort());
    assert.ok(!existsSync(path.join(dir, 'x')), 'no --output option was passed to git');
    const lines = stalenessLines(r);
    assert.ok(
      lines.some((l) => l.includes('M `--output=x`')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^2 paths it names no longer exist: /.test(l) && l.includes('`-rf`') && l.includes('`with space.txt`')),
      lines.join('\n'),
    );
  });
});

describe('staleness: named paths and lines (pure)', function () {
  this.timeout(20_000);
  after(cleanupTempDirs);

  it('namedPaths: touched files with rename sources, and only artifacts that are relative paths', async () => {
    const { dir } = repoWithWork();
    const h = await handoffIn(dir, {
      artifacts: [
        'docs/plan.md',
        './docs/plan.md',
        'https://example.com/a.md',
        'file:///etc/passwd',
        'mailto:someone@example.com',
        '/etc/passwd',
        '../outside.md',
        'src/../../escape.md',
        'C:\\Users\\x\\a.md',
        '\\\\server\\share\\a.md',
        '~/.ssh/id_rsa',
        'see notes.md',
        'PR #12',
        'v2',
        'src/a.ts:42',
        'README.md#L3-L9',
        'build/',
        'docs\\win.md',
        'a/../b.md',
      ],
    });
    assert.deepEqual(namedPaths(h), ['src/a.ts', 'src/renamed b.ts', 'src/b.ts', 'new file.md', 'docs/plan.md', 'README.md', 'build', 'docs/win.md', 'b.md']);
    assert.deepEqual(pathsExpectedToExist(h), ['src/a.ts', 'src/renamed b.ts', 'new file.md', 'docs/plan.md', 'README.md', 'build', 'docs/win.md', 'b.md']);
  });

  it('artifactPath: URLs, absolute paths, escapes and prose are not paths', () => {
    for (const t of [
      '',
      '   ',
      'http://localhost:3000',
      'localhost:3000',
      'javascript:alert(1)',
      '/abs.md',
      '..',
      '../x.md',
      'a\nb.md',
      'two words.md',
      '"bad\\351name"',
    ]) {
      assert.equal(artifactPath(t), null, t);
    }
    assert.equal(artifactPath(' src/x.ts '), 'src/x.ts');
    assert.equal(artifactPath('.env'), '.env');
    assert.equal(artifactPath('a.ts:10:2'), 'a.ts');
  });

  it('changesSinceHandoff: untracked and added are the same, counts and rename sources must match, gone changes are reverted', () => {
    const f = (
      p: string,
      status: TouchedFile['status'],
      old_path: string | null = null,
      added: number | null = 1,
      deleted: number | null = 0,
    ): TouchedFile => ({
      path: p,
      status,
      old_path,
      added,
      deleted,
      binary: false,
    });
    const listed = [f('a', 'M'), f('n', '?', null, null, null), f('r', 'R', 'old'), f('gone', 'M'), f('d', 'D', null, 0, 3)];
    const now = [f('a', 'M'), f('n', '?', null, null, null), f('r', 'R', 'other'), f('d', 'D', null, 0, 3), f('x', 'A'), f('a2', 'M', null, 2, 0)];
    assert.deepEqual(changesSinceHandoff(listed, now), [
      { path: 'r', status: 'R', oldPath: 'other' },
      { path: 'x', status: 'A' },
      { path: 'a2', status: 'M' },
      { path: 'gone', status: REVERTED_STATUS },
    ]);
    assert.deepEqual(changesSinceHandoff([f('n', '?', null, null, null)], [f('n', 'A', null, null, null)]), []);
  });

  it('stalenessLines never throws on an empty report and caps every list', () => {
    assert.deepEqual(stalenessLines(emptyStalenessReport(null)), ['Nothing could be compared with the handoff']);
    assert.deepEqual(stalenessLines({} as StalenessReport), ['Nothing could be compared with the handoff']);
    const commits: Commit[] = Array.from({ length: 15 }, (_, i) => ({ sha: sha(i), subject: `subject ${i}\nbody`, author: 'A', date: '2026-01-01T00:00:00Z' }));
    const r: StalenessReport = {
      ...emptyStalenessReport(sha(100)),
      currentHead: sha(0),
      commitsSince: commits,
      commitsOmitted: 3,
      changedSince: Array.from({ length: 12 }, (_, i) => ({ path: `f${i}.ts`, status: 'M' })),
      changedOmitted: 0,
      missingPaths: ['evil\u202eexe.txt', 'line\nbreak.md'],
      diffChanged: true,
    };
    const lines = stalenessLines(r);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(
      lines[0],
      /^18 commits since the handoff \(HEAD 64ffffffff → 0fffffffff\): 0fffffffff subject 0 body; 1fffffffff subject 1 body; .*; 9fffffffff subject 9 body; and 8 more$/,
    );
    assert.match(lines[1], /^12 files changed since: M `f0\.ts`, .*M `f9\.ts`, and 2 more$/);
    assert.equal(lines[2], '2 paths it names no longer exist: `evil\\u{202e}exe.txt`, `line\\nbreak.md`');
    assert.ok(lines.every((l) => !l.includes('\n') && !l.includes('\u202e')));
    assert.equal(stalenessLines(r, 1)[2], '2 paths it names no longer exist: `evil\\u{202e}exe.txt`, and 1 more');
  });
});
