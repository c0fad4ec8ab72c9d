// What changed since a handoff was written (docs/DESIGN.md §5 "Receiving side"): new commits, files whose state differs
// from its touched-file list, named paths now gone, and whether the diff hash still matches. Commit ids from the
// handoff are verified before any other use; paths are only checked on disk inside the repository. Never throws.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { parseTouchedFiles, type ParsedHandoff } from '../../core/handoff/parse';
import type { Commit, FileStatus, TouchedFile } from '../../core/handoff/schema';
import { changesSinceHandoff, emptyStalenessReport, pathsExpectedToExist, type StalenessReport } from '../../core/receive/stalenessReport';
import { collectGitEvidence, evidencePathspec } from './collectGit';
import { classifyGitFailure, describeGitFailure, gitClient, rawBytes, type ClientOptions } from './gitClient';
import { displayPath, parseRawNumstat, splitNulFields } from './gitParse';
import { fillSubmoduleCommits } from './submodules';
import { mapLimit } from './worktreeHash';

export const STALENESS_MAX_ITEMS = 50;

const STAT_CONCURRENCY = 32;

export interface StalenessOptions {
  readonly cwd: string;
  readonly handoff: ParsedHandoff;
  readonly binary?: string;
  /** Kills running git processes; the report says so. */
  readonly signal?: AbortSignal;
  readonly maxItems?: number;
  /**
   * Null = unknown. Absent: computed here the same way the handoff's was, when the handoff records one and its head
   * commit is in this repository (the hash covers the commit it compares against).
   */
  readonly currentDiffHash?: string | null;
  /** Its files are never reported as changed and are left out of the diff hash, as when the handoff was written. */
  readonly handoffRoot: string | undefined;
  /** The other tools' handoff folders, left out the same way. */
  readonly alsoExclude?: readonly string[];
}

const COMMIT_ID = /^[0-9a-fA-F]{4,64}$/;

/**
 * When the head commit is null, malformed or not in this repository (rewritten history, another or a shallow clone),
 * or `cwd` is not in a repository, a note says so and the missing paths are still checked. Never throws.
 */
export async function collectStaleness(opts: StalenessOptions): Promise<StalenessReport> {
  const headCommit = opts.handoff?.frontmatter?.head_commit ?? null;
  try {
    return await collect(opts, headCommit);
  } catch (err) {
    return emptyStalenessReport(headCommit, [cancelled(opts) ?? `Checking what changed since the handoff failed: ${(err as Error)?.message ?? String(err)}`]);
  }
}

function cancelled(opts: StalenessOptions): string | undefined {
  return opts.signal?.aborted ? 'Checking what changed since the handoff was cancelled' : undefined;
}

function gitNote(err: unknown, opts: StalenessOptions): string {
  const stopped = cancelled(opts);
  if (stopped) {
    return stopped;
  }
  const kind = classifyGitFailure(err);
  if (kind === 'not_repository') {
    return 'Not a git repository — new commits and changed files since the handoff cannot be listed; only the paths it names were checked';
  }
  if (kind === 'git_missing') {
    return 'git is not installed or not on PATH — new commits and changed files since the handoff cannot be listed; only the paths it names were checked';
  }
  return describeGitFailure(err, opts.cwd);
}

async function collect(opts: StalenessOptions, headCommit: string | null): Promise<StalenessReport> {
  const notes: string[] = [];
  const max = Math.max(0, Math.floor(opts.maxItems ?? STALENESS_MAX_ITEMS));
  const client: ClientOptions = { binary: opts.binary, signal: opts.signal };
  const expected = pathsExpectedToExist(opts.handoff);

  let repoRoot: string | null = null;
  try {
    const top = (await gitClient(opts.cwd, client).raw(['rev-parse', '--show-toplevel'])).trim();
    if (top) {
      repoRoot = path.resolve(top);
    } else {
      notes.push('Not a git working tree (a bare repository or the .git folder itself) — new commits and changed files since the handoff cannot be listed');
    }
  } catch (err) {
    notes.push(gitNote(err, opts));
  }
  if (!repoRoot) {
    const missing = await missingPaths(path.resolve(opts.cwd), expected);
    return { ...emptyStalenessReport(headCommit, [...notes, ...missing.notes]), missingPaths: missing.missing };
  }

  const git = gitClient(repoRoot, client);
  const verify = async (rev: string) =>
    (await git.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]).catch(() => '')).trim() || null;
  const currentHead = await verify('HEAD');
  let headSha: string | null = null;
  if (headCommit === null) {
    notes.push(
      'The handoff records no head commit (written outside a git repository or before the first commit) — new commits and changed files since cannot be listed',
    );
  } else if (!COMMIT_ID.test(headCommit)) {
    notes.push(
      `The handoff's head commit ${JSON.stringify(headCommit.slice(0, 80))} is not a commit id — new commits and changed files since cannot be listed`,
    );
  } else {
    headSha = await verify(headCommit);
    if (!headSha) {
      const shallow = (await git.raw(['rev-parse', '--is-shallow-repository']).catch(() => '')).trim() === 'true';
      notes.push(
        `The handoff's head commit ${headCommit.slice(0, 10)} is not in this repository (history rewritten, or another clone)` +
          `${shallow ? '; this is a shallow clone, so fetching more history may find it' : ''}${currentHead ? '' : '; this repository has no commits yet'}` +
          ' — new commits and changed files since cannot be listed',
      );
    }
  }
  const stopped = cancelled(opts);
  if (stopped) {
    return { ...emptyStalenessReport(headCommit, [...notes, stopped]), currentHead };
  }

  const handoffRoot = opts.handoffRoot;
  const alsoExclude = opts.alsoExclude ?? [];
  const pathspec = await evidencePathspec(repoRoot, handoffRoot, alsoExclude);
  const recorded = opts.handoff.frontmatter.diff_hash;

  const [missingR, commitsR, filesR, hashR] = await Promise.allSettled([
    missingPaths(repoRoot, expected),
    headSha && currentHead ? commitsSince(git, headSha, currentHead, max) : Promise.resolve({ commits: [] as Commit[], omitted: 0, notes: [] as string[] }),
    headSha ? filesAgainst(repoRoot, client, headSha, pathspec) : Promise.resolve([] as TouchedFile[]),
    // The hash covers the commit compared against: comparable only when that is the handoff's head commit (or none on both sides).
    opts.currentDiffHash !== undefined || !recorded || (headSha === null && (headCommit !== null || currentHead !== null))
      ? Promise.resolve(opts.currentDiffHash ?? null)
      : collectGitEvidence({ cwd: opts.cwd, handoffRoot, alsoExclude, binary: opts.binary, signal: opts.signal, diffExcerptChars: 0, maxFiles: 0 }).then(
          (ev) => ev.diffHash,
        ),
  ]);
  const failed = (what: string, r: PromiseSettledResult<unknown>) => {
    if (r.status === 'rejected' && !cancelled(opts)) {
      notes.push(`${what}: ${gitNote(r.reason, opts)}`);
    }
  };
  failed('New commits are missing', commitsR);
  failed('Changed files are missing', filesR);
  failed('The working tree could not be compared with the handoff', hashR);
  failed('Missing paths were not checked', missingR);
  notes.push(...(commitsR.status === 'fulfilled' ? commitsR.value.notes : []), ...(missingR.status === 'fulfilled' ? missingR.value.notes : []));
  const stoppedLate = cancelled(opts);
  if (stoppedLate) {
    notes.push(stoppedLate);
  }

  const current = hashR.status === 'fulfilled' ? hashR.value : null;
  const diffChanged = recorded && current ? recorded.toLowerCase() !== current.toLowerCase() : null;
  if (recorded && current === null && hashR.status === 'fulfilled' && opts.currentDiffHash === undefined && headSha !== null && !stoppedLate) {
    notes.push('The working tree could not be compared with the handoff (its diff hash could not be computed)');
  }
  let changed: ReturnType<typeof changesSinceHandoff> = [];
  // The same head commit and the same diff hash: the working tree is exactly as the handoff saw it.
  if (headSha !== null && filesR.status === 'fulfilled' && !(headSha === currentHead && diffChanged === false)) {
    changed = changesSinceHandoff(parseTouchedFiles(opts.handoff.sections.get('Touched files') ?? ''), filesR.value);
  }
  const commits = commitsR.status === 'fulfilled' ? commitsR.value : { commits: [], omitted: 0 };
  // A path renamed away since is reported by its rename, not as missing.
  const renamedAway = new Set(filesR.status === 'fulfilled' ? filesR.value.filter((f) => f.status === 'R' && f.old_path).map((f) => f.old_path) : []);
  return {
    headCommit,
    currentHead,
    commitsSince: commits.commits,
    commitsOmitted: commits.omitted,
    changedSince: changed.slice(0, max),
    changedOmitted: Math.max(0, changed.length - max),
    missingPaths: missingR.status === 'fulfilled' ? missingR.value.missing.filter((p) => !renamedAway.has(p)) : [],
    diffChanged,
    notes,
  };
}

/** Newest first, with the count of the rest; a note when HEAD does not contain the base (another branch, a reset). */
async function commitsSince(
  git: ReturnType<typeof gitClient>,
  base: string,
  head: string,
  max: number,
): Promise<{ commits: Commit[]; omitted: number; notes: string[] }> {
  const notes: string[] = [];
  const [log, count, behind] = await Promise.all([
    // base..HEAD; simple-git's default base...HEAD would also list commits only the base has.
    max > 0 ? git.log({ from: base, to: head, symmetric: false, maxCount: max }) : Promise.resolve({ all: [] }),
    git.raw(['rev-list', '--count', `${base}..${head}`, '--']),
    git.raw(['rev-list', '--count', `${head}..${base}`, '--']),
  ]);
  const notInHead = Number.parseInt(behind.trim(), 10);
  if (notInHead > 0) {
    notes.push(
      `HEAD does not contain the handoff's head commit ${base.slice(0, 10)}: ${notInHead === 1 ? '1 commit of the history it was written on is' : `${notInHead} commits of the history it was written on are`} not in HEAD (another branch, a reset, or rewritten history)`,
    );
  }
  const commits: Commit[] = log.all.map((c) => ({ sha: c.hash, subject: c.message, author: c.author_name, date: c.date }));
  const total = Number.parseInt(count.trim(), 10);
  return { commits, omitted: Math.max(0, (Number.isNaN(total) ? commits.length : total) - commits.length), notes };
}

const STATUS_OF: Record<string, FileStatus> = { A: 'A', C: 'C', D: 'D', M: 'M', R: 'R', T: 'M', U: 'U' };

/** Tracked changes and untracked files against `base`; a type change is `M`, a submodule carries its commits instead of counts. */
async function filesAgainst(repoRoot: string, client: ClientOptions, base: string, pathspec: readonly string[]): Promise<TouchedFile[]> {
  const [diff, untracked] = await Promise.all([
    rawBytes(repoRoot, client, [
      '--no-optional-locks',
      'diff',
      '--raw',
      '--numstat',
      '-z',
      '-M',
      '--abbrev=40',
      '--no-ext-diff',
      '--no-textconv',
      base,
      ...pathspec,
    ]),
    rawBytes(repoRoot, client, ['--no-optional-locks', 'ls-files', '--others', '--exclude-standard', '-z', ...pathspec]),
  ]);
  const { raw, numstat } = parseRawNumstat(splitNulFields(diff));
  const counts = new Map(numstat.map((n) => [`${n.origPath ?? ''}\0${n.path}`, n]));
  const files: TouchedFile[] = raw.map((e) => {
    const n = counts.get(`${e.origPath ?? ''}\0${e.path}`);
    if (e.srcMode === '160000' || e.dstMode === '160000') {
      return {
        path: displayPath(e.path),
        status: STATUS_OF[e.status] ?? 'M',
        old_path: null,
        added: null,
        deleted: null,
        binary: false,
        submodule: { from: null, to: null, dirty: false },
      };
    }
    return {
      path: displayPath(e.path),
      status: STATUS_OF[e.status] ?? 'M',
      old_path: e.origPath === null ? null : displayPath(e.origPath),
      added: n ? n.added : null,
      deleted: n ? n.deleted : null,
      binary: n ? n.binary : false,
    };
  });
  for (const p of splitNulFields(untracked)) {
    if (p) {
      files.push({ path: displayPath(p), status: '?', old_path: null, added: null, deleted: null, binary: false });
    }
  }
  return fillSubmoduleCommits(repoRoot, files, raw, client);
}

/**
 * `lstat`, so a dangling link still exists. A path leading outside `root` through a link is not checked, nor one
 * `lstat` cannot answer; notes count both.
 */
async function missingPaths(root: string, rels: readonly string[]): Promise<{ missing: string[]; notes: string[] }> {
  const notes: string[] = [];
  if (rels.length === 0) {
    return { missing: [], notes };
  }
  const realRoot = await realpath(root).catch(() => root);
  const realDirs = new Map<string, Promise<string | null>>();
  const realDir = (dir: string): Promise<string | null> => {
    let p = realDirs.get(dir);
    if (!p) {
      p = realpath(dir).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') {
          return path.join(realRoot, path.relative(root, dir)); // cannot tell (e.g. permission denied): lstat below says so
        }
        const parent = path.dirname(dir);
        return parent === dir ? null : realDir(parent);
      });
      realDirs.set(dir, p);
    }
    return p;
  };
  const inside = (p: string) => {
    const rel = path.relative(realRoot, p);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  let outside = 0;
  let unknown = 0;
  const results = await mapLimit(rels, STAT_CONCURRENCY, async (rel): Promise<boolean> => {
    const abs = path.join(root, ...rel.split('/'));
    const lexical = path.relative(root, abs);
    if (!lexical || lexical.startsWith('..') || path.isAbsolute(lexical)) {
      outside++;
      return false;
    }
    const dir = await realDir(path.dirname(abs));
    if (dir === null || !inside(dir)) {
      outside++;
      return false;
    }
    try {
      await lstat(abs);
      return false;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        return true;
      }
      unknown++;
      return false;
    }
  });
  if (outside) {
    notes.push(
      `${outside === 1 ? '1 path the handoff names leads' : `${outside} paths the handoff names lead`} outside the repository (through a symbolic link) and ${outside === 1 ? 'was' : 'were'} not checked`,
    );
  }
  if (unknown) {
    notes.push(`${unknown === 1 ? '1 path the handoff names' : `${unknown} paths the handoff names`} could not be checked (e.g. permission denied)`);
  }
  return { missing: rels.filter((_, i) => results[i]), notes };
}
