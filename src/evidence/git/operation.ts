// The git operation left in progress (merge, rebase, am, cherry-pick, revert, bisect; docs/DESIGN.md §6), read from
// the state files git's long `git status` reads (wt-status.c), which porcelain status does not report. Read only.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitOperation } from '../../core/handoff/schema';
import { gitClient, type ClientOptions } from './gitClient';

/** They hold a ref, a number or a message's first lines. */
const STATE_READ_BYTES = 4096;

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
 * Null when there is none. `knownGitDir` (from `rev-parse --absolute-git-dir`) saves asking git again.
 * Never throws: what git cannot describe leaves its field null.
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
    return (
      out
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l && !l.endsWith('/HEAD'))
        ?.slice(0, 300) ?? null
    );
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
