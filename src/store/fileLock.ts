/**
 * Cross-process file locks of the store (docs/DESIGN.md §5): writers in several processes (two
 * windows, the CLI) are serialized per file with `proper-lockfile` wherever a write
 * depends on what is there — a briefing append and the read-modify-write of a status
 * change ({@link withFileLock}). Locks whose holder stopped refreshing them are taken over
 * after {@link LOCK_STALE_MS} (`lockLibrary.ts`); a lock folder left by a killed writer is
 * removed by the next write or lock in its folder with the other leftovers (`leftovers.ts`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { withLeftoversSwept } from './leftovers';
import { loadLockLibrary, lockOptions } from './lockLibrary';
import { StoreError, describeFsError } from './safeWrite';

export { LOCK_STALE_MS, LOCK_UPDATE_MS } from './lockLibrary';

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
 * How long a process lets others try first when it locks a file again right after releasing
 * it itself: 40 ms, longer than any waiter's longest wait between attempts
 * ({@link LOCK_RETRY_MAX_MS} × 1.5 jitter = 37.5 ms), so every waiter tries at least once.
 * proper-lockfile's lock is not fair: a process that changes one handoff's status again and
 * again took the lock straight back each time, before the other processes' next attempt, and
 * one of them waited out {@link LOCK_WAIT_MS} and failed (test/reliability/concurrency.test.ts:
 * three processes changing one status 60 times each). Only a re-lock within this time of the
 * same process's own release waits; any other lock is taken at once.
 */
export const LOCK_YIELD_MS = 40;

/** When this process last released each lock (lock folder path → ms, `Date.now()`), for {@link LOCK_YIELD_MS}; entries are removed once older than that. */
const releasedAt = new Map<string, number>();

/**
 * The lock of `file`: the folder `.<name>.lock` beside it (proper-lockfile locks with an
 * atomic `mkdir`). Its name starts with a dot and does not end in `.md`, so no reader
 * (handoff or timeline names, the `*.md` file watcher) ever takes it for a handoff or a
 * briefing. The file itself need not exist.
 */
export function lockPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.lock`);
}

/**
 * Runs `fn` while holding the cross-process lock of `file` ({@link lockPathFor}), so
 * writers in other windows and the CLI that lock the same file wait for it. Locking is
 * retried only while the lock is held by someone else (`ELOCKED`), for up to
 * {@link LOCK_WAIT_MS}, with waits from {@link LOCK_RETRY_MIN_MS} to
 * {@link LOCK_RETRY_MAX_MS}; a lock older than {@link LOCK_STALE_MS} without a refresh is
 * taken over; a process that locks the file again right after its own release first lets the
 * others try ({@link LOCK_YIELD_MS}). proper-lockfile's own `retries` are not used: they retry every error, so a
 * read-only or full disk would only be reported after the whole wait. The folder is swept of
 * stale leftovers meanwhile (`withLeftoversSwept`).
 *
 * @param fn gets `assertHeld`, to call right before a write: it throws when the lock was
 *   taken over meanwhile (the holder stalled past {@link LOCK_STALE_MS}), so the write is
 *   not made without it
 * @throws StoreError naming `file`: the lock stayed taken for {@link LOCK_WAIT_MS}, or the
 *   folder cannot be written (read-only, permissions …); whatever `fn` throws
 */
export function withFileLock<T>(file: string, fn: (assertHeld: () => void) => Promise<T>): Promise<T> {
  return withLeftoversSwept(path.dirname(file), () => lockAndRun(file, fn));
}

async function lockAndRun<T>(file: string, fn: (assertHeld: () => void) => Promise<T>): Promise<T> {
  const lockfile = await loadLockLibrary();
  const lockfilePath = lockPathFor(file);
  let compromised: Error | undefined;
  const options = lockOptions(lockfilePath, (err) => {
    compromised = err;
  });
  const justReleased = releasedAt.get(lockfilePath);
  if (justReleased !== undefined) {
    releasedAt.delete(lockfilePath);
    const wait = justReleased + LOCK_YIELD_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
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
    const now = Date.now();
    for (const [lock, at] of releasedAt) if (now - at > LOCK_YIELD_MS) releasedAt.delete(lock);
    releasedAt.set(lockfilePath, now);
  }
}
