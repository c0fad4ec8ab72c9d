/**
 * Heads of handoff files, read in bulk (issue 19: chain links of 10,000 files; issue 21: the
 * insights' figures): a bounded read of each file's start, only up to its frontmatter's
 * closing `---` ({@link readHeadText}), the head fields taken by the fast reader of
 * src/core/handoff/frontmatterHead.ts (the `yaml` library for anything it does not
 * recognise), and our handoffs' status events applied (docs/DESIGN.md §5 "Status") with ONE
 * listing of `<handoff root>/status/` per bulk read ({@link listStatusFolders}), so only
 * handoffs that have an event folder are looked into — not one `readdir` per handoff.
 */
import { close, constants as fsConstants, fstat, open, read } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseHandoffHead, type HandoffHead } from '../../core/handoff/frontmatterHead';
import { locateFrontmatter } from '../../core/handoff/frontmatter';
import { STATUS_DIR, effectiveStatus } from '../../core/handoff/statusEvents';
import { NOFOLLOW } from '../safeWrite';
import { FRONTMATTER_READ_BYTES } from './handoffIndex';
import { readStatusEvents, statusFolderOf } from './statusEvents';

export type { HandoffHead } from '../../core/handoff/frontmatterHead';

/** Bytes read first from a file's start: 8 KiB (our frontmatters are about 2 KiB); the rest, up to {@link FRONTMATTER_READ_BYTES}, only when the frontmatter does not close within them. */
export const HEAD_FIRST_READ_BYTES = 8 * 1024;

/** Files read at once by the bulk readers (the libuv pool has 4 threads; more in flight only queue). */
export const HEAD_READ_CONCURRENCY = 64;

/**
 * The handoff ids that have a status event folder under a handoff root, from one listing of
 * `<root>/status/`: `ids` undefined when the folder could not be listed for another reason
 * than being absent (then every handoff's folder is looked into, as without a listing).
 */
export interface StatusFolders {
  /** The handoff root (absolute) the listing is of. */
  readonly root: string;
  /** Names of the entries of `<root>/status/`; empty when it does not exist. */
  readonly ids: ReadonlySet<string> | undefined;
}

/**
 * Lists `<handoffRoot>/status/` once (names only). Never throws: a missing folder is no
 * events (`ids` empty), another error leaves `ids` undefined.
 */
export async function listStatusFolders(handoffRoot: string): Promise<StatusFolders> {
  try {
    return { root: handoffRoot, ids: new Set(await readdir(path.join(handoffRoot, STATUS_DIR))) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { root: handoffRoot, ids: code === 'ENOENT' || code === 'ENOTDIR' ? new Set() : undefined };
  }
}

/**
 * Whether the start of a file read so far settles its frontmatter: no leading fence line, or
 * a closing `---` line that ends before the text does (or at the end of the file).
 */
function settled(text: string, atEnd: boolean): boolean {
  if (atEnd) return true;
  const fence = locateFrontmatter(text);
  if (fence === undefined) return text.includes('\n'); // the first line is whole: it is no fence
  if (fence === 'unclosed') return false;
  return fence.closeEnd < text.length || text.endsWith('\n');
}

/**
 * Reads the start of a regular file (not through a link, never blocking on a FIFO) up to its
 * frontmatter's closing `---` line: {@link HEAD_FIRST_READ_BYTES} first, and up to
 * {@link FRONTMATTER_READ_BYTES} in all when the frontmatter is longer. One open, fstat,
 * read(s) and close on file descriptors (no FileHandle), the floor of a bulk read.
 * @returns the text read (UTF-8; may run past the frontmatter into the body), or undefined
 *   when the file is not a regular file or cannot be read. Never throws.
 */
export function readHeadText(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | NOFOLLOW, (openErr, fd) => {
      if (openErr) return resolve(undefined);
      const done = (text: string | undefined) => close(fd, () => resolve(text));
      fstat(fd, (statErr, st) => {
        if (statErr || !st.isFile()) return done(undefined);
        let buf = Buffer.allocUnsafe(HEAD_FIRST_READ_BYTES);
        let filled = 0;
        const more = () =>
          read(fd, buf, filled, buf.length - filled, filled, (readErr, n) => {
            if (readErr) return done(undefined);
            filled += n;
            const full = filled === buf.length;
            const text = buf.toString('utf8', 0, filled);
            if (n === 0 || !full || settled(text, false)) return done(text);
            if (buf.length >= FRONTMATTER_READ_BYTES) return done(text);
            const bigger = Buffer.allocUnsafe(FRONTMATTER_READ_BYTES);
            buf.copy(bigger, 0, 0, filled);
            buf = bigger;
            more();
          });
        more();
      });
    });
  });
}

/**
 * A head with its status events applied ({@link effectiveStatus}): `status` the latest
 * change, `status_history` every change in time order — for our handoffs (files in a
 * `handoffs/` folder) only. With `status` (a listing of the same handoff root), a handoff
 * without an event folder there is not looked into. Never throws.
 */
export async function withHeadStatusEvents(file: string, head: HandoffHead, status?: StatusFolders): Promise<HandoffHead> {
  const where = statusFolderOf(file);
  if (!where) return head;
  if (status?.ids && status.root === where.root && !status.ids.has(where.id)) return head;
  const events = await readStatusEvents(file);
  if (events.length === 0) return head;
  const eff = effectiveStatus(head.status, head.status_history, events);
  return { ...head, status: eff.status, status_history: eff.history };
}

/**
 * Reads the head of one handoff file ({@link readHeadText}, then `parseHandoffHead`) with its
 * status events applied ({@link withHeadStatusEvents}; pass `status` from
 * {@link listStatusFolders} when reading many files of one handoff root).
 * @returns the head, or undefined when the file is unreadable, has no closed frontmatter
 *   within {@link FRONTMATTER_READ_BYTES}, or a head field is missing or invalid. Never throws.
 */
export async function readHandoffHeadFields(file: string, status?: StatusFolders): Promise<HandoffHead | undefined> {
  const text = await readHeadText(file);
  const head = text === undefined ? undefined : parseHandoffHead(text);
  return head && (await withHeadStatusEvents(file, head, status).catch(() => head));
}

/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping the order.
 * Never rejects when `fn` never rejects.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Reads the heads of many handoff files (absolute paths, any order) with their status events
 * applied: one listing of `<handoff root>/status/` per handoff root among them, then one
 * bounded read per file ({@link HEAD_READ_CONCURRENCY} at once) and the events of only the
 * handoffs that have a folder there. Files outside a `handoffs/` folder get no events.
 * @returns one entry per file, in the order given: the head, or undefined as
 *   {@link readHandoffHeadFields}. Never throws.
 */
export async function readHandoffHeads(files: readonly string[]): Promise<(HandoffHead | undefined)[]> {
  const listings = new Map<string, Promise<StatusFolders>>();
  const statusOf = (file: string): Promise<StatusFolders> | undefined => {
    const where = statusFolderOf(file);
    if (!where) return undefined;
    let listing = listings.get(where.root);
    if (!listing) listings.set(where.root, (listing = listStatusFolders(where.root)));
    return listing;
  };
  return mapLimit(files, HEAD_READ_CONCURRENCY, async (file) => readHandoffHeadFields(file, await statusOf(file)));
}
