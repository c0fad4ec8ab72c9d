/**
 * Safe file writes of the handoff root (DESIGN §5):
 * - a handoff file is created exclusively under its timestamped name, complete or not at
 *   all: the content is written and flushed to a temporary file in the same folder, then
 *   hard-linked to the final name (`link` fails if the name exists, so nothing is ever
 *   overwritten); a name taken in the same millisecond retries with the next millisecond;
 * - a briefing is append-only: created with its header the same way, then each section
 *   is appended with one `O_APPEND` write, so earlier bytes never change;
 * - every path is checked by the path guard first (`paths.ts`).
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { link, mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { parseHandoffFileName, type HandoffFileName } from '../core/naming';
import { parseHandoff, type ParsedHandoff } from '../core/render';
import type { StatusChange } from '../core/schema';
import { changeStatus, type SettableStatus } from '../core/status';
import { checkRealPathInside, resolveInside } from './paths';

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
      return `ERROR: ${target} is on a read-only file system — point "handoff.directory" at a writable folder`;
    case 'ENOTDIR':
      return `ERROR: a file stands where a folder is needed on the way to ${target} — move it away and try again`;
    case 'EDQUOT':
      return `ERROR: disk quota exceeded writing ${target}`;
    default:
      return `ERROR: could not write ${target}: ${e?.message ?? String(err)}`;
  }
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
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
    await rename(target, target.replace(/\.md$/, '.partial.md')).catch(() => undefined);
    throw err;
  }
}

/**
 * Makes a folder (and its missing parents) inside the workspace, after the symlink check.
 * Folders are made one level at a time rather than with `mkdir -p` semantics: Node's
 * recursive mkdir never returns on some pseudo file systems (procfs), and a file that
 * stands where a folder is needed gets a message that says so.
 *
 * @throws StoreError naming the path and the cause
 */
export async function ensureDir(workspaceRoot: string, dir: string): Promise<void> {
  const check = await checkRealPathInside(workspaceRoot, dir);
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
  const after = await checkRealPathInside(workspaceRoot, dir);
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

/**
 * Creates a new handoff file in `dir` named from a timestamp, never overwriting: when the
 * name for `start` is taken, the next millisecond is tried (up to {@link MAX_NAME_RETRIES}).
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
  await ensureDir(workspaceRoot, dir);
  for (let i = 0; i < MAX_NAME_RETRIES; i++) {
    const date = new Date(start.getTime() + i);
    const { name, content } = render(date);
    const target = resolveInside(dir, name);
    if (!target.ok) {
      throw new StoreError(target.message);
    }
    if (await createExclusive(target.path, content)) {
      return { path: target.path, name, date };
    }
  }
  throw new StoreError(`ERROR: could not find a free handoff file name in ${dir} after ${MAX_NAME_RETRIES} attempts`);
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
 * (temporary file + hard link) and the section is one `O_APPEND` write.
 *
 * @throws StoreError naming the path and the cause
 */
export async function appendBriefing(workspaceRoot: string, file: string, header: string, section: string): Promise<BriefingWrite> {
  await ensureDir(workspaceRoot, path.dirname(file));
  let created: boolean;
  try {
    created = await createExclusive(file, header);
  } catch (err) {
    throw err instanceof StoreError ? err : new StoreError(describeFsError(err, file));
  }
  let fh: FileHandle | undefined;
  try {
    // O_NOFOLLOW: a briefing that is a symbolic link (a cloned repository can plant one
    // under a predictable name) is refused instead of appending wherever it points.
    // O_NONBLOCK: opening a FIFO planted under that name returns at once instead of waiting.
    fh = await open(file, fsConstants.O_WRONLY | fsConstants.O_APPEND | NOFOLLOW | fsConstants.O_NONBLOCK);
    if (!(await fh.stat()).isFile()) {
      throw new StoreError(`ERROR: ${file} is not a regular file — remove it and try again`);
    }
    const bytes = Buffer.from(section, 'utf8');
    let written = 0;
    while (written < bytes.length) {
      const r = await fh.write(bytes, written, bytes.length - written);
      written += r.bytesWritten;
    }
    await fh.sync();
    const st = await fh.stat();
    return { path: file, existed_before: !created, newly_created: created, size_bytes: st.size };
  } catch (err) {
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
    await rename(file, target);
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
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
 * DESIGN §5), keeping the previous one in `status_history`; written atomically.
 *
 * @returns `{ok:false, message}` (starting with `ERROR:`) when the file is missing, not a
 *   regular file, too big, not a valid handoff, or cannot be written — nothing changed then
 */
export async function setHandoffStatus(file: string, to: SettableStatus, change: { at: string; session_id: string }): Promise<SetStatusResult> {
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
    await replaceFileAtomic(file, changed.text);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  return { ok: true, change: changed.change };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
