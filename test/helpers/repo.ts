/**
 * Real temporary folders and git repositories for tests (no mocked git). Git is run
 * directly with execFileSync here so the tests' ground truth does not go through the
 * code under test.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Environment that makes commits reproducible and ignores the user's git config. */
export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

const created: string[] = [];

/** A new empty temporary folder, removed by {@link cleanupTempDirs}. */
export function tempDir(prefix = 'handoff-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every folder made by {@link tempDir}. */
export function cleanupTempDirs(): void {
  for (const d of created.splice(0)) {
    rmSync(d, { recursive: true, force: true });
  }
}

/** Runs git in `cwd` and returns stdout (as a string, untrimmed). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Writes a file (making its folders), relative to `root`. */
export function write(root: string, rel: string, content: string | Buffer): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** A new git repository with `main` as its initial branch and no commits. */
export function initRepo(dir = tempDir()): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'core.autocrlf', 'false');
  return dir;
}

/** Stages everything and commits with `message`; returns the new HEAD. */
export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD').trim();
}

/** git's own view of touched files: `status --porcelain=v2 -z` + `diff --numstat -z HEAD`. */
export interface RawGitView {
  path: string;
  xy: string;
  orig: string | null;
  added: number | null;
  deleted: number | null;
}

/**
 * Reads git's own view of the working tree, independently of the code under test:
 * paths, XY codes and original paths from porcelain v2, +/- counts from numstat.
 * Paths under `exclude` (the handoff root) are left out, as the handoff does.
 */
export function rawGitView(dir: string, exclude = '.handoff/'): RawGitView[] {
  const status = execFileSync('git', ['status', '--porcelain=v2', '-z', '--untracked-files=all'], { cwd: dir, env: GIT_ENV }).toString('utf8').split('\0');
  let head = 'HEAD';
  try {
    execFileSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: dir, env: GIT_ENV, stdio: 'pipe' });
  } catch {
    head = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
  }
  const numstat = execFileSync('git', ['diff', '--numstat', '-z', head], { cwd: dir, env: GIT_ENV }).toString('utf8').split('\0');
  const counts = new Map<string, { added: number | null; deleted: number | null }>();
  for (let i = 0; i < numstat.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(numstat[i]);
    if (!m) continue;
    let p = m[3];
    if (p === '') {
      i++;
      p = numstat[++i];
    }
    counts.set(p, { added: m[1] === '-' ? null : Number(m[1]), deleted: m[2] === '-' ? null : Number(m[2]) });
  }
  const out: RawGitView[] = [];
  for (let i = 0; i < status.length; i++) {
    const rec = status[i];
    if (!rec || rec.startsWith('#')) continue;
    const fields = rec.split(' ');
    let entry: RawGitView;
    if (rec[0] === '1') entry = { path: fields.slice(8).join(' '), xy: fields[1], orig: null, added: null, deleted: null };
    else if (rec[0] === '2') entry = { path: fields.slice(9).join(' '), xy: fields[1], orig: status[++i], added: null, deleted: null };
    else if (rec[0] === 'u') entry = { path: fields.slice(10).join(' '), xy: fields[1], orig: null, added: null, deleted: null };
    else if (rec[0] === '?') entry = { path: rec.slice(2), xy: '??', orig: null, added: null, deleted: null };
    else continue;
    if (entry.path.startsWith(exclude)) continue;
    const c = rec[0] === '?' ? undefined : counts.get(entry.path);
    out.push({ ...entry, added: c?.added ?? null, deleted: c?.deleted ?? null });
  }
  return out;
}

/** Every file under `dir`, recursively, with its text (UTF-8): for checking what a run wrote. */
export function filesUnder(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push({ file: full, text: readFileSync(full, 'utf8') });
  }
  return out;
}
