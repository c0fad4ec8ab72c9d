/**
 * Which git operation is left in progress in a worktree — a merge, rebase, am, cherry-pick,
 * revert or bisect — and what it works with (docs/DESIGN.md §6). `git status --porcelain`
 * lists the conflicts but not the operation; git's own long `git status` reads the same
 * state files read here (wt-status.c: `MERGE_HEAD`, `rebase-merge/`, `rebase-apply/`,
 * `CHERRY_PICK_HEAD`, `REVERT_HEAD`, `BISECT_START`). Their folder comes from git itself
 * (`rev-parse --absolute-git-dir`, the worktree's own git dir in a linked worktree), and
 * every commit id is resolved through simple-git; the files are only read, never written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitOperation } from '../../core/handoff/schema';
import { gitClient, type ClientOptions } from './gitClient';

/** Most bytes read of one state file: 4 KiB (they hold a ref, a number or a message's first lines). */
const STATE_READ_BYTES = 4096;

/** The text of a state file in the git dir, trimmed; undefined when it is missing or unreadable. */
async function state(gitDir: string, name: string): Promise<string | undefined> {
  try {
    const text = await readFile(path.join(gitDir, name), { encoding: 'utf8', flag: 'r' });
    return text.slice(0, STATE_READ_BYTES).trim();
  } catch {
    return undefined;
  }
}

function count(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return null;
  return Number(text);
}

function branchName(ref: string | undefined): string | null {
  if (!ref || ref === 'detached HEAD') return null;
  return ref.replace(/^refs\/heads\//, '').slice(0, 300) || null;
}

/**
 * The operation in progress in the worktree of `repoRoot`, or null when there is none.
 * `knownGitDir` (absolute, from an earlier `rev-parse --absolute-git-dir`) saves asking git again.
 * Never throws: a state git cannot describe (a missing commit, an unreadable file) leaves
 * the field it would fill null.
 */
export async function readGitOperation(repoRoot: string, opts: ClientOptions, knownGitDir?: string): Promise<GitOperation | null> {
  const git = gitClient(repoRoot, opts);
  let gitDir: string;
  try {
    gitDir = knownGitDir ?? (await git.raw(['rev-parse', '--absolute-git-dir'])).trim();
  } catch {
    return null;
  }
  if (!gitDir) return null;
  const resolve = async (rev: string | undefined): Promise<string | null> => {
    if (!rev || !/^[0-9a-fA-F]{4,64}$|^refs\/[^\s]+$/.test(rev)) return null;
    return (await git.raw(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`]).catch(() => '')).trim() || null;
  };
  const refAt = async (sha: string | null): Promise<string | null> => {
    if (!sha) return null;
    const out = await git.raw(['for-each-ref', '--points-at', sha, '--format=%(refname:short)', 'refs/heads', 'refs/remotes', 'refs/tags']).catch(() => '');
    return out.split('\n').map((l) => l.trim()).find((l) => l && !l.endsWith('/HEAD'))?.slice(0, 300) ?? null;
  };
  const subjectOf = async (sha: string | null): Promise<string | null> => {
    if (!sha) return null;
    const out = await git.raw(['log', '-1', '--format=%s', sha, '--']).catch(() => '');
    return out.trim().slice(0, 500) || null;
  };
  const base = { commit: null, ref: null, branch: null, step: null, total: null, subject: null };

  // A rebase or am first: the picks of a rebase stopped on a conflict are part of it, not a cherry-pick of their own.
  const merge = await state(gitDir, 'rebase-merge/onto');
  if (merge !== undefined) {
    const commit = await resolve(merge);
    return {
      ...base,
      kind: 'rebase',
      commit,
      ref: await refAt(commit),
      branch: branchName(await state(gitDir, 'rebase-merge/head-name')),
      step: count(await state(gitDir, 'rebase-merge/msgnum')),
      total: count(await state(gitDir, 'rebase-merge/end')),
    };
  }
  const applyNext = await state(gitDir, 'rebase-apply/next');
  if (applyNext !== undefined) {
    const isAm = (await state(gitDir, 'rebase-apply/applying')) !== undefined;
    const commit = isAm ? null : await resolve(await state(gitDir, 'rebase-apply/onto'));
    return {
      ...base,
      kind: isAm ? 'am' : 'rebase',
      commit,
      ref: await refAt(commit),
      branch: isAm ? null : branchName(await state(gitDir, 'rebase-apply/head-name')),
      step: count(applyNext),
      total: count(await state(gitDir, 'rebase-apply/last')),
    };
  }
  const mergeHead = await state(gitDir, 'MERGE_HEAD');
  if (mergeHead !== undefined) {
    const commit = await resolve(mergeHead.split('\n')[0]?.trim());
    const msg = (await state(gitDir, 'MERGE_MSG'))?.split('\n')[0] ?? '';
    const named = /^Merge (?:remote-tracking )?(?:branch|tag|branches) '([^']{1,300})'/.exec(msg)?.[1] ?? null;
    return { ...base, kind: 'merge', commit, ref: named ?? (await refAt(commit)) };
  }
  for (const [file, kind] of [
    ['CHERRY_PICK_HEAD', 'cherry-pick'],
    ['REVERT_HEAD', 'revert'],
  ] as const) {
    const head = await state(gitDir, file);
    if (head !== undefined) {
      const commit = await resolve(head);
      return { ...base, kind, commit, ref: await refAt(commit), subject: await subjectOf(commit) };
    }
  }
  const bisectStart = await state(gitDir, 'BISECT_START');
  if (bisectStart !== undefined) {
    const bad = await resolve('refs/bisect/bad');
    return { ...base, kind: 'bisect', commit: bad, branch: branchName(bisectStart.split('\n')[0]) };
  }
  return null;
}
