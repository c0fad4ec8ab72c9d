// The diff hash (docs/DESIGN.md §4 `diff_hash`, for the progress-aware hop guard) and the worktree fingerprints it is made of.
import { createHash } from 'node:crypto';
import { constants as fsConstants, lstatSync, type Stats } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { RawEntry } from './gitParse';

const CONCURRENCY = 64;
/** Larger files are fingerprinted by size, mtime and inode instead of read: any write still changes the mtime. */
export const HASH_CONTENT_MAX_BYTES = 64 * 1024 * 1024;

/** From `lstat`: never following links or opening special files. */
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

/** Never throws. */
export async function classifyPath(file: string): Promise<WorktreeKind> {
  try {
    return kindOf(await lstat(file));
  } catch (err) {
    return { kind: 'missing', code: (err as NodeJS.ErrnoException).code ?? 'error' };
  }
}

const LSTAT_SLICE = 256;

/** Synchronous `lstat`s in slices, yielding between them: far faster than one promise per file through libuv's pool. */
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

/** sha256 (hex), read only if still a regular file when opened (O_NONBLOCK: a FIFO put in its place cannot block). Never throws. */
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

/** Up to this many files get their ids in Node ({@link gitBlobIds}): cheaper than starting `git hash-object`; for more, git is faster. */
export const NODE_BLOB_IDS_MAX_FILES = 32;

/**
 * What `git hash-object --no-filters` prints, in order: SHA-1 (SHA-256 for `objectFormat` `sha256`) of
 * `blob <size>\0` and the bytes.
 * @throws when a file cannot be read or is not regular (as git would; the caller falls back the same way)
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
 * `[path, hash]` pairs sorted by path: regular files by `hashObjects` (falling back to Node), larger ones by size,
 * mtime and inode, links by target, anything else by its kind. Nothing that could block is ever read.
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
 * sha256 over the commit compared against, each raw diff change (status, paths, HEAD side's mode and id, worktree
 * side's mode) and every changed file's worktree fingerprint: equal exactly when the changes against HEAD are equal,
 * staged or not, without generating the patch.
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
