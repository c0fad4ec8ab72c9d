/**
 * The commits of changed submodules (docs/DESIGN.md §6): a submodule is a gitlink (mode
 * 160000) that git's status and numstat show like a file changed by one line. The commit
 * the compared tree records comes from `git diff --raw` (its source object id); the commit
 * the submodule's worktree is at now from `rev-parse HEAD` inside it — `diff --raw`
 * prints zeros for the worktree side of a gitlink. Through simple-git, like all git access.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { TouchedFile } from '../../core/handoff/schema';
import { gitClient, type ClientOptions } from './gitClient';
import type { RawEntry } from './gitParse';
import { mapLimit } from './worktreeHash';

/** Submodules whose worktree commit is asked for; the rest keep the recorded side only: 50. */
export const MAX_SUBMODULES_ASKED = 50;

const ZERO = /^0+$/;

/**
 * The commit the submodule at `dir` has checked out, or null when it is not checked out
 * (an uninitialised submodule is an empty folder: git would answer for the superproject,
 * so the answer counts only when the submodule is its own top level).
 */
async function submoduleHead(dir: string, opts: ClientOptions): Promise<string | null> {
  try {
    const [top, head] = (await gitClient(dir, opts).raw(['rev-parse', '--show-toplevel', '--verify', '-q', 'HEAD^{commit}'])).split('\n').map((l) => l.trim());
    if (!top || !head) return null;
    const [a, b] = await Promise.all([realpath(top).catch(() => top), realpath(dir).catch(() => dir)]);
    return a === b ? head.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * `files` with the commits of each submodule filled in: `from` the commit the compared
 * tree records (`raw` source id, null for a submodule added since), `to` the commit
 * checked out in its worktree now (null when removed or not checked out). Entries are
 * matched by path; files that are not submodules are returned as they are. Never throws.
 *
 * @param raw the `git diff --raw -z --abbrev=40 <against>` entries of the same comparison
 */
export async function fillSubmoduleCommits(repoRoot: string, files: readonly TouchedFile[], raw: readonly RawEntry[], opts: ClientOptions): Promise<TouchedFile[]> {
  const subs = files.filter((f) => f.submodule);
  if (subs.length === 0) return [...files];
  const recorded = new Map(raw.filter((r) => r.srcMode === '160000' || r.dstMode === '160000').map((r) => [r.path, r]));
  const asked = subs.slice(0, MAX_SUBMODULES_ASKED);
  const heads = await mapLimit(asked, 4, (f) => (f.status === 'D' ? Promise.resolve(null) : submoduleHead(path.join(repoRoot, ...f.path.split('/')), opts)));
  const now = new Map(asked.map((f, i) => [f.path, heads[i]]));
  return files.map((f) => {
    if (!f.submodule) return f;
    const r = recorded.get(f.path);
    const from = r && r.srcMode === '160000' && !ZERO.test(r.srcOid) ? r.srcOid.toLowerCase() : null;
    const staged = r && r.dstMode === '160000' && !ZERO.test(r.dstOid) ? r.dstOid.toLowerCase() : null;
    return { ...f, submodule: { ...f.submodule, from, to: now.get(f.path) ?? staged } };
  });
}
