/**
 * Generates the benchmark repository: `n` files committed across folders, then `n`
 * changed files in the worktree — edits (60 %), staged renames across folders (10 %),
 * deletions (5 %), changed binary files (5 %) and untracked files (20 %).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** git's environment for the bench repositories: a fixed author, no system or global config. */
export const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: ENV, stdio: 'ignore', maxBuffer: 1 << 30 });
}

function source(i: number, version: number): string {
  const lines = [`// module ${i}`, `export const id${i} = ${i};`];
  for (let k = 0; k < 20; k++) lines.push(`export function f${i}_${k}(x: number): number { return x * ${k + version}; }`);
  return `${lines.join('\n')}\n`;
}

/** Creates the repository in `dir` (replacing anything there) with `n` changed files. */
export function createBenchRepository(dir: string, n: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  const tracked = Math.ceil(n * 0.8);
  const file = (i: number) => path.join(dir, `pkg${i % 50}`, `sub${i % 7}`, `module ${i}.ts`);
  const bin = (i: number) => path.join(dir, 'assets', `image${i}.bin`);
  const binaries = Math.ceil(n * 0.05);
  for (let i = 0; i < tracked - binaries; i++) {
    mkdirSync(path.dirname(file(i)), { recursive: true });
    writeFileSync(file(i), source(i, 0));
  }
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  for (let i = 0; i < binaries; i++) writeFileSync(bin(i), Buffer.from([0, 1, 2, i % 256, 0, 3]));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');

  const textFiles = tracked - binaries;
  const renames = Math.ceil(n * 0.1);
  const deletions = Math.ceil(n * 0.05);
  let i = 0;
  mkdirSync(path.join(dir, 'moved'), { recursive: true });
  for (; i < renames; i++) renameSync(file(i), path.join(dir, 'moved', `module ${i}.ts`));
  for (; i < renames + deletions; i++) unlinkSync(file(i));
  git(dir, 'add', '-A'); // renames and deletions staged
  for (; i < textFiles; i++) writeFileSync(file(i), source(i, 1)); // edits unstaged
  for (let b = 0; b < binaries; b++) writeFileSync(bin(b), Buffer.from([0, 9, 9, b % 256, 0, 3, 7]));
  for (let u = 0; u < n - tracked; u++) {
    const f = path.join(dir, 'new', `n${u % 20}`, `untracked ${u}.ts`);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, source(u, 2));
  }
}
