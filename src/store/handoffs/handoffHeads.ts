/**
 * Heads of handoff files, read in bulk (chain links of 10,000 files; the
 * insights' figures): a bounded read of each file's start, only up to its frontmatter's
 * closing `---` ({@link readHeadText}), the head fields taken by the fast reader of
 * src/core/handoff/frontmatterHead.ts (the `yaml` library for anything it does not
 * recognise), and our handoffs' status events applied (docs/DESIGN.md §5 "Status") with ONE
 * listing of `<handoff root>/status/` per bulk read ({@link listStatusFolders}), so only
 * handoffs that have an event folder are looked into — not one `readdir` per handoff.
 * Bulk reads ({@link readHeadsListed}) use synchronous calls in runs of at most
 * {@link HEAD_SLICE_MS} ({@link forEachHeadText}): on a warm cache the libuv pool's round
 * trips cost more than the reads; a slow disk sends the rest through the pool.
 */
import { close, closeSync, constants as fsConstants, fstat, fstatSync, open, openSync, read, readSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseHandoffHead, type HandoffHead } from '../../core/handoff/frontmatterHead';
import { locateFrontmatter } from '../../core/handoff/frontmatter';
import { STATUS_DIR, effectiveStatus } from '../../core/handoff/statusEvents';
import { NOFOLLOW } from '../safeWrite';
import { FRONTMATTER_READ_BYTES } from './handoffIndex';
import { readStatusEvents, readStatusEventsSync, statusFolderOf } from './statusEvents';

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

/** Buffers one bulk read reuses for {@link readHeadTextSync}: the first read's, and the larger one, made when a frontmatter runs past it. */
export interface HeadReadBuffers {
  readonly first: Buffer;
  whole?: Buffer;
}

/** Fresh buffers for one bulk read (never shared between calls). */
export function headReadBuffers(): HeadReadBuffers {
  return { first: Buffer.allocUnsafe(HEAD_FIRST_READ_BYTES) };
}

/**
 * {@link readHeadText} with synchronous calls on the calling thread: the same flags, the same
 * regular-file check (fstat), the same reads at the same positions, so the same text for
 * every file (test/unit/store/handoffHeads.test.ts compares both). The bytes go through
 * `buffers` (reused across files: the text is decoded before the next read).
 * @returns the text read, or undefined as {@link readHeadText}. Never throws.
 */
export function readHeadTextSync(file: string, buffers: HeadReadBuffers): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    let buf = buffers.first;
    let filled = 0;
    for (;;) {
      const n = readSync(fd, buf, filled, buf.length - filled, filled);
      filled += n;
      const text = buf.toString('utf8', 0, filled);
      if (n === 0 || filled !== buf.length || settled(text, false)) return text;
      if (buf.length >= FRONTMATTER_READ_BYTES) return text;
      const whole = (buffers.whole ??= Buffer.allocUnsafe(FRONTMATTER_READ_BYTES));
      buf.copy(whole, 0, 0, filled);
      buf = whole;
    }
  } catch {
    return undefined;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // closed or gone: nothing to give back
    }
  }
}

/** Longest run of synchronous head reads before the event loop gets a turn ({@link forEachHeadText}): 4 ms. */
export const HEAD_SLICE_MS = 4;
/** A synchronous head read (open to close) slower than this, 2 ms, is a slow one: a cold cache, a network disk. */
export const SLOW_HEAD_READ_MS = 2;
/**
 * Slow reads after which the rest of a bulk read goes through the thread pool
 * ({@link readHeadText}): 8, when they are also more than a fifth of the reads so far (one
 * read in a few hundred is slow on a busy machine only because the thread lost its core).
 */
export const SLOW_HEAD_READS = 8;

/**
 * Reads the heads' texts of many files and hands each to `each` (index, text or undefined
 * as {@link readHeadText}, and whether it was read synchronously — then `each` may read
 * more the same way) as it is read, in order. Files are read with synchronous calls in
 * runs of at most {@link HEAD_SLICE_MS} (then the event loop gets a turn: `setImmediate`),
 * because a file in the page cache costs a few microseconds that way, where each of the four
 * calls of an asynchronous read costs a round trip through the libuv pool; once
 * {@link SLOW_HEAD_READS} reads, and more than a fifth of them, were slower than
 * {@link SLOW_HEAD_READ_MS} (a cold cache, a network disk: a synchronous read would hold the
 * event loop) the rest are read through the pool, {@link HEAD_READ_CONCURRENCY} at once. `each` must not throw (it is the caller's:
 * catch inside). Nothing is kept across calls.
 * @param slowReadMs what a slow read is, in ms (default {@link SLOW_HEAD_READ_MS}; the tests pass -1 to take the pool's path)
 */
export async function forEachHeadText(files: readonly string[], each: (index: number, text: string | undefined, sync: boolean) => void, slowReadMs = SLOW_HEAD_READ_MS): Promise<void> {
  const buffers = headReadBuffers();
  let slow = 0;
  let k = 0;
  const slowDisk = () => slow >= SLOW_HEAD_READS && slow * 5 > k;
  while (k < files.length && !slowDisk()) {
    const sliceStart = performance.now();
    let now = sliceStart;
    do {
      const text = readHeadTextSync(files[k], buffers);
      if (performance.now() - now > slowReadMs) slow++;
      each(k++, text, true);
      now = performance.now();
    } while (k < files.length && now - sliceStart < HEAD_SLICE_MS && !slowDisk());
    if (k < files.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (k >= files.length) return;
  const rest = Array.from({ length: files.length - k }, (_, j) => k + j);
  await mapLimit(rest, HEAD_READ_CONCURRENCY, async (j) => each(j, await readHeadText(files[j]), false));
}

/**
 * Whether {@link withHeadStatusEvents} could change the head of `file` given `status`: false
 * only when the listing is of the file's own handoff root and has no folder for its id (the
 * same test, without building the folder's path), or the file is not in a `handoffs/` folder.
 */
function mayHaveStatusEvents(file: string, status: StatusFolders | undefined): boolean {
  if (!status?.ids) return true;
  const parent = path.dirname(file);
  if (path.dirname(parent) !== status.root) return true;
  return status.ids.has(path.basename(file).replace(/(\.partial)?\.md$/, ''));
}

/** What {@link readHeadsListed} reads of each file: whether to parse it (`parse`, default: all) and to apply its status events (`events`, default: all). */
export interface ReadHeadsOptions {
  /** Whether the text of file `index` is parsed at all (false: its head is undefined). */
  readonly parse?: (index: number, text: string) => boolean;
  /** Whether file `index` gets its status events applied. */
  readonly events?: (index: number) => boolean;
  /** What a slow read is, in ms ({@link forEachHeadText}; the tests pass -1 to take the pool's path). */
  readonly slowReadMs?: number;
}

/**
 * Reads the heads of many files of ONE handoff root (absolute paths, any order) with their
 * status events applied, given the root's listing (`status`: {@link listStatusFolders};
 * undefined: every handoff's folder is looked into): the texts by {@link forEachHeadText},
 * each parsed as it is read (`parseHandoffHead`), and the events of only the handoffs that
 * have a folder in the listing, read the same way as the head (synchronously, or after the
 * reads through the pool, {@link HEAD_READ_CONCURRENCY} at once).
 * @returns one entry per file, in the order given: the head as {@link readHandoffHeadFields}
 *   gives it with the same listing, or undefined. Never throws.
 */
export async function readHeadsListed(files: readonly string[], status: StatusFolders | undefined, options: ReadHeadsOptions = {}): Promise<(HandoffHead | undefined)[]> {
  const out = new Array<HandoffHead | undefined>(files.length).fill(undefined);
  const withEvents: number[] = [];
  await forEachHeadText(files, (k, text, sync) => {
    try {
      if (text === undefined || (options.parse && !options.parse(k, text))) return;
      const head = parseHandoffHead(text);
      if (!head) return;
      out[k] = head;
      if ((options.events && !options.events(k)) || !mayHaveStatusEvents(files[k], status)) return;
      if (!sync) return void withEvents.push(k);
      out[k] = withHeadStatusEventsSync(files[k], head, status);
    } catch {
      // a head that cannot be read is none; events that cannot be read are none
    }
  }, options.slowReadMs);
  await mapLimit(withEvents, HEAD_READ_CONCURRENCY, async (k) => {
    const head = out[k]!;
    out[k] = await withHeadStatusEvents(files[k], head, status).catch(() => head);
  });
  return out;
}

/**
 * A head with its status events applied ({@link effectiveStatus}): `status` the latest
 * change, `status_history` every change in time order — for our handoffs (files in a
 * `handoffs/` folder) only. With `status` (a listing of the same handoff root), a handoff
 * without an event folder there is not looked into. Never throws.
 */
export async function withHeadStatusEvents(file: string, head: HandoffHead, status?: StatusFolders): Promise<HandoffHead> {
  return statusEventsApply(file, status) ? withEvents(head, await readStatusEvents(file)) : head;
}

/** {@link withHeadStatusEvents} with synchronous reads (`readStatusEventsSync`): the same head. Never throws. */
export function withHeadStatusEventsSync(file: string, head: HandoffHead, status?: StatusFolders): HandoffHead {
  return statusEventsApply(file, status) ? withEvents(head, readStatusEventsSync(file)) : head;
}

/** Whether status events are read for a handoff file: it is in a `handoffs/` folder, and `status` (when it lists that root) has its folder. */
function statusEventsApply(file: string, status: StatusFolders | undefined): boolean {
  const where = statusFolderOf(file);
  return where !== undefined && !(status?.ids && status.root === where.root && !status.ids.has(where.id));
}

/** The head with its status events applied (docs/DESIGN.md §5 "Status"); the same head without events. */
function withEvents(head: HandoffHead, events: Parameters<typeof effectiveStatus>[2]): HandoffHead {
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
