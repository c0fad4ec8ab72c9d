/**
 * Issue 19: a handoff with a few changed files gives them git's object ids in Node
 * (gitBlobIds) instead of starting `git hash-object --stdin-paths --no-filters`. The ids must
 * be git's own, byte for byte, or the diff hash of a tree would change with the number of its
 * changed files (and every handoff written before would look stale). Checked against git
 * itself, in a SHA-1 and a SHA-256 repository, on files of every kind of content: empty, text,
 * CRLF line ends (no filters: the bytes as they are, even with core.autocrlf set), binary,
 * NUL bytes, invalid UTF-8, a name with spaces and non-ASCII letters, 300 KB of
 * pseudo-random bytes. Evidence of a small change (ids from Node) carries the diff hash that
 * git's ids give.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { collectGitEvidence } from '../../../../src/evidence/git/collectGit';
import { NODE_BLOB_IDS_MAX_FILES, diffHash, gitBlobIds } from '../../../../src/evidence/git/worktreeHash';
import { parseRawNumstat, splitNulFields } from '../../../../src/evidence/git/gitParse';
import { GIT_ENV, cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../../../helpers/repo';

/** Deterministic bytes (a linear congruential generator). */
function bytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x & 0xff;
  }
  return out;
}

const CONTENTS: Array<[string, string | Buffer]> = [
  ['empty.txt', ''],
  ['src/app.ts', 'export const total = (cents: number) => cents / 100;\n'],
  ['crlf.txt', 'line one\r\nline two\r\n'],
  ['no-newline.md', '# title'],
  ['bin/image.bin', Buffer.from([0, 1, 2, 255, 0, 0, 10, 13])],
  ['bad-utf8.txt', Buffer.from([0x66, 0x6f, 0x6f, 0xc3, 0x28, 0xa0, 0xa1, 0x0a])],
  ['Größe und Maß/naïve file.txt', 'ünïcödé 💥\n'],
  ['big/random.dat', bytes(300 * 1024, 7)],
];

/** git's own ids of the files, in order. */
function gitIds(dir: string, files: readonly string[]): string[] {
  return execFileSync('git', ['hash-object', '--no-filters', '--stdin-paths'], { cwd: dir, env: GIT_ENV, input: `${files.join('\n')}\n`, encoding: 'utf8' })
    .trim()
    .split('\n');
}

describe("git object ids in Node (gitBlobIds) are git hash-object's", function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  for (const format of ['sha1', 'sha256'] as const) {
    it(`${format}: every kind of content, with core.autocrlf set`, async () => {
      const dir = tempDir();
      git(dir, 'init', '-q', `--object-format=${format}`, '-b', 'main');
      git(dir, 'config', 'core.autocrlf', 'true');
      for (const [file, content] of CONTENTS) write(dir, file, content);
      const files = CONTENTS.map(([f]) => f);
      const ours = await gitBlobIds(
        files.map((f) => path.join(dir, f)),
        format,
      );
      assert.deepEqual(ours, gitIds(dir, files));
      assert.equal(ours[0].length, format === 'sha256' ? 64 : 40);
    });
  }

  it('throws for a file it cannot read as a regular file (as git hash-object fails), never blocking on a FIFO', async () => {
    const dir = tempDir();
    write(dir, 'a.txt', 'a\n');
    await assert.rejects(gitBlobIds([path.join(dir, 'missing.txt')], 'sha1'));
    await assert.rejects(gitBlobIds([dir], 'sha1'), /not a regular file|EISDIR/);
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(gitBlobIds([path.join(dir, 'a.txt'), fifo], 'sha1'), /not a regular file/);
  });

  it(`a change of at most ${NODE_BLOB_IDS_MAX_FILES} files: the evidence's diff hash is the one git's own ids give`, async () => {
    const dir = initRepo();
    write(dir, 'src/app.ts', 'old\n');
    write(dir, 'crlf.txt', 'a\r\n');
    commitAll(dir, 'base');
    for (const [file, content] of CONTENTS) write(dir, file, content);
    const ev = await collectGitEvidence({ cwd: dir });
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const raw = parseRawNumstat(
      splitNulFields(
        execFileSync('git', ['diff', '--raw', '--numstat', '-z', '--abbrev=40', '--no-ext-diff', '--no-textconv', head], { cwd: dir, env: GIT_ENV }),
      ),
    );
    const files = CONTENTS.map(([f]) => f).sort();
    const ids = gitIds(dir, files);
    const expected = diffHash(
      head,
      raw.raw,
      files.map((f, i) => [f, ids[i]] as [string, string]),
    );
    assert.equal(ev.diffHash, expected);
  });
});
