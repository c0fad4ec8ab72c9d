// Git evidence (docs/DESIGN.md §6) through simple-git with argument arrays, its unsafe-option guards on, and
// `--no-optional-locks` so collecting never takes the index lock a user's git command may need. Never throws:
// failures become notes; only a failing `git status` leaves the file list empty.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { SimpleGit } from 'simple-git';
import { emptyGitEvidence, type GitEvidence, type RepositoryProbe } from '../../core/handoff/gitEvidence';
import type { Commit } from '../../core/handoff/schema';
import { applyRecount, displayPath, mergeTouchedFiles, parseNumstatFields, parseRawNumstat, parseStatusV2, splitNulFields } from './gitParse';
import { readGitOperation } from './operation';
import { fillSubmoduleCommits } from './submodules';
import { NODE_BLOB_IDS_MAX_FILES, diffHash, gitBlobIds, hashWorktree } from './worktreeHash';
import { NO_WORK_TREE_NOTE, classifyGitFailure, describeGitFailure, gitClient, rawBytes, type ClientOptions } from './gitClient';
import { probeRepository } from './repository';

/** docs/DESIGN.md §6 "Git". */
export const DIFF_EXCERPT_MAX_CHARS = 40_000;
export const MAX_TOUCHED_FILES = 2_000;
export const MAX_COMMITS = 50;
/** Without a known base commit. */
export const MAX_COMMITS_WITHOUT_BASE = 10;

/** Stands in for HEAD in a repository without commits. */
const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

export interface GitEvidenceOptions {
  /** The workspace folder; git finds the repository above it. */
  readonly cwd: string;
  /** Its files are never reported as touched. */
  readonly handoffRoot?: string;
  /** Other tools' folders our handoffs are copied into, excluded like the handoff root so the copies never count as touched. */
  readonly alsoExclude?: readonly string[];
  /** The previous handoff's HEAD; null or absent when unknown. */
  readonly baseCommit?: string | null;
  /** e.g. VS Code's `git.path`; default `git` on PATH. */
  readonly binary?: string;
  readonly maxFiles?: number;
  readonly diffExcerptChars?: number;
  /** Kills running git processes. */
  readonly signal?: AbortSignal;
  /** `probeRepository`'s answers from a folder of the same working tree; default: asked now. */
  readonly probe?: RepositoryProbe;
  /**
   * Called once, as soon as the git processes are asked for (or when collection ends without them), so a caller's
   * own main-thread work runs while git does instead of delaying git's start.
   */
  readonly onGitStarted?: () => void;
}

export interface DiffExcerpt {
  readonly excerpt: string;
  readonly truncated: boolean;
}

/** Cut at a line end when one is in the second half. */
export function cutExcerpt(text: string, maxChars: number, more: boolean): DiffExcerpt {
  if (text.length <= maxChars && !more) {
    return { excerpt: text, truncated: false };
  }
  let excerpt = text.slice(0, maxChars);
  const lastNewline = excerpt.lastIndexOf('\n');
  if (lastNewline > maxChars / 2) {
    excerpt = excerpt.slice(0, lastNewline + 1);
  }
  return { excerpt, truncated: true };
}

/** The process is killed once the cap is passed, so neither time nor memory depends on the whole diff's size. */
export async function readDiffExcerpt(
  repoRoot: string,
  against: string,
  pathspec: readonly string[],
  opts: ClientOptions,
  maxChars: number,
): Promise<DiffExcerpt> {
  const controller = new AbortController();
  const cancel = () => controller.abort();
  opts.signal?.addEventListener('abort', cancel, { once: true });
  const decoder = new StringDecoder('utf8');
  let text = '';
  let capped = false;
  const git = gitClient(repoRoot, { ...opts, signal: controller.signal }).outputHandler((_cmd, stdout) => {
    stdout.on('data', (chunk: Buffer) => {
      if (capped) {
        return;
      }
      text += decoder.write(chunk);
      if (text.length > maxChars) {
        capped = true;
        controller.abort();
      }
    });
  });
  try {
    await git.raw(['--no-optional-locks', 'diff', '--patch', '--no-color', '--no-ext-diff', '--no-textconv', against, ...pathspec]);
    text += decoder.end();
  } catch (err) {
    if (!capped) {
      throw err;
    }
  } finally {
    opts.signal?.removeEventListener('abort', cancel);
  }
  return cutExcerpt(text, maxChars, capped);
}

/** Resolves symbolic links on the part that exists, the rest appended. */
async function realPathOf(p: string): Promise<string> {
  const rest: string[] = [];
  let probe = path.resolve(p);
  for (;;) {
    try {
      return path.join(await realpath(probe), ...rest.reverse());
    } catch {
      const parent = path.dirname(probe);
      if (parent === probe) {
        return path.resolve(p);
      }
      rest.push(path.basename(probe));
      probe = parent;
    }
  }
}

/**
 * Branch, HEAD, upstream, touched files, commits since the base, a diff excerpt and the diff hash. After one small
 * `rev-parse`, status, `diff --raw --numstat`, the streamed excerpt and the log run in parallel.
 * @returns failures (no git, not a repository, cancelled) as `notes`. Never throws.
 */
export async function collectGitEvidence(opts: GitEvidenceOptions): Promise<GitEvidence> {
  let started = false;
  const gitStarted = () => {
    if (!started) {
      started = true;
      opts.onGitStarted?.();
    }
  };
  try {
    return await collectFromProbe({ ...opts, onGitStarted: gitStarted });
  } finally {
    // No git process was asked for: call it now.
    gitStarted();
  }
}

async function collectFromProbe(opts: GitEvidenceOptions): Promise<GitEvidence> {
  let repoRoot: string;
  let objectFormat: string;
  let head: string | null;
  let gitDir: string | undefined;
  try {
    const [top, verified] = opts.probe ?? (await probeRepository(opts.cwd, opts));
    const [root, format, dir] = top.split('\n');
    if (!root?.trim()) {
      return emptyGitEvidence(NO_WORK_TREE_NOTE, 'no_work_tree');
    }
    repoRoot = path.resolve(root.trim());
    objectFormat = format?.trim() || 'sha1';
    head = verified.trim() || null;
    gitDir = dir?.trim() || undefined;
  } catch (err) {
    return emptyGitEvidence(describeGitFailure(err, opts.cwd), classifyGitFailure(err));
  }
  try {
    return await collectInRepository(repoRoot, head, objectFormat, opts, gitDir);
  } catch (err) {
    const ev = emptyGitEvidence(describeGitFailure(err, opts.cwd), classifyGitFailure(err));
    return { ...ev, repoRoot };
  }
}

/** The whole repository minus the handoff root and `alsoExclude`, compared by real paths; folders outside are ignored. */
export async function evidencePathspec(repoRoot: string, handoffRoot: string | undefined, alsoExclude: readonly string[] = []): Promise<string[]> {
  const pathspec = ['--', ':/'];
  const realRepo = await realPathOf(repoRoot);
  // Absent folders exclude nothing; leaving them out spares git per-path work.
  const present = (
    await Promise.all(
      alsoExclude.map(async (f) =>
        (await lstat(f).then(
          () => true,
          () => false,
        ))
          ? f
          : undefined,
      ),
    )
  ).filter((f): f is string => f !== undefined);
  for (const folder of [handoffRoot, ...present]) {
    if (!folder) continue;
    // Both the named and the real path: a workspace opened through a link, or a .handoff linking elsewhere in the
    // repository, is still excluded.
    const realWorkspaceSide = path.join(await realPathOf(path.dirname(folder)), path.basename(folder));
    for (const candidate of new Set([path.relative(realRepo, realWorkspaceSide), path.relative(realRepo, await realPathOf(folder))])) {
      if (candidate && !candidate.startsWith('..') && !path.isAbsolute(candidate)) {
        pathspec.push(`:(top,exclude,literal)${candidate.split(path.sep).join('/')}`);
      }
    }
  }
  return pathspec;
}

function settledNote(what: string, r: PromiseSettledResult<unknown>, cwd: string, notes: string[]): void {
  if (r.status === 'rejected') {
    notes.push(`${what}: ${describeGitFailure(r.reason, cwd)}`);
  }
}

async function collectInRepository(
  repoRoot: string,
  head: string | null,
  objectFormat: string,
  opts: GitEvidenceOptions,
  gitDir: string | undefined,
): Promise<GitEvidence> {
  const git = gitClient(repoRoot, opts);
  const notes: string[] = [];
  const pathspec = await evidencePathspec(repoRoot, opts.handoffRoot, opts.alsoExclude);
  const against = head ?? EMPTY_TREE[objectFormat] ?? EMPTY_TREE.sha1;
  if (!head) {
    notes.push('This repository has no commits yet: changes are shown against an empty tree');
  }
  const maxChars = opts.diffExcerptChars ?? DIFF_EXCERPT_MAX_CHARS;
  const operation = readGitOperation(repoRoot, opts, gitDir);

  const status = rawBytes(repoRoot, opts, ['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', ...pathspec]).then(
    (b) => parseStatusV2(splitNulFields(b)),
  );
  // Files that differ from HEAD and still exist, fingerprinted while git diffs.
  const contents = status.then(({ entries }) =>
    hashWorktree(
      entries.filter((e) => e.xy[1] !== 'D' && !(e.xy[0] === 'D' && e.xy[1] === '.')).map((e) => e.path),
      repoRoot,
      async (paths) => {
        // A few files: git's ids computed here, one process fewer.
        if (paths.length <= NODE_BLOB_IDS_MAX_FILES)
          return gitBlobIds(
            paths.map((p) => path.join(repoRoot, p)),
            objectFormat,
          );
        const input = `${paths.join('\n')}\n`;
        const out = await gitClient(repoRoot, { ...opts, input: (cmds) => (cmds.includes('--stdin-paths') ? input : undefined) }).raw([
          'hash-object',
          '--stdin-paths',
          '--no-filters',
        ]);
        const ids = out.split('\n'); // one object id per path, else hashWorktree hashes in Node
        if (!ids.slice(0, paths.length).every((id) => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id))) throw new Error('git hash-object answered short');
        return ids;
      },
    ),
  );
  const asked = Promise.allSettled([
    status,
    rawBytes(repoRoot, opts, [
      '--no-optional-locks',
      'diff',
      '--raw',
      '--numstat',
      '-z',
      '--abbrev=40',
      '--no-ext-diff',
      '--no-textconv',
      against,
      ...pathspec,
    ]).then((b) => parseRawNumstat(splitNulFields(b))),
    readDiffExcerpt(repoRoot, against, pathspec, opts, maxChars),
    head ? collectCommits(git, head, opts.baseCommit ?? null, notes) : Promise.resolve({ base: null, commits: [], omitted: 0 }),
    contents,
  ]);
  // simple-git spawns them in this turn's microtasks, before anything the caller starts now runs.
  opts.onGitStarted?.();
  const [statusR, rawR, excerptR, commitsR, contentsR] = await asked;
  if (statusR.status === 'rejected') {
    throw statusR.reason;
  }
  settledNote('Line counts and the diff hash are missing (git diff failed)', rawR, repoRoot, notes);
  settledNote('The diff excerpt is missing', excerptR, repoRoot, notes);
  settledNote('Commits are missing', commitsR, repoRoot, notes);
  const { branch, entries } = statusR.value;
  const raw = rawR.status === 'fulfilled' ? rawR.value : { raw: [], numstat: [] };
  const merged = mergeTouchedFiles(entries, raw.numstat);
  let files = merged.files;
  const recount = merged.recount.filter((p) => p === displayPath(p));
  if (recount.length) {
    // Numstat paired these into a rename that status does not show: count them one by one.
    const again = await rawBytes(repoRoot, opts, [
      '--no-optional-locks',
      'diff',
      '--numstat',
      '-z',
      '--no-renames',
      against,
      '--',
      ...recount.map((p) => `:(top,literal)${p}`),
    ])
      .then((b) => parseNumstatFields(splitNulFields(b)))
      .catch(() => []);
    files = applyRecount(files, again);
  }
  const undecodable = files.filter((f) => f.path !== displayPath(f.path)).length;
  if (undecodable) {
    notes.push(
      `${undecodable === 1 ? '1 file name is' : `${undecodable} file names are`} not valid UTF-8; ${undecodable === 1 ? 'it is' : 'they are'} shown quoted, as git shows ${undecodable === 1 ? 'it' : 'them'}`,
    );
  }
  files = files.map((f) => ({ ...f, path: displayPath(f.path), old_path: f.old_path === null ? null : displayPath(f.old_path) }));
  files = await fillSubmoduleCommits(repoRoot, files, raw.raw, opts);
  const max = opts.maxFiles ?? MAX_TOUCHED_FILES;
  const unmerged = files.filter((f) => f.status === 'U').length;
  if (unmerged) {
    notes.push(`${unmerged === 1 ? '1 file has' : `${unmerged} files have`} unresolved merge conflicts`);
  }
  const excerpt = excerptR.status === 'fulfilled' ? excerptR.value : { excerpt: '', truncated: false };
  const commitInfo = commitsR.status === 'fulfilled' ? commitsR.value : { base: null, commits: [], omitted: 0 };
  const hash = rawR.status === 'fulfilled' && contentsR.status === 'fulfilled' ? diffHash(against, raw.raw, contentsR.value) : null;
  return {
    repoRoot,
    branch: branch.head,
    detached: branch.detached,
    headCommit: branch.oid ?? head,
    upstream: branch.upstream,
    ahead: branch.ahead,
    behind: branch.behind,
    touchedFiles: files.slice(0, max),
    touchedFilesOmitted: Math.max(0, files.length - max),
    baseCommit: commitInfo.base,
    commits: commitInfo.commits,
    commitsOmitted: commitInfo.omitted,
    diffExcerpt: excerpt.excerpt.length > 0 ? excerpt.excerpt : null,
    diffExcerptTruncated: excerpt.truncated,
    diffHash: hash,
    operation: await operation,
    problem: null,
    notes,
  };
}

async function collectCommits(
  git: SimpleGit,
  head: string,
  base: string | null,
  notes: string[],
): Promise<{ base: string | null; commits: Commit[]; omitted: number }> {
  let validBase: string | null = null;
  if (base) {
    const verified = await git.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${base}^{commit}`]).catch(() => '');
    if (verified.trim()) {
      validBase = verified.trim();
    } else {
      notes.push(`Base commit ${base.slice(0, 12)} is not in this repository (history rewritten?) — listing the latest commits instead`);
    }
  }
  const range = validBase ? `${validBase}..${head}` : head;
  const max = validBase ? MAX_COMMITS : MAX_COMMITS_WITHOUT_BASE;
  // base..HEAD; simple-git's default base...HEAD also lists commits only the base has.
  const log = await (validBase ? git.log({ from: validBase, to: head, symmetric: false, maxCount: max }) : git.log({ maxCount: max }));
  const commits: Commit[] = log.all.map((c) => ({ sha: c.hash, subject: c.message, author: c.author_name, date: c.date }));
  // A log shorter than its cap is the whole range, so only a full log needs `rev-list --count`.
  const count = commits.length < max ? String(commits.length) : await git.raw(['rev-list', '--count', range, '--']);
  const parsed = Number.parseInt(count.trim(), 10);
  const total = Number.isNaN(parsed) ? commits.length : parsed;
  return { base: validBase, commits, omitted: Math.max(0, total - commits.length) };
}
