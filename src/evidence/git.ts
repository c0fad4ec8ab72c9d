/**
 * Git evidence (DESIGN §6), collected through simple-git with argument arrays (never a
 * shell string), simple-git's unsafe-option guards left on, and `--no-optional-locks`
 * so collecting never takes the index lock a user's own git command may need.
 *
 * Why porcelain v2 and numstat are parsed here rather than with simple-git's
 * `status()` / `diffSummary()`: `status()` parses porcelain v1 and trims each entry
 * (a path with a leading or trailing space comes back changed) and `diffSummary()`
 * refuses `-z`, without which git quotes non-ASCII paths and abbreviates renames as
 * `{a => b}`. simple-git still runs every git process (`raw`, `log`).
 *
 * Never throws: every failure becomes a note in the evidence, and the handoff is still
 * written (DESIGN §6).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';
import { emptyGitEvidence, type GitEvidence } from '../core/evidenceModel';
import type { Commit, FileStatus, TouchedFile } from '../core/schema';

/** Diff excerpt cap: 40,000 characters (TSP handoff skill: alignment snippets carry at most 40k diff characters). */
export const DIFF_EXCERPT_MAX_CHARS = 40_000;
/** Touched files kept by collection before "… and N more": 2,000 files. */
export const MAX_TOUCHED_FILES = 2_000;
/** Commits listed since the base before "… and N more": 50. */
export const MAX_COMMITS = 50;
/** Commits listed when no base commit is known yet: the latest 10. */
export const MAX_COMMITS_WITHOUT_BASE = 10;
/** A git process that prints nothing for this long is killed: 120,000 ms. */
export const GIT_BLOCK_TIMEOUT_MS = 120_000;

/** Empty-tree object names, used as "HEAD" in a repository without commits. */
const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Options of {@link collectGitEvidence}. */
export interface GitEvidenceOptions {
  /** Folder to collect for (the workspace folder); git finds the repository above it. */
  readonly cwd: string;
  /** Absolute handoff root; its files are never reported as touched (DESIGN §6). */
  readonly handoffRoot?: string;
  /** Commit the session started from (previous handoff's HEAD); null or absent when unknown. */
  readonly baseCommit?: string | null;
  /** git executable, e.g. from VS Code's `git.path`; default `git` on PATH. */
  readonly binary?: string;
  /** Cap of the touched-file list (default {@link MAX_TOUCHED_FILES}). */
  readonly maxFiles?: number;
  /** Cap of the diff excerpt in characters (default {@link DIFF_EXCERPT_MAX_CHARS}). */
  readonly diffExcerptChars?: number;
  /** Cancels collection; running git processes are killed. */
  readonly signal?: AbortSignal;
}

/** Parsed `# branch.*` headers of `git status --porcelain=v2 --branch`. */
export interface BranchHeaders {
  oid: string | null;
  head: string | null;
  detached: boolean;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
}

/** One status entry of porcelain v2, before merging with numstat. */
export interface StatusEntry {
  readonly kind: '1' | '2' | 'u' | '?';
  readonly xy: string;
  readonly path: string;
  readonly origPath: string | null;
  /** Octal mode of the worktree file (`100644`, `100755`, `120000` symlink, `160000` submodule, `000000` gone); null for untracked files. */
  readonly worktreeMode: string | null;
}

/**
 * Parses `git status --porcelain=v2 -z --branch` output (NUL-separated records; a
 * rename or copy record is followed by one more NUL field holding the original path).
 * Ignored (`!`) entries are skipped. Paths are returned exactly as git wrote them (UTF-8).
 */
export function parseStatusV2(out: string): { branch: BranchHeaders; entries: StatusEntry[] } {
  const branch: BranchHeaders = { oid: null, head: null, detached: false, upstream: null, ahead: null, behind: null };
  const entries: StatusEntry[] = [];
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const rec = fields[i];
    if (!rec) {
      continue;
    }
    const type = rec[0];
    if (type === '#') {
      const m = /^# branch\.(\S+) (.*)$/.exec(rec);
      if (!m) {
        continue;
      }
      const [, key, value] = m;
      if (key === 'oid') {
        branch.oid = value === '(initial)' ? null : value;
      } else if (key === 'head') {
        branch.detached = value === '(detached)';
        branch.head = branch.detached ? null : value;
      } else if (key === 'upstream') {
        branch.upstream = value;
      } else if (key === 'ab') {
        const ab = /^\+(\d+) -(\d+)$/.exec(value);
        if (ab) {
          branch.ahead = Number(ab[1]);
          branch.behind = Number(ab[2]);
        }
      }
    } else if (type === '1') {
      entries.push({ kind: '1', xy: rec.slice(2, 4), path: afterFields(rec, 8), origPath: null, worktreeMode: field(rec, 5) });
    } else if (type === '2') {
      entries.push({ kind: '2', xy: rec.slice(2, 4), path: afterFields(rec, 9), origPath: fields[++i] ?? null, worktreeMode: field(rec, 5) });
    } else if (type === 'u') {
      entries.push({ kind: 'u', xy: rec.slice(2, 4), path: afterFields(rec, 10), origPath: null, worktreeMode: field(rec, 6) });
    } else if (type === '?') {
      entries.push({ kind: '?', xy: '??', path: rec.slice(2), origPath: null, worktreeMode: null });
    }
  }
  return { branch, entries };
}

/** The n-th (0-based) space-separated field of a record's header. */
function field(rec: string, n: number): string | null {
  return rec.split(' ', n + 1)[n] ?? null;
}

/** The text after the first `n` space-separated fields (the path, which may itself contain spaces). */
function afterFields(rec: string, n: number): string {
  let idx = 0;
  for (let k = 0; k < n; k++) {
    idx = rec.indexOf(' ', idx) + 1;
    if (idx === 0) {
      return '';
    }
  }
  return rec.slice(idx);
}

/** The handoff status letter of a porcelain v2 entry (see {@link FileStatus}). */
export function statusLetter(e: StatusEntry): FileStatus {
  if (e.kind === '?') {
    return '?';
  }
  if (e.kind === 'u') {
    return 'U';
  }
  const [x, y] = e.xy;
  if (e.kind === '2') {
    return x === 'C' || y === 'C' ? 'C' : 'R';
  }
  if (x === 'A') {
    return 'A';
  }
  if (x === 'D' || y === 'D') {
    return 'D';
  }
  return 'M';
}

/** Line counts of one numstat record; null counts for binary files. */
export interface NumstatEntry {
  readonly path: string;
  readonly origPath: string | null;
  readonly added: number | null;
  readonly deleted: number | null;
  readonly binary: boolean;
}

/**
 * Parses `git diff --numstat -z` output: `added\tdeleted\tpath\0`, or for a rename
 * `added\tdeleted\t\0old\0new\0`; binary files have `-\t-`.
 */
export function parseNumstatZ(out: string): NumstatEntry[] {
  const result: NumstatEntry[] = [];
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const rec = fields[i];
    if (!rec) {
      continue;
    }
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(rec);
    if (!m) {
      continue;
    }
    const binary = m[1] === '-' && m[2] === '-';
    let p = m[3];
    let orig: string | null = null;
    if (p === '') {
      orig = fields[++i] ?? null;
      p = fields[++i] ?? '';
    }
    result.push({
      path: p,
      origPath: orig,
      added: binary ? null : Number(m[1]),
      deleted: binary ? null : Number(m[2]),
      binary,
    });
  }
  return result;
}

/**
 * Merges status entries with numstat counts into touched files (status order kept).
 * Counts are looked up by the entry's path; untracked files and conflicts have none.
 */
export function mergeTouchedFiles(entries: readonly StatusEntry[], numstat: readonly NumstatEntry[]): TouchedFile[] {
  const byPath = new Map<string, NumstatEntry>();
  for (const n of numstat) {
    byPath.set(n.path, n);
  }
  return entries.map((e) => {
    const n = e.kind === '?' ? undefined : byPath.get(e.path);
    return {
      path: e.path,
      status: statusLetter(e),
      old_path: e.origPath,
      added: n ? n.added : null,
      deleted: n ? n.deleted : null,
      binary: n ? n.binary : false,
      xy: e.xy,
    };
  });
}

/** Classifies a failure of git into a note the user can act on. */
export function describeGitFailure(err: unknown, cwd: string): string {
  const text = String((err as { message?: unknown })?.message ?? err);
  if (/ENOENT|spawn .*git|not found|cannot find/i.test(text) && !/not a git repository/i.test(text)) {
    return 'git is not installed or not on PATH — touched files and commits were not collected; install git (or set "git.path") and hand over again';
  }
  if (/not a git repository/i.test(text)) {
    return 'Not a git repository — touched files and commits were not collected; run "git init" in the workspace folder to track its changes';
  }
  if (/dubious ownership/i.test(text)) {
    return `git refuses this repository (dubious ownership): ${cwd} — run "git config --global --add safe.directory ${cwd}" if you trust it`;
  }
  if (/abort/i.test(text)) {
    return 'Collecting git evidence was cancelled';
  }
  return `git failed: ${text.split('\n').find((l) => l.trim()) ?? text}`.slice(0, 400);
}

function gitClient(baseDir: string, opts: GitEvidenceOptions, input?: (commands: readonly string[]) => string | undefined): SimpleGit {
  const options: Partial<SimpleGitOptions> = {
    baseDir,
    binary: opts.binary ?? 'git',
    maxConcurrentProcesses: 3,
    trimmed: false,
    timeout: { block: GIT_BLOCK_TIMEOUT_MS },
    config: ['core.quotePath=false', 'color.ui=false'],
  };
  if (opts.signal) {
    options.abort = opts.signal;
  }
  if (input) {
    options.input = input;
  }
  return simpleGit(options);
}

/** One record of `git diff --raw -z --abbrev=40`. */
export interface RawEntry {
  readonly srcMode: string;
  readonly dstMode: string;
  readonly srcOid: string;
  readonly dstOid: string;
  /** Status letter without its score: A, C, D, M, R, T, U, X. */
  readonly status: string;
  readonly path: string;
  readonly origPath: string | null;
}

/**
 * Splits `git diff --raw --numstat -z` output into raw records and the numstat part
 * (the input of {@link parseNumstatZ}). Raw records (`:mode mode oid oid status\0path\0`,
 * two paths for renames and copies) come first and are consumed exactly, so a file name
 * that looks like a numstat record is never mistaken for one.
 */
export function splitRawNumstat(out: string): { raw: RawEntry[]; numstat: string } {
  const fields = out.split('\0');
  const raw: RawEntry[] = [];
  let i = 0;
  while (i < fields.length && fields[i].startsWith(':')) {
    const [srcMode, dstMode, srcOid, dstOid, statusScore] = fields[i].slice(1).split(' ');
    const status = (statusScore ?? '').charAt(0);
    const two = status === 'R' || status === 'C';
    raw.push({ srcMode, dstMode, srcOid, dstOid, status, path: two ? fields[i + 2] : fields[i + 1], origPath: two ? fields[i + 1] : null });
    i += two ? 3 : 2;
  }
  return { raw, numstat: fields.slice(i).join('\0') };
}

/** Files hashed at once while fingerprinting the worktree. */
const HASH_CONCURRENCY = 64;
/** Files larger than this (1 MiB) are hashed as a stream rather than read whole. */
const STREAM_ABOVE_BYTES = 1024 * 1024;

/**
 * sha256 (hex) of what a path holds in the worktree: a file's bytes (streamed), a
 * symbolic link's target, `dir` for a folder (a submodule or nested repository),
 * `missing` when it is gone. Never throws.
 */
export async function hashWorktreePath(file: string): Promise<string> {
  const h = createHash('sha256');
  try {
    const st = await lstat(file);
    if (st.isSymbolicLink()) {
      h.update(`link\0${await readlink(file)}`);
    } else if (st.isDirectory()) {
      h.update('dir');
    } else if (st.size <= STREAM_ABOVE_BYTES) {
      h.update('file\0');
      h.update(await readFile(file));
    } else {
      h.update('file\0');
      for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
        h.update(chunk as Buffer);
      }
    }
  } catch (err) {
    h.update(`missing\0${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return h.digest('hex');
}

/**
 * Content hashes of the worktree side of changed and untracked files, as `[path, hash]`
 * pairs sorted by path. Regular files go to one `git hash-object --stdin-paths
 * --no-filters` process (fast: one process for thousands of files); symbolic links,
 * submodules and nested repositories (`dir/`), paths containing a newline, and
 * everything when git refuses (a file vanished meanwhile, an untracked dangling link)
 * are hashed in Node by {@link hashWorktreePath}.
 *
 * @param entries status entries whose worktree side exists (not deleted)
 */
export async function hashWorktree(entries: readonly StatusEntry[], repoRoot: string, opts: GitEvidenceOptions): Promise<Array<[string, string]>> {
  const byGit: string[] = [];
  const byNode: string[] = [];
  for (const e of entries) {
    const regular = e.worktreeMode === null || e.worktreeMode.startsWith('100');
    const plainName = !e.path.includes('\n') && !e.path.includes('\r') && !e.path.endsWith('/');
    (regular && plainName ? byGit : byNode).push(e.path);
  }
  const result = new Map<string, string>();
  if (byGit.length) {
    const input = `${byGit.join('\n')}\n`;
    try {
      const out = await gitClient(repoRoot, opts, (cmds) => (cmds.includes('--stdin-paths') ? input : undefined)).raw([
        'hash-object',
        '--stdin-paths',
        '--no-filters',
      ]);
      const oids = out.split('\n');
      if (oids.length < byGit.length) {
        throw new Error('hash-object returned fewer object ids than paths');
      }
      byGit.forEach((p, i) => result.set(p, oids[i]));
    } catch {
      byNode.push(...byGit);
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < byNode.length) {
      const p = byNode[next++];
      result.set(p, await hashWorktreePath(path.join(repoRoot, p)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(HASH_CONCURRENCY, byNode.length) }, worker));
  return [...result.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * The diff hash (DESIGN §4 `diff_hash`): sha256 over the commit compared against, each
 * change of git's raw diff against it (status, paths, the HEAD side's mode and object
 * id, the worktree side's mode) and the content hash of every changed or untracked file
 * as it is in the worktree. Two working trees get the same hash exactly when their
 * changes against HEAD are the same — staged or not — as hashing the patch would say,
 * without generating the whole patch.
 *
 * @param contents `[path, content hash]` pairs from {@link hashWorktree}
 */
export function diffHash(against: string, raw: readonly RawEntry[], contents: ReadonlyArray<[string, string]>): string {
  const h = createHash('sha256');
  h.update(`${against}\0`);
  for (const e of [...raw].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(`${e.status}\0${e.origPath ?? ''}\0${e.path}\0${e.srcMode}\0${e.srcOid}\0${e.dstMode}\0`);
  }
  h.update('\0');
  for (const [p, hash] of contents) {
    h.update(`${p}\0${hash}\0`);
  }
  return h.digest('hex');
}

/** The start of a patch: at most the cap in characters, and whether more followed. */
export interface DiffExcerpt {
  readonly excerpt: string;
  readonly truncated: boolean;
}

/** Cuts collected patch text to `maxChars`, at a line end when one is in the second half. */
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

/**
 * Runs `git diff --patch <against>` and keeps only its first `maxChars` characters: the
 * output is read as it streams and the process is killed as soon as the cap is passed,
 * so neither the time nor the memory depends on the size of the whole diff.
 */
export async function readDiffExcerpt(repoRoot: string, against: string, pathspec: readonly string[], opts: GitEvidenceOptions, maxChars: number): Promise<DiffExcerpt> {
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

/**
 * The top level of the git working tree containing `dir`, or undefined outside one
 * (or when git is missing). Used by the CLI so that, like git, it works from any subfolder.
 */
export async function findRepositoryRoot(dir: string, binary?: string): Promise<string | undefined> {
  try {
    const top = (await gitClient(dir, { cwd: dir, binary }).raw(['rev-parse', '--show-toplevel'])).trim();
    return top ? path.resolve(top) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Collects the git evidence of the folder `opts.cwd`: branch / detached HEAD, HEAD
 * commit, upstream ahead/behind, touched files (status with renames and untracked files,
 * numstat of staged + unstaged changes against HEAD), commits since the base, a diff
 * excerpt of at most 40,000 characters and the sha256 of the whole diff.
 *
 * Cost: after two tiny `rev-parse` calls, git runs in parallel: status; one
 * `diff --raw --numstat` (counts and object ids, no patch text); `diff --patch` read as
 * a stream and killed once the excerpt cap is reached (the diff is never held or even
 * generated whole); the commit log. Worktree files git does not hash are hashed in Node
 * for {@link diffHash} meanwhile.
 *
 * @returns evidence; failures (no git, not a repository, cancelled) are `notes`. Never throws.
 */
export async function collectGitEvidence(opts: GitEvidenceOptions): Promise<GitEvidence> {
  let repoRoot: string;
  let objectFormat: string;
  let head: string | null;
  try {
    const probe = gitClient(opts.cwd, opts);
    const [top, verified] = await Promise.all([
      probe.raw(['rev-parse', '--show-toplevel', '--show-object-format']),
      probe.raw(['rev-parse', '-q', '--verify', 'HEAD^{commit}']).catch(() => ''),
    ]);
    const [root, format] = top.split('\n');
    if (!root?.trim()) {
      return emptyGitEvidence('Not a git working tree (a bare repository or the .git folder itself) — touched files and commits were not collected');
    }
    repoRoot = path.resolve(root.trim());
    objectFormat = format?.trim() || 'sha1';
    head = verified.trim() || null;
  } catch (err) {
    return emptyGitEvidence(describeGitFailure(err, opts.cwd));
  }
  try {
    return await collectInRepository(repoRoot, head, objectFormat, opts);
  } catch (err) {
    const ev = emptyGitEvidence(describeGitFailure(err, opts.cwd));
    return { ...ev, repoRoot };
  }
}

async function collectInRepository(repoRoot: string, head: string | null, objectFormat: string, opts: GitEvidenceOptions): Promise<GitEvidence> {
  const git = gitClient(repoRoot, opts);
  const notes: string[] = [];
  const pathspec = ['--', ':/'];
  if (opts.handoffRoot) {
    const rel = path.relative(repoRoot, path.resolve(opts.handoffRoot));
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) {
      pathspec.push(`:(top,exclude,literal)${rel.split(path.sep).join('/')}`);
    }
  }
  const against = head ?? EMPTY_TREE[objectFormat] ?? EMPTY_TREE.sha1;
  if (!head) {
    notes.push('This repository has no commits yet: changes are shown against an empty tree');
  }

  const maxChars = opts.diffExcerptChars ?? DIFF_EXCERPT_MAX_CHARS;
  const status = git.raw(['--no-optional-locks', 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', ...pathspec]).then(parseStatusV2);
  // Every file that differs from HEAD and still exists in the worktree, named by status.
  const contents = status.then(({ entries }) =>
    hashWorktree(
      entries.filter((e) => e.xy[1] !== 'D' && !(e.xy[0] === 'D' && e.xy[1] === '.')),
      repoRoot,
      opts,
    ),
  );
  const [{ branch, entries }, rawNumstat, excerpt, commitInfo, hashed] = await Promise.all([
    status,
    git.raw(['--no-optional-locks', 'diff', '--raw', '--numstat', '-z', '--abbrev=40', '--no-ext-diff', '--no-textconv', against, ...pathspec]),
    readDiffExcerpt(repoRoot, against, pathspec, opts, maxChars),
    head ? collectCommits(git, head, opts.baseCommit ?? null, notes) : Promise.resolve({ base: null, commits: [], omitted: 0 }),
    contents,
  ]);
  const { raw, numstat } = splitRawNumstat(rawNumstat);
  const hash = diffHash(against, raw, hashed);
  const files = mergeTouchedFiles(entries, parseNumstatZ(numstat));
  const max = opts.maxFiles ?? MAX_TOUCHED_FILES;
  const unmerged = files.filter((f) => f.status === 'U').length;
  if (unmerged) {
    notes.push(`${unmerged} file(s) have unresolved merge conflicts`);
  }
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
  const [log, count] = await Promise.all([
    // symmetric: false — base..HEAD (commits reachable from HEAD but not from the base);
    // simple-git's default is base...HEAD, which also lists commits only the base has.
    validBase ? git.log({ from: validBase, to: head, symmetric: false, maxCount: max }) : git.log({ maxCount: max }),
    git.raw(['rev-list', '--count', range, '--']),
  ]);
  const commits: Commit[] = log.all.map((c) => ({ sha: c.hash, subject: c.message, author: c.author_name, date: c.date }));
  const parsed = Number.parseInt(count.trim(), 10);
  const total = Number.isNaN(parsed) ? commits.length : parsed;
  return { base: validBase, commits, omitted: Math.max(0, total - commits.length) };
}
