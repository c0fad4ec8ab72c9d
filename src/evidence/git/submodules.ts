// Commits of changed submodules (docs/DESIGN.md §6). The recorded commit comes from `git diff --raw`; the checked-out
// one from `rev-parse HEAD` inside the submodule, since `diff --raw` prints zeros for a gitlink's worktree side.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { TouchedFile } from '../../core/handoff/schema';
import { gitClient, type ClientOptions } from './gitClient';
import type { RawEntry } from './gitParse';
import { mapLimit } from './worktreeHash';

/** The rest keep the recorded side only. */
export const MAX_SUBMODULES_ASKED = 50;

const ZERO = /^0+$/;

/** Null when not checked out: an uninitialised submodule is an empty folder where git answers for the superproject. */
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
 * `from`: the commit the compared tree records (null if added since); `to`: the one checked out now (null if removed
 * or not checked out). Never throws.
 * @param raw the `git diff --raw` entries of the same comparison
 */
export async function fillSubmoduleCommits(
  repoRoot: string,
  files: readonly TouchedFile[],
  raw: readonly RawEntry[],
  opts: ClientOptions,
): Promise<TouchedFile[]> {
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
