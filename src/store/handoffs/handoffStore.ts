/**
 * Safe file writes of the handoff root (DESIGN §5):
 * - a handoff file is created exclusively, complete or not at all: the content is written
 *   and flushed to a temporary file in the same folder, then hard-linked to
 *   `<id>.partial.md` (`link` fails if the name exists, so nothing is ever overwritten;
 *   that name is the reservation of the id), and renamed to `<id>.md` once everything
 *   that belongs to it is written. A name taken in the same millisecond retries with the
 *   next millisecond. A writer killed on the way leaves at most a `.partial.md` file;
 * - a briefing is append-only: created with its header the same way, then each section
 *   is appended with one `O_APPEND` write, so earlier bytes never change;
 * - writers in several processes (two windows, the CLI) are serialized per file with
 *   `proper-lockfile` wherever a write depends on what is there: a briefing append and the
 *   read-modify-write of a status change (see {@link withFileLock});
 * - leftovers of a killed writer never break the next one: temporary files (`.*.tmp`) and
 *   lock folders (`.*.md.lock`) match no reader's name pattern, locks whose holder stopped
 *   refreshing them are taken over after {@link LOCK_STALE_MS}, and both are removed once
 *   older than {@link STALE_LEFTOVER_MS} (see {@link removeStaleLeftovers});
 * - every path is checked by the path guard first (`paths.ts`).
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { link, lstat, mkdir, open, readdir, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type * as ProperLockfile from 'proper-lockfile';
import { parseHandoffFileName, type HandoffFileName } from '../../core/handoff/naming';
import { parseHandoff, type ParsedHandoff } from '../../core/handoff/render';
import type { StatusChange } from '../../core/handoff/schema';
import { changeStatus, type SettableStatus } from '../../core/handoff/status';
import { checkRealPathInside, resolveInside } from '../pathGuard';

/** `O_NOFOLLOW` where the platform has it (not on Windows, where symbolic links need privileges). */
const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;

/** How many successive milliseconds are tried when a handoff name is taken: 1,000. */
export const MAX_NAME_RETRIES = 1000;

/** Error with a user-facing message (starts with `ERROR:`) that names the path and the cause. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message.startsWith('ERROR:') ? message : `ERROR: ${message}`);
    this.name = 'StoreError';
  }
}

/** Turns a Node file-system error into words: which path, what went wrong, what to do. */
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
    default:
      return `ERROR: could not write ${target}: ${e?.message ?? String(err)}`;
  }
}

/**
 * Age after which a lock is taken over when its holder stopped refreshing it (it was
 * killed, or its machine slept): 2,000 ms, the smallest `stale` proper-lockfile accepts.
 * A briefing append or status change holds its lock for milliseconds, and a live holder
 * refreshes the lock's mtime every {@link LOCK_UPDATE_MS}, so only a dead holder's lock
 * gets this old; a lock left by a killed writer delays the next one by at most this long.
 */
export const LOCK_STALE_MS = 2000;

/** How often a live holder refreshes its lock's mtime: 1,000 ms (proper-lockfile's rule: at most half of {@link LOCK_STALE_MS}, at least 1 s). */
export const LOCK_UPDATE_MS = 1000;

/**
 * How long a writer waits for a lock before giving up with an `ERROR:`: 5,000 ms — more
 * than {@link LOCK_STALE_MS} plus one refresh, so a lock abandoned by a killed writer is
 * always taken over within one call, and short enough that the panel answers promptly
 * when a live writer is stuck (a hung network drive).
 */
export const LOCK_WAIT_MS = 5000;

/** First wait between lock attempts: 2 ms (a holder needs about a millisecond); doubled up to {@link LOCK_RETRY_MAX_MS}, each wait jittered ×0.5–1.5 so waiters do not move in step. */
export const LOCK_RETRY_MIN_MS = 2;

/** Longest wait between lock attempts: 25 ms, so a freed or stale lock is noticed quickly. */
export const LOCK_RETRY_MAX_MS = 25;

/**
 * The lock of `file`: the folder `.<name>.lock` beside it (proper-lockfile locks with an
 * atomic `mkdir`). Its name starts with a dot and does not end in `.md`, so no reader
 * (handoff or timeline names, the `*.md` file watcher) ever takes it for a handoff or a
 * briefing. The file itself need not exist.
 */
export function lockPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.lock`);
}

type LockLibrary = typeof ProperLockfile;
let lockLibrary: Promise<LockLibrary> | undefined;

/** proper-lockfile, loaded on first use (it installs exit handlers; activation should not pay for that). */
function loadLockLibrary(): Promise<LockLibrary> {
  return (lockLibrary ??= import('proper-lockfile').then((lib) => {
    keepSigxfszHarmless();
    return lib;
  }));
}

/**
 * Keeps a write past the file-size limit (`ulimit -f`) an EFBIG error instead of a kill.
 * Node ignores SIGXFSZ, so such a write just fails and the caller cleans up (a briefing
 * append is truncated back to its size before). But proper-lockfile loads `signal-exit`
 * 3, which listens for SIGXFSZ and, when no other listener is there, re-raises it with
 * its default action: the process (the extension host, the CLI) was killed mid-append,
 * before the truncate-back, and left a torn briefing section cut at the limit (found by
 * test/reliability/diskFailures.test.ts).
 * signal-exit leaves a signal alone when someone else listens, so a listener of ours
 * that does nothing restores Node's behaviour. Not on Windows, which has no SIGXFSZ.
 */
function keepSigxfszHarmless(): void {
  if (process.platform !== 'win32' && !process.listeners('SIGXFSZ').includes(ignoreSignal)) {
    process.on('SIGXFSZ', ignoreSignal);
  }
}

function ignoreSignal(): void {
  // the failed write reports EFBIG; nothing to do here
}

/**
 * Runs `fn` while holding the cross-process lock of `file` ({@link lockPathFor}), so
 * writers in other windows and the CLI that lock the same file wait for it. Locking is
 * retried only while the lock is held by someone else (`ELOCKED`), for up to
 * {@link LOCK_WAIT_MS}, with waits from {@link LOCK_RETRY_MIN_MS} to
 * {@link LOCK_RETRY_MAX_MS}; a lock older than {@link LOCK_STALE_MS} without a refresh is
 * taken over. proper-lockfile's own `retries` are not used: they retry every error, so a
 * read-only or full disk would only be reported after the whole wait.
 *
 * @param fn gets `assertHeld`, to call right before a write: it throws when the lock was
 *   taken over meanwhile (the holder stalled past {@link LOCK_STALE_MS}), so the write is
 *   not made without it
 * @throws StoreError naming `file`: the lock stayed taken for {@link LOCK_WAIT_MS}, or the
 *   folder cannot be written (read-only, permissions …); whatever `fn` throws
 */
export async function withFileLock<T>(file: string, fn: (assertHeld: () => void) => Promise<T>): Promise<T> {
  const lockfile = await loadLockLibrary();
  const lockfilePath = lockPathFor(file);
  let compromised: Error | undefined;
  const options = {
    realpath: false,
    lockfilePath,
    stale: LOCK_STALE_MS,
    update: LOCK_UPDATE_MS,
    retries: 0,
    // The library's default throws from a timer, which would take the extension host down.
    onCompromised: (err: Error) => {
      compromised = err;
    },
  };
  const deadline = Date.now() + LOCK_WAIT_MS;
  let delay = LOCK_RETRY_MIN_MS;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(file, options);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new StoreError(describeFsError(err, file));
      }
      if (Date.now() >= deadline) {
        throw new StoreError(
          `ERROR: ${file} is locked by another writer (another window or the CLI) and stayed locked for ${LOCK_WAIT_MS / 1000} s — try again; if no other writer is running, remove the lock folder ${lockfilePath}`,
        );
      }
      await sleep(Math.min(delay * (0.5 + Math.random()), Math.max(1, deadline - Date.now())));
      delay = Math.min(delay * 2, LOCK_RETRY_MAX_MS);
    }
  }
  try {
    return await fn(() => {
      if (compromised) {
        throw new StoreError(`ERROR: lost the lock on ${file} (${compromised.message}) — nothing more was written; try again`);
      }
    });
  } finally {
    // A lock that cannot be removed (the folder turned read-only) goes stale and is taken over.
    await release().catch(() => undefined);
  }
}

/**
 * Age after which a leftover of a killed writer is removed: 10 minutes (600,000 ms). A
 * temporary file lives for milliseconds and a live lock is refreshed every
 * {@link LOCK_UPDATE_MS}, so anything this old belongs to a writer that is gone; one that
 * was merely paused this long finds its temporary file gone and reports an `ERROR:`
 * (nothing is lost: its target was never touched).
 */
export const STALE_LEFTOVER_MS = 10 * 60 * 1000;

/**
 * A temporary file beside `target`, named `.<target>.<pid>.<12 hex>.tmp`: hidden, never a
 * handoff name, unique per process and call, and recognised by {@link removeStaleLeftovers}.
 */
function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Names of our temporary files (`.<target>.<pid>.<12 hex>.tmp`) and lock folders (`.<name>.md.lock`). */
const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;
const LOCK_NAME = /^\..+\.md\.lock$/;

/**
 * Removes what killed writers left in `dir`: temporary files and empty lock folders whose
 * mtime is older than `olderThanMs` (default {@link STALE_LEFTOVER_MS}). Best effort: it
 * never throws, and it touches nothing whose name is not one of ours.
 *
 * @returns how many leftovers were removed
 */
export async function removeStaleLeftovers(dir: string, olderThanMs = STALE_LEFTOVER_MS): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  const cutoff = Date.now() - olderThanMs;
  for (const name of names) {
    const isTemp = TEMP_NAME.test(name);
    if (!isTemp && !LOCK_NAME.test(name)) continue;
    const full = path.join(dir, name);
    try {
      const st = await lstat(full);
      if (st.mtimeMs >= cutoff) continue;
      if (isTemp && st.isFile()) {
        await unlink(full);
        removed++;
      } else if (!isTemp && st.isDirectory()) {
        await rmdir(full); // only when empty: proper-lockfile's locks are
        removed++;
      }
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

async function writeAllAndSync(fh: FileHandle, content: string): Promise<void> {
  await fh.writeFile(content, 'utf8');
  await fh.sync();
}

/**
 * Creates `target` with `content`, exclusively and completely: via a temporary file and
 * a hard link. Falls back to an exclusive `open(wx)` where hard links are unsupported;
 * there a failed write renames the file to `….partial.md` (never a corrupt complete file).
 *
 * @returns true when created, false when the name already exists
 * @throws StoreError for other failures (disk full, permissions …)
 */
export async function createExclusive(target: string, content: string): Promise<boolean> {
  const tmp = tempPathFor(target);
  let fh: FileHandle | undefined;
  try {
    fh = await open(tmp, 'wx', 0o644);
    await writeAllAndSync(fh, content);
    await fh.close();
    fh = undefined;
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
    await fh?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
  }
}

async function createWithOpenWx(target: string, content: string): Promise<boolean> {
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
 * Makes a folder (and its missing parents) inside the workspace, after the symlink check.
 * Folders are made one level at a time rather than with `mkdir -p` semantics: Node's
 * recursive mkdir never returns on some pseudo file systems (procfs), and a file that
 * stands where a folder is needed gets a message that says so.
 *
 * @param fix the fix a path-check message names (see `checkRealPathInside`); default: the handoff folder's
 * @throws StoreError naming the path and the cause
 */
export async function ensureDir(workspaceRoot: string, dir: string, fix?: string): Promise<void> {
  const check = await checkRealPathInside(workspaceRoot, dir, fix);
  if (!check.ok) {
    throw new StoreError(check.message);
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
      if (!(await stat(d)).isDirectory()) {
        throw new StoreError(`ERROR: a file stands where a folder is needed: ${d} — move it away and try again`);
      }
    }
  }
  const after = await checkRealPathInside(workspaceRoot, dir, fix);
  if (!after.ok) {
    throw new StoreError(after.message);
  }
}

/** What {@link createHandoffFile} wrote: absolute path, file name, and the time its name carries. */
export interface CreatedFile {
  readonly path: string;
  readonly name: string;
  readonly date: Date;
}

/** A handoff written under its reserved `.partial.md` name ({@link stageHandoffFile}), and the name it gets when complete. */
export interface StagedFile extends CreatedFile {
  /** Absolute path of the complete handoff, `<id>.md`. */
  readonly finalPath: string;
  /** File name of the complete handoff, `<id>.md`. */
  readonly finalName: string;
}

/** `<id>.md` → `<id>.partial.md` (DESIGN §5); other names get `.partial` appended. */
export function partialName(name: string): string {
  return name.endsWith('.md') ? `${name.slice(0, -3)}.partial.md` : `${name}.partial`;
}

/**
 * Writes a new handoff in `dir` under its partial name `<id>.partial.md`, complete (temp
 * file + hard link), reserving its id: every writer takes `<id>.partial.md` exclusively
 * before it may use `<id>.md`, and gives the id up when `<id>.md` already exists. When the
 * name for `start` is taken, the next millisecond is tried (up to {@link MAX_NAME_RETRIES}).
 * The caller writes what belongs with the handoff (history, briefing section), then calls
 * {@link promoteHandoffFile}; a writer that fails or is killed before that leaves the
 * handoff as `.partial.md`, never as a complete-looking `<id>.md`. Stale leftovers of killed
 * writers in `dir` are removed first ({@link removeStaleLeftovers}).
 *
 * @param render returns the file name (`<id>.md`) and content for a given timestamp (the
 *   content carries the id and time, so it is rendered again for each attempt)
 * @throws StoreError naming the path and the cause
 */
export async function stageHandoffFile(
  workspaceRoot: string,
  dir: string,
  start: Date,
  render: (date: Date) => { name: string; content: string },
): Promise<StagedFile> {
  await ensureDir(workspaceRoot, dir);
  await removeStaleLeftovers(dir);
  for (let i = 0; i < MAX_NAME_RETRIES; i++) {
    const date = new Date(start.getTime() + i);
    const { name, content } = render(date);
    const final = resolveInside(dir, name);
    const staged = resolveInside(dir, partialName(name));
    if (!final.ok) {
      throw new StoreError(final.message);
    }
    if (!staged.ok) {
      throw new StoreError(staged.message);
    }
    if (!(await createExclusive(staged.path, content))) {
      continue;
    }
    // The id is ours now; a complete handoff under it (written before) means it is not free.
    if (await exists(final.path)) {
      await unlink(staged.path).catch(() => undefined);
      continue;
    }
    return { path: staged.path, name: path.basename(staged.path), date, finalPath: final.path, finalName: name };
  }
  throw new StoreError(`ERROR: could not find a free handoff file name in ${dir} after ${MAX_NAME_RETRIES} attempts`);
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return false;
    }
    throw new StoreError(describeFsError(err, file));
  }
}

/**
 * Gives a staged handoff its complete name: renames `<id>.partial.md` to `<id>.md`. The
 * rename is atomic and cannot overwrite another handoff: `<id>.md` is only ever made by the
 * holder of `<id>.partial.md`, which {@link stageHandoffFile} checked was free.
 *
 * @throws StoreError naming the path and the cause (the file is then still `.partial.md`)
 */
export async function promoteHandoffFile(staged: StagedFile): Promise<CreatedFile> {
  try {
    await rename(staged.path, staged.finalPath);
  } catch (err) {
    throw new StoreError(describeFsError(err, staged.finalPath));
  }
  return { path: staged.finalPath, name: staged.finalName, date: staged.date };
}

/**
 * Creates a new handoff file in `dir` named from a timestamp, never overwriting: when the
 * name for `start` is taken, the next millisecond is tried (up to {@link MAX_NAME_RETRIES}).
 * It is {@link stageHandoffFile} then {@link promoteHandoffFile}, for a file that has
 * nothing else to wait for (a result); a writer killed in between leaves `.partial.md`.
 *
 * @param render returns the file name and content for a given timestamp (the content
 *   carries the id and time, so it is rendered again for each attempt)
 * @throws StoreError naming the path and the cause
 */
export async function createHandoffFile(
  workspaceRoot: string,
  dir: string,
  start: Date,
  render: (date: Date) => { name: string; content: string },
): Promise<CreatedFile> {
  const staged = await stageHandoffFile(workspaceRoot, dir, start, render);
  try {
    return await promoteHandoffFile(staged);
  } catch (err) {
    await unlink(staged.path).catch(() => undefined);
    throw err;
  }
}

/** Briefing facts after an append (DESIGN §4 result): absolute path, whether it existed, size in bytes. */
export interface BriefingWrite {
  readonly path: string;
  readonly existed_before: boolean;
  readonly newly_created: boolean;
  readonly size_bytes: number;
}

/**
 * Appends one section to a briefing file, creating it with `header` first when it does
 * not exist. Existing bytes are never rewritten: the header is created atomically
 * (temporary file + hard link) and the section is one `O_APPEND` write. Writers in other
 * processes are kept out while this runs ({@link withFileLock} on the briefing), so
 * sections never interleave, whatever the file system does with concurrent appends. A
 * write that fails part-way (disk full, file-size limit) is cut back to the size the
 * file had before it, so no torn section is left.
 *
 * @throws StoreError naming the path and the cause
 */
export async function appendBriefing(workspaceRoot: string, file: string, header: string, section: string): Promise<BriefingWrite> {
  await ensureDir(workspaceRoot, path.dirname(file));
  await removeStaleLeftovers(path.dirname(file));
  return withFileLock(file, async (assertHeld) => {
    let created = false;
    try {
      // Under the lock no writer of ours creates it meanwhile; createExclusive still never overwrites.
      if (!(await exists(file))) {
        created = await createExclusive(file, header);
      }
    } catch (err) {
      throw err instanceof StoreError ? err : new StoreError(describeFsError(err, file));
    }
    let fh: FileHandle | undefined;
    let sizeBefore: number | undefined;
    try {
      // O_NOFOLLOW: a briefing that is a symbolic link (a cloned repository can plant one
      // under a predictable name) is refused instead of appending wherever it points.
      // O_NONBLOCK: opening a FIFO planted under that name returns at once instead of waiting.
      fh = await open(file, fsConstants.O_WRONLY | fsConstants.O_APPEND | NOFOLLOW | fsConstants.O_NONBLOCK);
      const before = await fh.stat();
      if (!before.isFile()) {
        throw new StoreError(`ERROR: ${file} is not a regular file — remove it and try again`);
      }
      const bytes = Buffer.from(section, 'utf8');
      assertHeld();
      sizeBefore = before.size;
      let written = 0;
      while (written < bytes.length) {
        const r = await fh.write(bytes, written, bytes.length - written);
        written += r.bytesWritten;
      }
      await fh.sync();
      const st = await fh.stat();
      return { path: file, existed_before: !created, newly_created: created, size_bytes: st.size };
    } catch (err) {
      if (fh && sizeBefore !== undefined) {
        // Only this writer appended since sizeBefore (it holds the lock): drop its torn bytes.
        await fh.truncate(sizeBefore).catch(() => undefined);
      }
      if (err instanceof StoreError) {
        throw err;
      }
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
        throw new StoreError(`ERROR: ${file} is a symbolic link — refusing to append through it; remove the link and try again`);
      }
      throw new StoreError(describeFsError(err, file));
    } finally {
      await fh?.close().catch(() => undefined);
    }
  });
}

/** Opens a file for reading only if it is a regular file (not a FIFO, device or folder); undefined otherwise. */
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

/** A handoff file found in a folder: its parsed name and absolute path. */
export interface HandoffFileEntry extends HandoffFileName {
  readonly path: string;
  readonly name: string;
}

/**
 * Lists the handoff files of a folder (by name only, no content read), oldest first.
 * A missing folder is an empty list; names that are not handoff files are skipped.
 */
export async function listHandoffFiles(dir: string): Promise<HandoffFileEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return [];
    }
    throw new StoreError(`ERROR: cannot list ${dir}: ${(err as Error).message}`);
  }
  const entries: HandoffFileEntry[] = [];
  for (const name of names) {
    const parsed = parseHandoffFileName(name);
    if (parsed) {
      entries.push({ ...parsed, name, path: path.join(dir, name) });
    }
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Bytes read from the start of a handoff file to find its frontmatter: 256 KiB. */
export const FRONTMATTER_READ_BYTES = 256 * 1024;

/**
 * Reads and parses the start of a handoff file (at most {@link FRONTMATTER_READ_BYTES}).
 * @returns the parsed handoff, or undefined when the file is unreadable or malformed
 */
export async function readHandoffHead(file: string): Promise<ParsedHandoff | undefined> {
  const fh = await openRegularFile(file);
  if (!fh) {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(FRONTMATTER_READ_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const parsed = parseHandoff(buf.subarray(0, bytesRead).toString('utf8'));
    return parsed.ok ? parsed.handoff : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * The newest complete (non-partial) handoff in `dir` whose frontmatter parses, read
 * newest first and giving up after 20 unreadable files.
 */
export async function readLatestHandoff(dir: string): Promise<ParsedHandoff | undefined> {
  return (await readLatestHandoffFile(dir))?.handoff;
}

/**
 * The newest complete handoff in `dir` whose frontmatter parses, with its file (read
 * newest first, giving up after 20 unreadable files) — the one meaning of "latest".
 */
export async function readLatestHandoffFile(dir: string, listed?: readonly HandoffFileEntry[]): Promise<{ file: string; handoff: ParsedHandoff } | undefined> {
  const files = (listed ?? (await listHandoffFiles(dir).catch(() => []))).filter((f) => !f.partial).reverse();
  for (const f of files.slice(0, 20)) {
    const h = await readHandoffHead(f.path);
    if (h) {
      return { file: f.path, handoff: h };
    }
  }
  return undefined;
}

/** Outcome of {@link findHandoff}: the parsed handoff and its file, or a message naming what was looked for. */
export type FindHandoff = { ok: true; file: string; handoff: ParsedHandoff } | { ok: false; message: string };

/**
 * Finds a handoff in `dir` by reference: `latest` (the newest complete one), an id
 * (`2026-05-26T14-30-45.123Z_quality_reviewer`) or a file name (with `.md` or `.partial.md`).
 */
export async function findHandoff(dir: string, ref: string): Promise<FindHandoff> {
  const files = await listHandoffFiles(dir).catch(() => []);
  let match: HandoffFileEntry | undefined;
  if (ref === 'latest') {
    // The same "latest" as readLatestHandoff: the newest complete file that parses.
    const latest = await readLatestHandoffFile(dir, files);
    if (latest) {
      return { ok: true, file: latest.file, handoff: latest.handoff };
    }
    match = [...files].reverse().find((f) => !f.partial);
  } else {
    const id = path.basename(ref).replace(/(\.partial)?\.md$/, '');
    match = files.find((f) => f.id === id);
  }
  if (!match) {
    const newest = files.length ? ` (the newest is ${files[files.length - 1].id})` : ' (there are none yet)';
    return { ok: false, message: `ERROR: parent handoff "${ref.slice(0, 120)}" not found in ${dir}${newest} — pass a handoff id, its file name, or "latest"` };
  }
  const handoff = await readHandoffHead(match.path);
  if (!handoff) {
    return { ok: false, message: `ERROR: parent handoff ${match.path} cannot be parsed — fix its frontmatter or pick another parent` };
  }
  return { ok: true, file: match.path, handoff };
}

/**
 * Marks a handoff whose writing did not finish (DESIGN §5): renames `<id>.md` to
 * `<id>.partial.md`. Returns the new path, or the old one when the rename failed.
 */
export async function markPartial(file: string): Promise<string> {
  const target = file.replace(/\.md$/, '.partial.md');
  try {
    // Under the file's lock, so a status change in another process cannot write it back.
    await withFileLock(file, () => rename(file, target));
    return target;
  } catch {
    return file;
  }
}

/** Largest handoff file whose status is changed in place: 10 MiB (a handoff is a briefing; bigger is not one of ours). */
export const MAX_STATUS_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Replaces the content of the regular file `target` atomically: writes a temporary file
 * beside it, syncs it, and renames it over the target, so a reader sees the old or the new
 * content, never a mix, and a crash leaves the old file intact.
 *
 * @throws StoreError naming the path and the cause (the target is left as it was)
 */
export async function replaceFileAtomic(target: string, content: string): Promise<void> {
  const tmp = tempPathFor(target);
  let fh: FileHandle | undefined;
  try {
    fh = await open(tmp, 'wx', 0o644);
    await writeAllAndSync(fh, content);
    await fh.close();
    fh = undefined;
    await rename(tmp, target);
  } catch (err) {
    await fh?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw new StoreError(describeFsError(err, target));
  }
}

/** Outcome of {@link setHandoffStatus}: the change made (null when the status already was that one). */
export type SetStatusResult = { ok: true; change: StatusChange | null } | { ok: false; message: string };

/**
 * Sets the status of the handoff file `file` (the one in-place change a handoff allows,
 * DESIGN §5), keeping the previous one in `status_history`; written atomically, and read,
 * changed and written under the file's lock ({@link withFileLock}), so changes made at
 * the same moment by other processes are applied one after the other, none lost.
 *
 * @returns `{ok:false, message}` (starting with `ERROR:`) when the file is missing, not a
 *   regular file, too big, not a valid handoff, locked for longer than
 *   {@link LOCK_WAIT_MS}, or cannot be written — nothing changed then
 */
export async function setHandoffStatus(file: string, to: SettableStatus, change: { at: string; session_id: string }): Promise<SetStatusResult> {
  try {
    // Read-modify-write: two processes changing the same handoff must not lose a change.
    return await withFileLock(file, (assertHeld) => setStatusLocked(file, to, change, assertHeld));
  } catch (err) {
    return { ok: false, message: `${(err as Error).message} (its status was not changed)` };
  }
}

async function setStatusLocked(file: string, to: SettableStatus, change: { at: string; session_id: string }, assertHeld: () => void): Promise<SetStatusResult> {
  const fh = await openRegularFile(file);
  if (!fh) {
    return { ok: false, message: `ERROR: ${file} is not a handoff file that can be changed (missing, a link or a special file)` };
  }
  let text: string;
  try {
    const size = (await fh.stat()).size;
    if (size > MAX_STATUS_FILE_BYTES) {
      return { ok: false, message: `ERROR: ${file} is ${formatBytes(size)}, larger than a handoff can be (${formatBytes(MAX_STATUS_FILE_BYTES)}); its status was not changed` };
    }
    text = await fh.readFile('utf8');
  } catch (err) {
    return { ok: false, message: `ERROR: cannot read ${file}: ${(err as Error).message}` };
  } finally {
    await fh.close().catch(() => undefined);
  }
  const changed = changeStatus(text, to, change);
  if (!changed.ok) {
    return { ok: false, message: `ERROR: ${file}: ${changed.message} — its status was not changed` };
  }
  if (!changed.change) {
    return { ok: true, change: null };
  }
  try {
    assertHeld();
    await replaceFileAtomic(file, changed.text);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  return { ok: true, change: changed.change };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
