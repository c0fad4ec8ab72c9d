/**
 * Writes of the handoff root (docs/DESIGN.md §5):
 * - a handoff file is created exclusively, complete or not at all: written complete under
 *   `<id>.partial.md` (that name is the reservation of the id; `createExclusive`,
 *   `safeWrite.ts`), and renamed to `<id>.md` once everything that belongs to it is
 *   written. A name taken in the same millisecond retries with the next millisecond. A
 *   writer killed on the way leaves at most a `.partial.md` file;
 * - a briefing is append-only: created with its header the same way, then each section
 *   is appended with one `O_APPEND` write, so earlier bytes never change;
 * - a handoff file is never edited: a status change is an event file of its own
 *   (`statusEvents.ts`), written under the handoff's lock;
 * - writers in several processes are serialized per file (`withFileLock`, `fileLock.ts`)
 *   wherever a write depends on what is there: a briefing append and a status change.
 * One briefing section per file (`briefings/<briefing>/<id>.md`, docs/DESIGN.md §5), so
 * branches never edit the same briefing file.
 * Reading the handoffs back: `handoffIndex.ts`.
 */
import { constants as fsConstants } from 'node:fs';
import { lstat, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { HISTORY_DIR } from '../../core/handoff/naming';
import type { StatusChange } from '../../core/handoff/schema';
import { parseHandoff } from '../../core/handoff/parse';
import { fsCause } from '../../core/handoff/fsErrors';
import type { SettableStatus } from '../../core/handoff/status';
import { effectiveStatus } from '../../core/handoff/statusEvents';
import { sanitizeFileName, type Sanitized } from '../../core/safety/gate';
import { withFileLock } from '../fileLock';
import { resolveInside } from '../pathGuard';
import { sweepLeftovers } from '../leftovers';
import { NOFOLLOW, StoreError, createExclusive, describeFsError, ensureDir, gatedContent, openRegularFile, replaceFileAtomic } from '../safeWrite';
import { ensureRootGitFiles } from './rootGitFiles';
import { completeInterruptedHandoffs } from './interrupted';
import { readStatusEvents, writeStatusEvent } from './statusEvents';

/** How many successive milliseconds are tried when a handoff name is taken: 1,000. */
export const MAX_NAME_RETRIES = 1000;

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

/** `<id>.md` → `<id>.partial.md` (docs/DESIGN.md §5); other names get `.partial` appended. */
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
 * handoff as `.partial.md`, never as a complete-looking `<id>.md`. While the first attempt
 * renders, before anything is written, the handoff root (the parent of `dir`) gets its
 * `.gitignore` and `.gitattributes` lines (`rootGitFiles.ts`, which sweeps the root too),
 * `dir` and the root's `history/` are swept of what interrupted writers left (`sweepLeftovers`,
 * `leftovers.ts`), and handoffs interrupted after their briefing section was written are
 * completed (`interrupted.ts`).
 *
 * @param render returns the file name (`<id>.md`) and content for a given timestamp (the
 *   content carries the id and time, so it is rendered again for each attempt), both
 *   through the gate (`src/core/safety/gate.ts`; checked again here)
 * @throws StoreError naming the path and the cause
 */
export async function stageHandoffFile(
  workspaceRoot: string,
  dir: string,
  start: Date,
  render: (date: Date) => Promise<{ name: Sanitized; content: Sanitized }>,
): Promise<StagedFile> {
  await ensureDir(workspaceRoot, dir);
  // The handoff root's .gitignore and .gitattributes, and what interrupted writers left in
  // the folders a handoff writes (best effort both: a handoff is never refused for them; the
  // leftovers removed are only ever those of writers that are gone). They wait on the file
  // system while the first attempt renders, and are done before it writes anything, so the
  // .gitignore that hides temporary files is there before the first one is made.
  const root = path.relative(workspaceRoot, path.dirname(dir));
  const inWorkspace = !root.startsWith('..') && !path.isAbsolute(root);
  const housekeeping = Promise.all([
    inWorkspace ? ensureRootGitFiles(path.dirname(dir)) : undefined,
    sweepLeftovers(dir),
    inWorkspace ? sweepLeftovers(path.join(path.dirname(dir), HISTORY_DIR)) : undefined,
    inWorkspace ? completeInterruptedHandoffs(path.dirname(dir), dir) : undefined,
  ]);
  for (let i = 0; i < MAX_NAME_RETRIES; i++) {
    const date = new Date(start.getTime() + i);
    // Awaited even when rendering fails (thrown or rejected), so nothing runs on behind the caller.
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

/** Removes a staged handoff that will not be promoted (what belongs with it could not be written). Never throws. */
export async function discardStagedFile(staged: StagedFile): Promise<void> {
  await unlink(staged.path).catch(() => undefined);
}

/**
 * Replaces the content of a staged handoff (`<id>.partial.md`, the id reserved by
 * {@link stageHandoffFile}) atomically, before it is promoted: for a handoff that must not
 * link a file that could not be written. The file keeps the old content when this fails.
 *
 * @throws StoreError naming the path and the cause
 */
export async function restageHandoffFile(staged: StagedFile, content: Sanitized): Promise<void> {
  await replaceFileAtomic(staged.path, content);
}

/** Removes a staged handoff that is given up (`<id>.partial.md`, whose id it reserved). Never throws. */
export async function discardStagedHandoff(staged: StagedFile): Promise<void> {
  await unlink(staged.path).catch(() => undefined);
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

/** Briefing facts after an append (docs/DESIGN.md §4 result): absolute path, whether it existed, size in bytes. */
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
 * file had before it, so no torn section is left. The header and the section pass the gate
 * (`gatedContent`, `safeWrite.ts`), and so does the file's name.
 *
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

/**
 * Writes one briefing section as its own file (docs/DESIGN.md §5 "Briefings": one file per
 * section, `briefings/<briefing>/<handoff id>.md`): the briefing's `header`, then the
 * section, created whole or not at all (temporary file + hard link, {@link createExclusive}),
 * so a full disk or a file-size limit leaves no file and no torn section behind. Never
 * overwrites: the name holds the handoff's id, reserved by {@link stageHandoffFile}. Held
 * under the file's lock, as an append is, and `complete` (the handoff's rename to its complete
 * name) runs under it too: a writer killed before that leaves the lock to go stale, and the
 * next writer completes the handoff (`interrupted.ts`). When `complete` fails, the section,
 * whose link would lead nowhere, is taken back. Both parts and the file's name pass the gate.
 *
 * @returns the written file, `newly_created` true, `size_bytes` its size in bytes, and what `complete` returned
 * @throws StoreError naming the path and the cause, or that the file already exists; what
 *   `complete` throws, with `withdrawn` telling whether the section was taken back
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
  // Under the briefing lock like an append ({@link withFileLock}): a writer holding it (a killed one until it
  // goes stale) is waited for, and refused with the lock's own message after the wait.
  return withFileLock(file, async (assertHeld) => {
    assertHeld();
    if (!(await createExclusive(file, content))) {
      throw new StoreError(`ERROR: ${file} already exists — a briefing section is never overwritten; remove the file if it is not a handoff's section and try again`);
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

/**
 * Marks a handoff whose writing did not finish (docs/DESIGN.md §5): records a `partial` status
 * event (so the next writer does not complete it again: `interrupted.ts`), then renames `<id>.md`
 * to `<id>.partial.md`. Returns the new path, or the old one when the rename failed.
 */
export async function markPartial(file: string): Promise<string> {
  const target = file.replace(/\.md$/, '.partial.md');
  try {
    // Under the file's lock, so a status change in another process cannot write it back.
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

/** Largest handoff file whose status is changed: 10 MiB (a handoff is a briefing; bigger is not one of ours). */
export const MAX_STATUS_FILE_BYTES = 10 * 1024 * 1024;

/** Outcome of {@link setHandoffStatus}: the change made (null when the status already was that one). */
export type SetStatusResult = { ok: true; change: StatusChange | null } | { ok: false; message: string };

/**
 * A status change to make: when and by which session, and the result it comes with (its id;
 * the change then holds once that result is promoted to `<id>.md`: `statusEvents.ts`).
 */
export interface StatusChangeRequest {
  readonly at: string;
  readonly session_id: string;
  readonly result_id?: string;
}

/**
 * Sets the status of the handoff file `file` (docs/DESIGN.md §5 "Status"): the change is
 * recorded as its own event file, `status/<id>/<time>_<random>.json`
 * (`statusEvents.ts`), and the handoff file itself is not touched — so two branches that
 * change the same handoff merge without a conflict, each change kept in its history. The
 * current status (frontmatter plus events) is read and the event written under the
 * handoff's lock ({@link withFileLock}), so changes made at the same moment by other
 * processes are applied one after the other, none lost.
 *
 * @returns `{ok:false, message}` (starting with `ERROR:`) when the file is missing, not a
 *   regular file, too big, not a valid handoff, locked for longer than
 *   {@link LOCK_STUCK_MS}, or the event cannot be written — nothing changed then
 */
export async function setHandoffStatus(file: string, to: SettableStatus, change: StatusChangeRequest): Promise<SetStatusResult> {
  try {
    // Read-then-write: two processes changing the same handoff must not lose a change.
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
      return { ok: false, message: `ERROR: ${file} is ${formatBytes(size)}, larger than a handoff can be (${formatBytes(MAX_STATUS_FILE_BYTES)}); its status was not changed` };
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
