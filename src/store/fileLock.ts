// Cross-process file locks (docs/DESIGN.md §5): proper-lockfile's lock plus a queue of tickets beside it, so writers
// (windows, the CLI, agents) are served in arrival order; the library's lock alone is not fair under contention.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as ProperLockfile from 'proper-lockfile';
import { TICKET_NAME, machineTag, ticketWriterGone, withLeftoversSwept } from './leftovers';
import { LOCK_UPDATE_MS, loadLockLibrary, lockOptions } from './lockLibrary';
import { StoreError, describeFsError } from './safeWrite';

export { LOCK_STALE_MS, LOCK_UPDATE_MS } from './lockLibrary';

/** A writer gives up only when the writer ahead has not moved for this long (alive but stuck, e.g. a hung network drive). */
export const LOCK_STUCK_MS = 30_000;

/** Doubled up to {@link LOCK_RETRY_MAX_MS}, each wait jittered ×0.5–1.5. */
export const LOCK_RETRY_MIN_MS = 2;

/** Short, so a freed lock is noticed quickly. */
export const LOCK_RETRY_MAX_MS = 25;

/** `.<name>.lock` beside `file`: dot-prefixed and not `*.md`, so no reader or watcher takes it for a handoff. */
export function lockPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.lock`);
}

export function lockQueuePathFor(file: string): string {
  return `${lockPathFor(file)}-queue`;
}

/** A ticket that vanished meanwhile counts as gone. */
async function ticketGone(queue: string, name: string): Promise<boolean> {
  try {
    return await ticketWriterGone(name, Date.now() - (await stat(path.join(queue, name))).mtimeMs);
  } catch {
    return true;
  }
}

interface Ticket {
  readonly name: string;
  /** For a ticket removed as stale while this process stalled. */
  renew(): Promise<void>;
  leave(): Promise<void>;
}

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
        // A writer leaving the queue empty removed the folder: make it again.
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

async function ticketsIn(queue: string): Promise<string[]> {
  try {
    return (await readdir(queue)).filter((n) => TICKET_NAME.test(n)).sort();
  } catch {
    return [];
  }
}

/**
 * `fn` gets `assertHeld`, to call right before a write: it throws if the lock was taken over meanwhile.
 * @throws StoreError naming `file` when the writer ahead is stuck for {@link LOCK_STUCK_MS} or the folder cannot be written
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

async function acquireInTurn(
  lockfile: typeof ProperLockfile,
  file: string,
  options: ProperLockfile.LockOptions,
  queue: string,
  ticket: Ticket,
): Promise<() => Promise<void>> {
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
    // The writer ahead, else the lock's holder (which already left the queue).
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
