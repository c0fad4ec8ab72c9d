// Safe writes (docs/DESIGN.md §5): new files complete or not at all (temporary file, then a hard link, which never
// overwrites), replacements atomic (temporary file, then rename). Every failure is a StoreError naming path, cause and fix.
import { constants as fsConstants } from 'node:fs';
import { link, mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ensureSanitized, isSafeFileName, type Sanitized } from '../core/safety/gate';
import type { ErrorParts } from '../core/handoff/errors';
import { tempPathFor, withLeftoversSwept } from './leftovers';
import { LINK_LOOP_WORDS, fsCause } from '../core/handoff/fsErrors';
import { checkRealPathInside } from './pathGuard';

/** 0 on Windows, where symbolic links need privileges anyway. */
export const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;

export class StoreError extends Error {
  /** When the failed check knows them (src/core/handoff/errors.ts), so a surface can word the fix its own way. */
  readonly parts?: ErrorParts;
  constructor(message: string, parts?: ErrorParts) {
    super(message.startsWith('ERROR:') ? message : `ERROR: ${message}`);
    this.name = 'StoreError';
    if (parts) this.parts = parts;
  }
}

export function describeFsError(err: unknown, target: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ENOSPC':
      return `ERROR: the disk is full — could not write ${target}; free some space and try again`;
    case 'EACCES':
    case 'EPERM':
      return `ERROR: permission denied writing ${target} — check the folder's permissions and try again`;
    case 'EROFS':
      return `ERROR: ${target} is on a read-only file system — make that folder writable (remount it read-write) and try again`;
    case 'ENOTDIR':
      return `ERROR: a file stands where a folder is needed on the way to ${target} — move it away and try again`;
    case 'EDQUOT':
      return `ERROR: disk quota exceeded writing ${target} — free some space in your quota and try again`;
    case 'EFBIG':
      return `ERROR: ${target} would grow past the file-size limit of this process (ulimit -f) — raise the limit and try again`;
    case 'ELOOP':
      return `ERROR: could not write ${target}: the way to it goes through ${LINK_LOOP_WORDS} — remove the link or point it at a real folder, and try again`;
    case 'ENOENT':
      return `ERROR: could not write ${target}: a folder on the way to it does not exist (removed meanwhile, or a link to a missing target) — check the folder and try again`;
    default:
      return `ERROR: could not write ${target}: ${fsCause(err).words}`;
  }
}

async function writeAllAndSync(fh: FileHandle, content: string): Promise<void> {
  await fh.writeFile(content, 'utf8');
  await fh.sync();
}

/** On error the temporary file is removed before the error is rethrown. */
async function writeSyncedTemp(target: string, content: string): Promise<string> {
  const tmp = await tempPathFor(target);
  let fh: FileHandle | undefined;
  try {
    fh = await open(tmp, 'wx', 0o644);
    await writeAllAndSync(fh, content);
    await fh.close();
    return tmp;
  } catch (err) {
    await fh?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** The gate at the store (docs/DESIGN.md §7). @throws StoreError when the file name carries a secret or an invisible character */
export async function gatedContent(target: string, content: Sanitized | string): Promise<Sanitized> {
  if (!(await isSafeFileName(path.basename(target)))) {
    throw new StoreError(
      `ERROR: refusing to write a file whose name carries a secret or an invisible character (${JSON.stringify(path.basename(target)).slice(0, 80)}) — the name must pass the gate first`,
    );
  }
  return ensureSanitized(content);
}

/**
 * Without hard links falls back to `open(wx)`, where a failed write renames the file to `….partial.md`.
 * Returns false when the name already exists.
 * @throws StoreError otherwise
 */
export async function createExclusive(target: string, raw: Sanitized): Promise<boolean> {
  const content = await gatedContent(target, raw);
  return withLeftoversSwept(path.dirname(target), () => createLinked(target, content));
}

async function createLinked(target: string, content: Sanitized): Promise<boolean> {
  let tmp: string | undefined;
  try {
    tmp = await writeSyncedTemp(target, content);
    try {
      await link(tmp, target);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        return false;
      }
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EXDEV' || code === 'EOPNOTSUPP') {
        return await createWithOpenWx(target, content);
      }
      throw err;
    }
  } catch (err) {
    if (err instanceof StoreError) {
      throw err;
    }
    throw new StoreError(describeFsError(err, target));
  } finally {
    if (tmp) await unlink(tmp).catch(() => undefined);
  }
}

async function createWithOpenWx(target: string, content: Sanitized): Promise<boolean> {
  let fh: FileHandle;
  try {
    fh = await open(target, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      return false;
    }
    throw err;
  }
  try {
    await writeAllAndSync(fh, content);
    await fh.close();
    return true;
  } catch (err) {
    await fh.close().catch(() => undefined);
    if (!target.endsWith('.partial.md')) {
      await rename(target, target.replace(/\.md$/, '.partial.md')).catch(() => undefined);
    }
    throw err;
  }
}

/**
 * Inside the workspace, after the symlink check; one level at a time because Node's recursive mkdir
 * never returns on some pseudo file systems (procfs).
 * @throws StoreError naming the path and the cause
 */
export async function ensureDir(workspaceRoot: string, dir: string, fix?: string): Promise<void> {
  const check = await checkRealPathInside(workspaceRoot, dir, fix);
  if (!check.ok) {
    throw new StoreError(check.message, check.parts);
  }
  const missing: string[] = [];
  let probe = path.resolve(dir);
  for (;;) {
    try {
      const st = await stat(probe);
      if (!st.isDirectory()) {
        throw new StoreError(`ERROR: a file stands where a folder is needed: ${probe} — move it away and try again`);
      }
      break;
    } catch (err) {
      if (err instanceof StoreError) {
        throw err;
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') {
        throw new StoreError(`ERROR: a file stands where a folder is needed on the way to ${dir} — move it away and try again`);
      }
      if (code !== 'ENOENT') {
        throw new StoreError(describeFsError(err, probe));
      }
      const parent = path.dirname(probe);
      if (parent === probe) {
        throw new StoreError(`ERROR: no existing folder above ${dir}`);
      }
      missing.push(probe);
      probe = parent;
    }
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreError(describeFsError(err, d));
      }
      // Made meanwhile by another writer, or a name that exists but is not a folder.
      if (!(await stat(d).catch((e: unknown) => Promise.reject(new StoreError(describeFsError(e, d))))).isDirectory()) {
        throw new StoreError(`ERROR: a file stands where a folder is needed: ${d} — move it away and try again`);
      }
    }
  }
  const after = await checkRealPathInside(workspaceRoot, dir, fix);
  if (!after.ok) {
    throw new StoreError(after.message, after.parts);
  }
}

/** Undefined unless a regular file. */
export async function openRegularFile(file: string): Promise<FileHandle | undefined> {
  let fh: FileHandle | undefined;
  try {
    // Not through a link (a handoff that is a link may point anywhere), never blocking on a FIFO.
    fh = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | NOFOLLOW);
    if ((await fh.stat()).isFile()) {
      return fh;
    }
  } catch {
    // unreadable: treated as absent
  }
  await fh?.close().catch(() => undefined);
  return undefined;
}

/** A reader sees the old or the new content, never a mix. @throws StoreError, the target left as it was */
export async function replaceFileAtomic(target: string, raw: Sanitized): Promise<void> {
  const content = await gatedContent(target, raw);
  await withLeftoversSwept(path.dirname(target), async () => {
    let tmp: string | undefined;
    try {
      tmp = await writeSyncedTemp(target, content);
      await rename(tmp, target);
    } catch (err) {
      if (tmp) await unlink(tmp).catch(() => undefined);
      throw new StoreError(describeFsError(err, target));
    }
  });
}
