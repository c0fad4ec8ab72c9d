/**
 * Cross-process file locks of the store (docs/DESIGN.md §5): writers in several processes (two
 * windows, the CLI, agents) are serialized per file wherever a write depends on what is there —
 * a briefing append and the read-modify-write of a status change ({@link withFileLock}) — and
 * served in the order they arrived. The lock itself is `proper-lockfile`'s (an atomic `mkdir`,
 * `lockLibrary.ts`); the order is a queue of tickets beside it, because the library's lock is not
 * fair: under contention one writer could take it back again and again while another waited out
 * its time. What killed writers leave (lock folders, tickets) goes with the other leftovers
 * (`leftovers.ts`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as ProperLockfile from 'proper-lockfile';
import { TICKET_NAME, machineTag, ticketWriterGone, withLeftoversSwept } from './leftovers';
import { LOCK_UPDATE_MS, loadLockLibrary, lockOptions } from './lockLibrary';
import { StoreError, describeFsError } from './safeWrite';

export { LOCK_STALE_MS, LOCK_UPDATE_MS } from './lockLibrary';

/**
 * How long a writer waits while the writer ahead of it does not move: 30,000 ms. Writers hold
 * a lock for milliseconds; the queue moves as long as each one finishes, however long it is,
 * so only a writer that is alive but stuck (a hung network drive) makes the ones behind it
 * give up, with an `ERROR:` naming it.
 */
export const LOCK_STUCK_MS = 30_000;

/** First wait between looks at the queue: 2 ms; doubled up to {@link LOCK_RETRY_MAX_MS}, each jittered ×0.5–1.5. */
export const LOCK_RETRY_MIN_MS = 2;

/** Longest wait between looks at the queue: 25 ms, so a freed lock is noticed quickly. */
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

/** The queue of `file`'s lock: the folder `.<name>.lock-queue` beside it, one ticket file per writer waiting or holding. */
export function lockQueuePathFor(file: string): string {
  return `${lockPathFor(file)}-queue`;
}

/** Whether the ticket `name` in `queue` belongs to a writer that is gone (`ticketWriterGone`); one that vanished meanwhile is gone. */
async function ticketGone(queue: string, name: string): Promise<boolean> {
  try {
    return await ticketWriterGone(name, Date.now() - (await stat(path.join(queue, name))).mtimeMs);
  } catch {
    return true;
  }
}

/** This process's place in a lock's queue: its ticket, kept fresh until {@link Ticket.leave}. */
interface Ticket {
  readonly name: string;
  /** Writes the ticket again under the same name (it was removed as stale while this process stalled). */
  renew(): Promise<void>;
  leave(): Promise<void>;
}

/** Joins the queue of a lock: a new ticket, refreshed every {@link LOCK_UPDATE_MS}. */
async function joinQueue(queue: string, file: string): Promise<Ticket> {
  const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${await machineTag()}-${randomBytes(4).toString('hex')}`;
  const full = path.join(queue, name);
  const write = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(queue, { recursive: true });
        await writeFile(full, '', { flag: 'wx', mode: 0o644 });
        return;
      } catch (err) {
        // The queue folder was removed by a writer leaving it empty: make it again.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 10) continue;
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
        throw new StoreError(describeFsError(err, file));
      }
    }
  };
  await write();
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(full, now, now).catch(() => undefined);
  }, LOCK_UPDATE_MS);
  refresh.unref();
  return {
    name,
    renew: write,
    leave: async () => {
      clearInterval(refresh);
      await unlink(full).catch(() => undefined);
      await rmdir(queue).catch(() => undefined); // only when no other writer waits
    },
  };
}

/** The ticket names in `queue`, oldest first. */
async function ticketsIn(queue: string): Promise<string[]> {
  try {
    return (await readdir(queue)).filter((n) => TICKET_NAME.test(n)).sort();
  } catch {
    return [];
  }
}

/**
 * Runs `fn` while holding the cross-process lock of `file` ({@link lockPathFor}), so writers
 * in other windows and the CLI that lock the same file wait for it, and are served in the
 * order they came: each takes a ticket in the lock's queue ({@link lockQueuePathFor}) and tries
 * the lock only when no live writer's ticket is ahead of its own. Tickets of writers that are
 * gone are removed by the writer behind them; a lock older than `LOCK_STALE_MS` without a
 * refresh is taken over. A writer gives up only when the writer ahead of it has not moved for
 * {@link LOCK_STUCK_MS}. The folder is swept of stale leftovers meanwhile (`withLeftoversSwept`).
 *
 * @param fn gets `assertHeld`, to call right before a write: it throws when the lock was
 *   taken over meanwhile (the holder stalled past {@link LOCK_STALE_MS}), so the write is
 *   not made without it
 * @throws StoreError naming `file`: the writer ahead did not move for {@link LOCK_STUCK_MS},
 *   or the folder cannot be written (read-only, permissions …); whatever `fn` throws
 */
export function withFileLock<T>(file: string, fn: (assertHeld: () => void) => Promise<T>): Promise<T> {
  return withLeftoversSwept(path.dirname(file), () => lockInTurnAndRun(file, fn));
}

async function lockInTurnAndRun<T>(file: string, fn: (assertHeld: () => void) => Promise<T>): Promise<T> {
  const lockfile = await loadLockLibrary();
  const queue = lockQueuePathFor(file);
  let compromised: Error | undefined;
  const options = lockOptions(lockPathFor(file), (err) => {
    compromised = err;
  });
  const ticket = await joinQueue(queue, file);
  let release: () => Promise<void>;
  try {
    release = await acquireInTurn(lockfile, file, options, queue, ticket);
  } catch (err) {
    await ticket.leave();
    throw err;
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
    await ticket.leave();
  }
}

/** Waits for `ticket`'s turn in `queue`, then takes the lock; see {@link withFileLock}. */
async function acquireInTurn(lockfile: typeof ProperLockfile, file: string, options: ProperLockfile.LockOptions, queue: string, ticket: Ticket): Promise<() => Promise<void>> {
  let ahead = '';
  let movedAt = Date.now();
  let delay = LOCK_RETRY_MIN_MS;
  for (;;) {
    const tickets = await ticketsIn(queue);
    if (!tickets.includes(ticket.name)) await ticket.renew();
    const first = tickets.find((n) => n < ticket.name);
    if (first !== undefined && (await ticketGone(queue, first))) {
      await unlink(path.join(queue, first)).catch(() => undefined);
      continue;
    }
    // What this writer waits for: the writer ahead, else the lock's holder (which left the queue).
    const waitingFor = first ?? '(lock)';
    if (waitingFor !== ahead) {
      ahead = waitingFor;
      movedAt = Date.now();
    }
    if (first === undefined) {
      try {
        return await lockfile.lock(file, options);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') {
          throw new StoreError(describeFsError(err, file));
        }
      }
    }
    if (Date.now() - movedAt > LOCK_STUCK_MS) {
      const pid = TICKET_NAME.exec(first ?? '')?.[2];
      throw new StoreError(
        `ERROR: ${file} is held by another writer${pid ? ` (process ${pid})` : ''} that has not finished for ${LOCK_STUCK_MS / 1000} s — nothing was written; try again, and if no other window or CLI is writing, remove the lock folder ${lockPathFor(file)}`,
      );
    }
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 2, LOCK_RETRY_MAX_MS);
  }
}
