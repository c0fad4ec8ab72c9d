/**
 * The handoff index (docs/DESIGN.md §5): the handoff files of a folder by name, their frontmatter
 * read from the start of each file, the latest complete one, and a handoff found by
 * reference (`latest`, an id or a file name). Reads only regular files (no link, FIFO or
 * device); a file that cannot be read or parsed counts as absent.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { parseHandoffFileName, type HandoffFileName } from '../../core/handoff/naming';
import { parseHandoff, type ParsedHandoff } from '../../core/handoff/parse';
import { fsCause, fsCauseAt } from '../../core/handoff/fsErrors';
import { StoreError, openRegularFile } from '../safeWrite';
import { withStatusEvents } from './statusEvents';

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
    const kind = fsCause(err).kind;
    const fix = kind === 'link-loop' ? ' — remove the link or point it at a real folder' : kind === 'denied' ? " — fix the folder's permissions" : '';
    throw new StoreError(`ERROR: cannot list ${dir}: ${await fsCauseAt(err, dir, realpath)}${fix}`);
  }
  // Names sorted as strings (code unit order, what comparing the entries' names with < gave), then parsed in that order.
  names.sort();
  const entries: HandoffFileEntry[] = [];
  for (const name of names) {
    const parsed = parseHandoffFileName(name);
    if (parsed) {
      entries.push({ id: parsed.id, time: parsed.time, specialist: parsed.specialist, partial: parsed.partial, name, path: path.join(dir, name) });
    }
  }
  return entries;
}

/** Bytes read from the start of a handoff file to find its frontmatter: 256 KiB. */
export const FRONTMATTER_READ_BYTES = 256 * 1024;

/**
 * Reads and parses the start of a handoff file (at most {@link FRONTMATTER_READ_BYTES}),
 * with its status events applied (`status` and `status_history` as the events say,
 * `statusEvents.ts`; docs/DESIGN.md §5 "Status").
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
    return parsed.ok ? await withStatusEvents(file, parsed.handoff) : undefined;
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

/**
 * The newest complete handoff of `dir` to pick up or verify: `kind: handoff` (a result hands
 * work back, there is nothing to take up), addressed to `specialist` when one is given; the
 * newest `candidates` files (default 50) are read.
 * @throws StoreError when `dir` cannot be listed (a missing folder is no handoff)
 */
export async function readNewestHandoff(dir: string, specialist?: string, candidates = 50): Promise<{ file: string; handoff: ParsedHandoff } | undefined> {
  const files = (await listHandoffFiles(dir)).filter((f) => !f.partial && (!specialist || f.specialist === specialist)).reverse();
  for (const f of files.slice(0, candidates)) {
    const h = await readHandoffHead(f.path);
    if (h && h.frontmatter.kind === 'handoff') return { file: f.path, handoff: h };
  }
  return undefined;
}

/** Outcome of {@link findHandoff}: the parsed handoff and its file, or a message naming what was looked for. */
export type FindHandoff = { ok: true; file: string; handoff: ParsedHandoff } | { ok: false; message: string };

/**
 * Finds a handoff in `dir` by reference: `latest` (the newest complete one), an id
 * (`2026-05-26T14-30-45.123Z_quality_reviewer`) or a file name (with `.md` or `.partial.md`).
 * @param noun what the caller calls the handoff it looks for, at the start of the error
 *   message: `parent handoff` (the default: `--parent` / `parent` of a new handoff) or
 *   `handoff` (the prompt's and the hand-back's `--handoff`)
 */
export async function findHandoff(dir: string, ref: string, noun = 'parent handoff'): Promise<FindHandoff> {
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
    return { ok: false, message: `ERROR: ${noun} "${ref.slice(0, 120)}" not found in ${dir}${newest} — pass a handoff id, its file name, or "latest"` };
  }
  const handoff = await readHandoffHead(match.path);
  if (!handoff) {
    return { ok: false, message: `ERROR: ${noun} ${match.path} cannot be parsed — fix its frontmatter or pick another parent` };
  }
  return { ok: true, file: match.path, handoff };
}
