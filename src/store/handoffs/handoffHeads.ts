// Handoff heads read in bulk: each file only up to its frontmatter's closing `---`, status events applied from ONE
// listing of `<root>/status/`. Synchronous reads in short slices: on a warm cache the libuv pool costs more than the reads.
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

/** Our frontmatters are far smaller; read up to {@link FRONTMATTER_READ_BYTES} only when it does not close within this. */
export const HEAD_FIRST_READ_BYTES = 8 * 1024;

export const HEAD_READ_CONCURRENCY = 64;

/** `ids` undefined when `<root>/status/` could not be listed (then every handoff's folder is looked into). */
export interface StatusFolders {
  readonly root: string;
  readonly ids: ReadonlySet<string> | undefined;
}

/** Never throws: a missing folder is no events, another error leaves `ids` undefined. */
export async function listStatusFolders(handoffRoot: string): Promise<StatusFolders> {
  try {
    return { root: handoffRoot, ids: new Set(await readdir(path.join(handoffRoot, STATUS_DIR))) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { root: handoffRoot, ids: code === 'ENOENT' || code === 'ENOTDIR' ? new Set() : undefined };
  }
}

/** Whether the text read so far settles the frontmatter: no leading fence, or a closing `---` line complete. */
function settled(text: string, atEnd: boolean): boolean {
  if (atEnd) return true;
  const fence = locateFrontmatter(text);
  if (fence === undefined) return text.includes('\n'); // the first line is whole: it is no fence
  if (fence === 'unclosed') return false;
  return fence.closeEnd < text.length || text.endsWith('\n');
}

/** Up to the frontmatter's closing `---` (may run into the body), not through a link, never blocking on a FIFO. Never throws. */
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

/** Reused across the files of one bulk read: the text is decoded before the next read. */
export interface HeadReadBuffers {
  readonly first: Buffer;
  whole?: Buffer;
}

export function headReadBuffers(): HeadReadBuffers {
  return { first: Buffer.allocUnsafe(HEAD_FIRST_READ_BYTES) };
}

/** {@link readHeadText} with synchronous calls: the same reads, so the same text. Never throws. */
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

/** Longest run of synchronous reads before the event loop gets a turn. */
export const HEAD_SLICE_MS = 4;
/** A synchronous read slower than this means a cold cache or a network disk. */
export const SLOW_HEAD_READ_MS = 2;
/** Slow reads after which the rest goes through the thread pool, if also over a fifth of reads so far (one in a few hundred is slow only because the thread lost its core). */
export const SLOW_HEAD_READS = 8;

/**
 * Reads synchronously in slices of {@link HEAD_SLICE_MS} until the disk proves slow, then through the pool (a
 * synchronous read would hold the event loop). `sync` tells `each` it may read more synchronously; it must not throw.
 */
export async function forEachHeadText(
  files: readonly string[],
  each: (index: number, text: string | undefined, sync: boolean) => void,
  slowReadMs = SLOW_HEAD_READ_MS,
): Promise<void> {
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

/** False only when the listing is of the file's own root and has no folder for its id. */
function mayHaveStatusEvents(file: string, status: StatusFolders | undefined): boolean {
  if (!status?.ids) return true;
  const parent = path.dirname(file);
  if (path.dirname(parent) !== status.root) return true;
  return status.ids.has(path.basename(file).replace(/(\.partial)?\.md$/, ''));
}

export interface ReadHeadsOptions {
  /** False: that file's head is undefined. */
  readonly parse?: (index: number, text: string) => boolean;
  readonly events?: (index: number) => boolean;
  readonly slowReadMs?: number;
}

/** Heads of ONE handoff root's files, in order; events read only for handoffs with a folder in `status`. Never throws. */
export async function readHeadsListed(
  files: readonly string[],
  status: StatusFolders | undefined,
  options: ReadHeadsOptions = {},
): Promise<(HandoffHead | undefined)[]> {
  const out = new Array<HandoffHead | undefined>(files.length).fill(undefined);
  const withEvents: number[] = [];
  await forEachHeadText(
    files,
    (k, text, sync) => {
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
    },
    options.slowReadMs,
  );
  await mapLimit(withEvents, HEAD_READ_CONCURRENCY, async (k) => {
    const head = out[k]!;
    out[k] = await withHeadStatusEvents(files[k], head, status).catch(() => head);
  });
  return out;
}

/** Applied to our handoffs (files in a `handoffs/` folder) only. Never throws. */
export async function withHeadStatusEvents(file: string, head: HandoffHead, status?: StatusFolders): Promise<HandoffHead> {
  return statusEventsApply(file, status) ? withEvents(head, await readStatusEvents(file)) : head;
}

/** Never throws. */
export function withHeadStatusEventsSync(file: string, head: HandoffHead, status?: StatusFolders): HandoffHead {
  return statusEventsApply(file, status) ? withEvents(head, readStatusEventsSync(file)) : head;
}

function statusEventsApply(file: string, status: StatusFolders | undefined): boolean {
  const where = statusFolderOf(file);
  return where !== undefined && !(status?.ids && status.root === where.root && !status.ids.has(where.id));
}

function withEvents(head: HandoffHead, events: Parameters<typeof effectiveStatus>[2]): HandoffHead {
  if (events.length === 0) return head;
  const eff = effectiveStatus(head.status, head.status_history, events);
  return { ...head, status: eff.status, status_history: eff.history };
}

/** Undefined when unreadable, without a closed frontmatter, or with an invalid head field. Never throws. */
export async function readHandoffHeadFields(file: string, status?: StatusFolders): Promise<HandoffHead | undefined> {
  const text = await readHeadText(file);
  const head = text === undefined ? undefined : parseHandoffHead(text);
  return head && (await withHeadStatusEvents(file, head, status).catch(() => head));
}

/** At most `limit` calls in flight, order kept. */
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

/** One status listing per handoff root among `files`, then the heads. Never throws. */
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
