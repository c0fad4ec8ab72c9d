// Finds the git working tree of a folder and the first answers the evidence starts from, from one `git rev-parse`.
import path from 'node:path';
import type { RepositoryProbe } from '../../core/handoff/gitEvidence';
import { gitClient, type ClientOptions } from './gitClient';

/** Undefined outside a working tree or without git; lets the CLI, like git, work from any subfolder. */
export async function findRepositoryRoot(dir: string, binary?: string): Promise<string | undefined> {
  try {
    const top = (await gitClient(dir, { binary }).raw(['rev-parse', '--show-toplevel'])).trim();
    return top ? path.resolve(top) : undefined;
  } catch {
    return undefined;
  }
}

/** `bare`: a bare repository; `git-dir`: inside the `.git` folder of a repository with a working tree. */
export type OutsideWorkTree = 'bare' | 'git-dir';

/**
 * {@link findRepositoryRoot} plus the probe to hand to `collectGitEvidence`, so finding the workspace and collecting its
 * evidence ask git once. Where that process does not answer (unborn HEAD, outside a working tree, no git), a second
 * `rev-parse` says where `dir` is.
 * @param dir a folder's real path
 * @returns `{outside}` in a bare repository or a git folder; undefined outside git or without git
 */
export async function findRepository(
  dir: string,
  binary?: string,
): Promise<{ top: string; probe?: RepositoryProbe; outside?: undefined } | { top?: undefined; probe?: undefined; outside: OutsideWorkTree } | undefined> {
  const probe = await probeInOneProcess(dir, { binary });
  if (probe) return { top: path.resolve(probe[0].split('\n')[0].trim()), probe };
  let answer: string;
  try {
    answer = await gitClient(dir, { binary }).raw(['rev-parse', '--is-bare-repository', '--is-inside-git-dir', '--show-cdup']);
  } catch {
    return undefined; // outside git, or no git
  }
  const [bare, insideGitDir, cdup = ''] = answer.split('\n');
  if (bare.trim() === 'true') return { outside: 'bare' };
  if (insideGitDir.trim() === 'true') return { outside: 'git-dir' };
  return { top: path.resolve(dir, cdup.trim()) };
}

/** Undefined where the one process does not answer everything. */
async function probeInOneProcess(cwd: string, opts: ClientOptions): Promise<[string, string] | undefined> {
  const both = await gitClient(cwd, opts)
    .raw(['rev-parse', '--show-toplevel', '--show-object-format', '--absolute-git-dir', '-q', '--verify', 'HEAD^{commit}'])
    .catch(() => undefined);
  const lines = both?.split('\n');
  return lines && lines.length === 5 && lines[4] === '' && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(lines[3]) && lines[0].trim()
    ? [`${lines.slice(0, 3).join('\n')}\n`, `${lines[3]}\n`]
    : undefined;
}

/**
 * `[toplevel, object format and git dir lines; HEAD's commit or '']`. One process answers both in the common case (each
 * spawn forks this whole process); anything else is asked the two-call way, so every answer and error is the same.
 * @throws what simple-git throws for the first call (no git, not a repository)
 */
export async function probeRepository(cwd: string, opts: ClientOptions): Promise<[string, string]> {
  return (await probeInOneProcess(cwd, opts)) ?? probeRepositorySeparately(cwd, opts);
}

/** The reference form, for every case the one-process form does not answer. */
export async function probeRepositorySeparately(cwd: string, opts: ClientOptions): Promise<[string, string]> {
  const probe = gitClient(cwd, opts);
  return Promise.all([
    probe.raw(['rev-parse', '--show-toplevel', '--show-object-format', '--absolute-git-dir']),
    probe.raw(['rev-parse', '-q', '--verify', 'HEAD^{commit}']).catch(() => ''),
  ]);
}

/** Null without a repository, commits or git. Never throws. */
export async function readHeadCommit(dir: string, binary?: string): Promise<string | null> {
  try {
    const out = await gitClient(dir, { binary }).raw(['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
    return out.trim() || null;
  } catch {
    return null;
  }
}
