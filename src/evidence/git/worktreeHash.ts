/**
 * The diff hash (docs/DESIGN.md §4 `diff_hash`, used by the progress-aware hop guard) and the
 * content hashes of worktree files it is made of.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, lstatSync, type Stats } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { RawEntry } from './gitParse';

/** Files examined at once while fingerprinting the worktree. */
const CONCURRENCY = 64;
/**
 * Files larger than this (64 MiB) are fingerprinted by size, modification time and
 * inode instead of read: hashing a 20 GB disk image at every handoff would dwarf the
 * cost of asking git, and any write to it still changes its modification time.
 */
export const HASH_CONTENT_MAX_BYTES = 64 * 1024 * 1024;

/** What a worktree path is, from `lstat` (never following links or opening special files). */
export type WorktreeKind =
  | { kind: 'file'; size: number; mtimeMs: number; ino: number }
  | { kind: 'link' }
  | { kind: 'dir' }
  | { kind: 'special'; type: string }
  | { kind: 'missing'; code: string };

function kindOf(st: Stats): WorktreeKind {
  if (st.isSymbolicLink()) return { kind: 'link' };
  if (st.isDirectory()) return { kind: 'dir' };
  if (st.isFile()) return { kind: 'file', size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
  const type = st.isFIFO() ? 'fifo' : st.isSocket() ? 'socket' : st.isCharacterDevice() ? 'char-device' : st.isBlockDevice() ? 'block-device' : 'other';
  return { kind: 'special', type };
}

/** `lstat`s a path; never throws. */
export async function classifyPath(file: string): Promise<WorktreeKind> {
  try {
    return kindOf(await lstat(file));
  } catch (err) {
    return { kind: 'missing', code: (err as NodeJS.ErrnoException).code ?? 'error' };
  }
}

/** Paths `lstat`ed synchronously per slice before yielding to the event loop. */
const LSTAT_SLICE = 256;

/**
 * `lstat`s many paths. Synchronous calls in slices of {@link LSTAT_SLICE}, yielding to
 * the event loop between slices: for thousands of files this is several times faster
 * than one promise per file through libuv's four-thread pool, and no slice blocks for
 * more than about a millisecond.
 */
export async function classifyPaths(files: readonly string[]): Promise<WorktreeKind[]> {
  const out: WorktreeKind[] = [];
  for (let i = 0; i < files.length; i += LSTAT_SLICE) {
    for (const f of files.slice(i, i + LSTAT_SLICE)) {
      try {
        out.push(kindOf(lstatSync(f)));
      } catch (err) {
        out.push({ kind: 'missing', code: (err as NodeJS.ErrnoException).code ?? 'error' });
      }
    }
    if (i + LSTAT_SLICE < files.length) {
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  return out;
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * sha256 (hex) of a regular file's bytes, read only if it still is a regular file when
 * opened (O_NONBLOCK, so a FIFO put in its place cannot block). Never throws.
 */
export async function hashRegularFile(file: string): Promise<string> {
  const h = createHash('sha256');
  let fh;
  try {
    fh = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    if (!(await fh.stat()).isFile()) {
      return h.update('special').digest('hex');
    }
    const buf = Buffer.alloc(1024 * 1024);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
    }
  } catch (err) {
    h.update(`unreadable\0${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  } finally {
    await fh?.close().catch(() => undefined);
  }
  return h.digest('hex');
}

/**
 * At most this many files (32) are given their git object ids in Node ({@link gitBlobIds})
 * rather than by a `git hash-object` process: for a few files, reading them here costs less
 * than starting git (fork, exec and wait); for thousands, one git process reading them is
 * faster.
 */
export const NODE_BLOB_IDS_MAX_FILES = 32;

/**
 * The ids git gives the files' bytes as blobs — what `git hash-object --no-filters` prints,
 * one per file, in order: the SHA-1 (or, for `objectFormat` `sha256`, SHA-256) of
 * `blob <size in bytes>\0` and the bytes (git's object format, Documentation/gitformat-loose
 * and hash-object's own description). Each file is opened without following a FIFO into a
 * block (O_NONBLOCK) and read only while it is a regular file.
 * @throws when a file cannot be read or is not a regular file (git hash-object fails too; the
 *   caller falls back as it does for git)
 */
export async function gitBlobIds(files: readonly string[], objectFormat: string): Promise<string[]> {
  const algorithm = objectFormat === 'sha256' ? 'sha256' : 'sha1';
  return mapLimit(files, CONCURRENCY, async (file) => {
    const fh = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new Error(`not a regular file: ${file}`);
      const content = await fh.readFile();
      return createHash(algorithm).update(`blob ${content.length}\0`).update(content).digest('hex');
    } finally {
      await fh.close().catch(() => undefined);
    }
  });
}

/**
 * Fingerprints of the worktree side of changed and untracked files, as `[path, hash]`
 * pairs sorted by path. Every path is `lstat`ed first; regular files up to
 * {@link HASH_CONTENT_MAX_BYTES} are hashed by `hashObjects` (one `git hash-object
 * --stdin-paths` process for all of them) or, when it fails, in Node; larger files by
 * size + mtime + inode; symbolic links by their target; folders, FIFOs, sockets and
 * devices by their kind — nothing that could block is ever read.
 *
 * @param hashObjects hashes many regular files at once, returning one id per path in order, or throws
 */
export async function hashWorktree(
  paths: readonly string[],
  repoRoot: string,
  hashObjects: (paths: string[]) => Promise<string[]>,
): Promise<Array<[string, string]>> {
  const sorted = [...new Set(paths)].sort();
  const kinds = await classifyPaths(sorted.map((p) => path.join(repoRoot, p)));
  const result = new Map<string, string>();
  const small: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i];
    const k = kinds[i];
    switch (k.kind) {
      case 'file':
        if (k.size <= HASH_CONTENT_MAX_BYTES && !/[\r\n]/.test(p)) {
          small.push(p);
        } else if (k.size <= HASH_CONTENT_MAX_BYTES) {
          result.set(p, await hashRegularFile(path.join(repoRoot, p)));
        } else {
          result.set(p, `large:${k.size}:${k.mtimeMs}:${k.ino}`);
        }
        break;
      case 'link':
        result.set(p, `link:${await readlink(path.join(repoRoot, p)).catch(() => '?')}`);
        break;
      case 'dir':
        result.set(p, 'dir');
        break;
      case 'special':
        result.set(p, `special:${k.type}`);
        break;
      case 'missing':
        result.set(p, `missing:${k.code}`);
        break;
    }
  }
  if (small.length) {
    let ids: string[] | undefined;
    try {
      ids = await hashObjects(small);
    } catch {
      ids = undefined;
    }
    if (ids && ids.length >= small.length) {
      small.forEach((p, i) => result.set(p, ids[i]));
    } else {
      const hashes = await mapLimit(small, CONCURRENCY, (p) => hashRegularFile(path.join(repoRoot, p)));
      small.forEach((p, i) => result.set(p, hashes[i]));
    }
  }
  return sorted.map((p) => [p, result.get(p) ?? 'missing']);
}

/**
 * The diff hash (docs/DESIGN.md §4 `diff_hash`): sha256 over the commit compared against, each
 * change of git's raw diff against it (status, paths, the HEAD side's mode and object
 * id, the worktree side's mode) and the fingerprint of every changed or untracked file
 * as it is in the worktree. Two working trees get the same hash exactly when their
 * changes against HEAD are the same — staged or not — as hashing the patch would say,
 * without generating the whole patch.
 *
 * @param contents `[path, fingerprint]` pairs from {@link hashWorktree}
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
