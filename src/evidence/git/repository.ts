/**
 * Finding the git working tree a folder is in, and the first answers the evidence
 * (./collectGit.ts `collectGitEvidence`) starts from: its top level, object format, git folder
 * and HEAD, asked of one `git rev-parse` process where it answers them all. Through simple-git,
 * as all git access.
 */
import path from 'node:path';
import type { RepositoryProbe } from '../../core/handoff/gitEvidence';
import { gitClient, type ClientOptions } from './gitClient';

/**
 * The top level of the git working tree containing `dir`, or undefined outside one
 * (or when git is missing). Used by the CLI so that, like git, it works from any subfolder.
 */
export async function findRepositoryRoot(dir: string, binary?: string): Promise<string | undefined> {
  try {
    const top = (await gitClient(dir, { binary }).raw(['rev-parse', '--show-toplevel'])).trim();
    return top ? path.resolve(top) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a folder is when it is inside a git repository but in no working tree: `bare` (a bare
 * repository, `git init --bare`: it has no working tree at all) or `git-dir` (inside the git
 * folder of a repository with a working tree, `.git` or one of its folders).
 */
export type OutsideWorkTree = 'bare' | 'git-dir';

/**
 * {@link findRepositoryRoot} with the answers the evidence starts from ({@link probeRepository},
 * one `git rev-parse` process in the common case): the top level of the working tree containing
 * `dir` (resolved) and the probe to hand to ./collectGit.ts `collectGitEvidence` of that
 * working tree (`GitEvidenceOptions.probe`), so finding the workspace and collecting its evidence
 * ask git once. Where the one process does not answer (an unborn HEAD, outside a
 * working tree, no git), a second `git rev-parse --is-bare-repository --is-inside-git-dir
 * --show-cdup` says where `dir` is — in a working tree (its top level, without a probe: the
 * evidence then probes itself), in a bare repository or a git folder, or outside git: two
 * processes there, never the three of {@link probeRepository}'s fallback.
 * @param dir a folder's real path
 * @returns the working tree; `{outside}` in a bare repository or a git folder (no working tree
 *   to hand over from); undefined outside git, or when git is missing
 */
export async function findRepository(dir: string, binary?: string): Promise<{ top: string; probe?: RepositoryProbe; outside?: undefined } | { top?: undefined; probe?: undefined; outside: OutsideWorkTree } | undefined> {
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

/** {@link probeRepository}'s answers from its one process, or undefined where that process does not answer them all. */
async function probeInOneProcess(cwd: string, opts: ClientOptions): Promise<[string, string] | undefined> {
  const both = await gitClient(cwd, opts)
    .raw(['rev-parse', '--show-toplevel', '--show-object-format', '--absolute-git-dir', '-q', '--verify', 'HEAD^{commit}'])
    .catch(() => undefined);
  const lines = both?.split('\n');
  return lines && lines.length === 5 && lines[4] === '' && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(lines[3]) && lines[0].trim() ? [`${lines.slice(0, 3).join('\n')}\n`, `${lines[3]}\n`] : undefined;
}

/**
 * The two answers the evidence starts from, as two `git rev-parse` calls give them
 * ({@link probeRepositorySeparately}): `--show-toplevel --show-object-format
 * --absolute-git-dir` (the git folder for readGitOperation) and `-q --verify HEAD^{commit}`
 * ('' when HEAD has no commit). One process answers both in the common case, a repository
 * with a commit (each spawn forks this whole process): rev-parse prints the three
 * lines, then the commit. Anything else — an unborn HEAD (rev-parse exits 1 after the three
 * lines), not a repository, no git — is asked again the two-call way, so every answer and
 * every error is the one those calls give (test/unit/evidence/git/probe.test.ts compares both).
 * @returns [the three lines as git prints them, HEAD's commit id or '']
 * @throws what simple-git throws for the first call (no git, not a repository)
 */
export async function probeRepository(cwd: string, opts: ClientOptions): Promise<[string, string]> {
  return (await probeInOneProcess(cwd, opts)) ?? probeRepositorySeparately(cwd, opts);
}

/** {@link probeRepository}'s answers from two `git rev-parse` processes run together (the reference; every case the one-process form does not answer). */
export async function probeRepositorySeparately(cwd: string, opts: ClientOptions): Promise<[string, string]> {
  const probe = gitClient(cwd, opts);
  return Promise.all([
    probe.raw(['rev-parse', '--show-toplevel', '--show-object-format', '--absolute-git-dir']),
    probe.raw(['rev-parse', '-q', '--verify', 'HEAD^{commit}']).catch(() => ''),
  ]);
}

/** HEAD of the repository around `dir`, or null (no repository, no commits, no git). Never throws. */
export async function readHeadCommit(dir: string, binary?: string): Promise<string | null> {
  try {
    const out = await gitClient(dir, { binary }).raw(['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
    return out.trim() || null;
  } catch {
    return null;
  }
}
