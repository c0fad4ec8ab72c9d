// Writes of the handoff root (docs/DESIGN.md §5). A handoff is written complete as `<id>.partial.md` (reserving the
// id) and renamed to `<id>.md` once all that belongs to it is written; handoff files are never edited, and each
// briefing section is a file of its own, so branches never edit the same file.
import { constants as fsConstants } from 'node:fs';
import { lstat, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BRIEFINGS_DIR, HISTORY_DIR } from '../../core/handoff/naming';
import type { StatusChange } from '../../core/handoff/schema';
import { parseHandoff } from '../../core/handoff/parse';
import { fsCause } from '../../core/handoff/fsErrors';
import type { SettableStatus } from '../../core/handoff/status';
import { effectiveStatus } from '../../core/handoff/statusEvents';
import { sanitizeFileName, type Sanitized } from '../../core/safety/gate';
import { withFileLock } from '../fileLock';
import { resolveInside } from '../pathGuard';
import { sweepFolderAndSubfolders, sweepLeftovers } from '../leftovers';
import { NOFOLLOW, StoreError, createExclusive, describeFsError, ensureDir, gatedContent, openRegularFile, replaceFileAtomic } from '../safeWrite';
import { ensureRootGitFiles } from './rootGitFiles';
import { completeInterruptedHandoffs } from './interrupted';
import { readStatusEvents, writeStatusEvent } from './statusEvents';

/** Successive milliseconds tried when a handoff name is taken. */
export const MAX_NAME_RETRIES = 1000;

export interface CreatedFile {
  readonly path: string;
  readonly name: string;
  readonly date: Date;
}

export interface StagedFile extends CreatedFile {
  readonly finalPath: string;
  readonly finalName: string;
}

/** `<id>.md` → `<id>.partial.md`; other names get `.partial` appended. */
export function partialName(name: string): string {
  return name.endsWith('.md') ? `${name.slice(0, -3)}.partial.md` : `${name}.partial`;
}

/**
 * Writes `<id>.partial.md`, trying the next millisecond while the name is taken. The caller writes what belongs
 * with it, then calls {@link promoteHandoffFile}, so a killed writer never leaves a complete-looking `<id>.md`.
 * @param render called per attempt: the content carries the id and time
 * @throws StoreError naming the path and the cause
 */
export async function stageHandoffFile(
  workspaceRoot: string,
  dir: string,
  start: Date,
  render: (date: Date) => Promise<{ name: Sanitized; content: Sanitized }>,
): Promise<StagedFile> {
  await ensureDir(workspaceRoot, dir);
  // Best effort, never a reason to refuse a handoff; done before anything is written, so the
  // .gitignore that hides temporary files is there before the first one is made.
  const root = path.relative(workspaceRoot, path.dirname(dir));
  const inWorkspace = !root.startsWith('..') && !path.isAbsolute(root);
  const housekeeping = Promise.all([
    inWorkspace ? ensureRootGitFiles(path.dirname(dir)) : undefined,
    sweepLeftovers(dir),
    inWorkspace ? sweepLeftovers(path.join(path.dirname(dir), HISTORY_DIR)) : undefined,
    inWorkspace ? sweepFolderAndSubfolders(path.join(path.dirname(dir), BRIEFINGS_DIR)) : undefined,
    inWorkspace ? completeInterruptedHandoffs(path.dirname(dir), dir) : undefined,
  ]);
  for (let i = 0; i < MAX_NAME_RETRIES; i++) {
    const date = new Date(start.getTime() + i);
    // Awaited even when rendering fails, so nothing runs on behind the caller.
    const rendered = await Promise.resolve()
      .then(() => render(date))
      .finally(() => (i === 0 ? housekeeping : undefined));
    const name = await sanitizeFileName(rendered.name);
    const content = rendered.content;
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
    // The id is ours now, but a complete handoff under it means it is not free.
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

/** Cannot overwrite: `<id>.md` is only made by the holder of `<id>.partial.md`. @throws StoreError, the file still `.partial.md` */
export async function promoteHandoffFile(staged: StagedFile): Promise<CreatedFile> {
  try {
    await rename(staged.path, staged.finalPath);
  } catch (err) {
    throw new StoreError(describeFsError(err, staged.finalPath));
  }
  return { path: staged.finalPath, name: staged.finalName, date: staged.date };
}

/** Never throws. */
export async function discardStagedFile(staged: StagedFile): Promise<void> {
  await unlink(staged.path).catch(() => undefined);
}

/** Before promotion, for a handoff that must not link a file that could not be written. @throws StoreError, the old content kept */
export async function restageHandoffFile(staged: StagedFile, content: Sanitized): Promise<void> {
  await replaceFileAtomic(staged.path, content);
}

/** Never throws. */
export async function discardStagedHandoff(staged: StagedFile): Promise<void> {
  await unlink(staged.path).catch(() => undefined);
}

/** For a file with nothing else to wait for (a result). @throws StoreError naming the path and the cause */
export async function createHandoffFile(
  workspaceRoot: string,
  dir: string,
  start: Date,
  render: (date: Date) => Promise<{ name: Sanitized; content: Sanitized }>,
): Promise<CreatedFile> {
  const staged = await stageHandoffFile(workspaceRoot, dir, start, render);
  try {
    return await promoteHandoffFile(staged);
  } catch (err) {
    await unlink(staged.path).catch(() => undefined);
    throw err;
  }
}

/** Briefing facts for the result (docs/DESIGN.md §4); size in bytes. */
export interface BriefingWrite {
  readonly path: string;
  readonly existed_before: boolean;
  readonly newly_created: boolean;
  readonly size_bytes: number;
}

/**
 * The section is one `O_APPEND` write under the briefing's lock, so sections never interleave; a write that fails
 * part-way is cut back, leaving no torn section.
 * @throws StoreError naming the path and the cause
 */
export async function appendBriefing(workspaceRoot: string, file: string, rawHeader: Sanitized, rawSection: Sanitized): Promise<BriefingWrite> {
  const header = await gatedContent(file, rawHeader);
  const section = await gatedContent(file, rawSection);
  await ensureDir(workspaceRoot, path.dirname(file));
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
      // O_NOFOLLOW: a cloned repository can plant a link under a predictable briefing name.
      // O_NONBLOCK: a FIFO planted under that name returns at once instead of waiting.
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

/**
 * One section as its own file, whole or not at all. `complete` (the handoff's promotion) runs under its lock: a
 * writer killed before it is completed by the next (`interrupted.ts`); if it fails, the section is taken back.
 * @throws StoreError, or what `complete` throws with `withdrawn` set
 */
export async function writeBriefingSection<T>(
  workspaceRoot: string,
  file: string,
  rawHeader: Sanitized,
  rawSection: Sanitized,
  complete: () => Promise<T>,
): Promise<BriefingWrite & { completed: T }> {
  const content = await gatedContent(file, `${rawHeader}${rawSection}`);
  await ensureDir(workspaceRoot, path.dirname(file));
  // A writer holding the lock (a killed one until it goes stale) is waited for.
  return withFileLock(file, async (assertHeld) => {
    assertHeld();
    if (!(await createExclusive(file, content))) {
      throw new StoreError(
        `ERROR: ${file} already exists — a briefing section is never overwritten; remove the file if it is not a handoff's section and try again`,
      );
    }
    let completed: T;
    try {
      completed = await complete();
    } catch (err) {
      const withdrawn = await unlink(file).then(
        () => true,
        (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
      );
      throw Object.assign(err instanceof StoreError ? err : new StoreError(describeFsError(err, file)), { withdrawn });
    }
    return { path: file, existed_before: false, newly_created: true, size_bytes: Buffer.byteLength(content, 'utf8'), completed };
  });
}

/** A `partial` status event (so it is not completed again), then `<id>.md` → `<id>.partial.md`; the old path if the rename failed. */
export async function markPartial(file: string): Promise<string> {
  const target = file.replace(/\.md$/, '.partial.md');
  try {
    // Under the lock, so a status change in another process cannot write it back.
    await withFileLock(file, async () => {
      const events = await readStatusEvents(file);
      const text = await readFile(file, 'utf8');
      const parsed = parseHandoff(text);
      if (parsed.ok) {
        const fm = parsed.handoff.frontmatter;
        const from = effectiveStatus(fm.status, fm.status_history, events).status;
        const at = new Date().toISOString();
        if (from !== 'partial') await writeStatusEvent(file, { from, to: 'partial', at, session_id: 'mark-partial' }, events.at(-1)?.name);
      }
      await rename(file, target);
    });
    return target;
  } catch {
    return file;
  }
}

/** Bigger is not one of our handoffs. */
export const MAX_STATUS_FILE_BYTES = 10 * 1024 * 1024;

/** `change` is null when the status already was that one. */
export type SetStatusResult = { ok: true; change: StatusChange | null } | { ok: false; message: string };

/** With `result_id`, the change holds only once that result is promoted to `<id>.md` (`statusEvents.ts`). */
export interface StatusChangeRequest {
  readonly at: string;
  readonly session_id: string;
  readonly result_id?: string;
}

/**
 * Records the change as its own event file, never touching the handoff, so branches merge cleanly; under the
 * handoff's lock, so concurrent changes are all kept. `{ok:false}` when nothing changed.
 */
export async function setHandoffStatus(file: string, to: SettableStatus, change: StatusChangeRequest): Promise<SetStatusResult> {
  try {
    return await withFileLock(file, (assertHeld) => setStatusLocked(file, to, change, assertHeld));
  } catch (err) {
    return { ok: false, message: `${(err as Error).message} (its status was not changed)` };
  }
}

async function setStatusLocked(file: string, to: SettableStatus, change: StatusChangeRequest, assertHeld: () => void): Promise<SetStatusResult> {
  const fh = await openRegularFile(file);
  if (!fh) {
    return { ok: false, message: `ERROR: ${file} is not a handoff file that can be changed (missing, a link or a special file)` };
  }
  let text: string;
  try {
    const size = (await fh.stat()).size;
    if (size > MAX_STATUS_FILE_BYTES) {
      return {
        ok: false,
        message: `ERROR: ${file} is ${formatBytes(size)}, larger than a handoff can be (${formatBytes(MAX_STATUS_FILE_BYTES)}); its status was not changed`,
      };
    }
    text = await fh.readFile('utf8');
  } catch (err) {
    return { ok: false, message: `ERROR: cannot read ${file}: ${fsCause(err).words}` };
  } finally {
    await fh.close().catch(() => undefined);
  }
  const parsed = parseHandoff(text);
  if (!parsed.ok) {
    return { ok: false, message: `ERROR: ${file}: not a valid handoff file: ${parsed.message} — its status was not changed` };
  }
  const events = await readStatusEvents(file);
  const fm = parsed.handoff.frontmatter;
  const from = effectiveStatus(fm.status, fm.status_history, events).status;
  // A result is recorded with its status even when the status stays the same: the pair is what a reader checks.
  if (from === to && change.result_id === undefined) {
    return { ok: true, change: null };
  }
  const entry: StatusChange = { from, to, at: change.at, session_id: change.session_id };
  try {
    assertHeld();
    await writeStatusEvent(file, entry, events.at(-1)?.name, new Date(), change.result_id);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  return { ok: true, change: entry };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
