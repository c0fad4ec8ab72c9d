/**
 * Cross-process file locks of the store (docs/DESIGN.md §5): writers in several processes (two
 * windows, the CLI) are serialized per file with `proper-lockfile` wherever a write
 * depends on what is there — a briefing append and the read-modify-write of a status
 * change ({@link withFileLock}). Locks whose holder stopped refreshing them are taken over
 * after {@link LOCK_STALE_MS}; a lock folder left by a killed writer is removed with the
 * other leftovers (`removeStaleLeftovers`, `safeWrite.ts`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type * as ProperLockfile from 'proper-lockfile';
import { StoreError, describeFsError } from './safeWrite';

/**
 * Age after which a lock is taken over when its holder stopped refreshing it (it was
 * killed, or its machine slept): 2,000 ms, the smallest `stale` proper-lockfile accepts.
 * A briefing append or status change holds its lock for milliseconds, and a live holder
 * refreshes the lock's mtime every {@link LOCK_UPDATE_MS}, so only a dead holder's lock
 * gets this old; a lock left by a killed writer delays the next one by at most this long.
 */
export const LOCK_STALE_MS = 2000;

/** How often a live holder refreshes its lock's mtime: 1,000 ms (proper-lockfile's rule: at most half of {@link LOCK_STALE_MS}, at least 1 s). */
export const LOCK_UPDATE_MS = 1000;

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

type LockLibrary = typeof ProperLockfile;
let lockLibrary: Promise<LockLibrary> | undefined;

/** proper-lockfile, loaded on first use (it installs exit handlers; activation should not pay for that). */
function loadLockLibrary(): Promise<LockLibrary> {
  return (lockLibrary ??= import('proper-lockfile').then((lib) => {
    keepSigxfszHarmless();
    return lib;
  }));
}

/**
 * Keeps a write past the file-size limit (`ulimit -f`) an EFBIG error instead of a kill.
 * Node ignores SIGXFSZ, so such a write just fails and the caller cleans up (a briefing
 * append is truncated back to its size before). But proper-lockfile loads `signal-exit`
 * 3, which listens for SIGXFSZ and, when no other listener is there, re-raises it with
 * its default action: the process (the extension host, the CLI) was killed mid-append,
 * before the truncate-back, and left a torn briefing section cut at the limit (found by
 * test/reliability/diskFailures.test.ts).
 * signal-exit leaves a signal alone when someone else listens, so a listener of ours
 * that does nothing restores Node's behaviour. Not on Windows, which has no SIGXFSZ.
 */
function keepSigxfszHarmless(): void {
  if (process.platform !== 'win32' && !process.listeners('SIGXFSZ').includes(ignoreSignal)) {
    process.on('SIGXFSZ', ignoreSignal);
  }
}

function ignoreSignal(): void {
  // the failed write reports EFBIG; nothing to do here
}

/**
 * Runs `fn` while holding the cross-process lock of `file` ({@link lockPathFor}), so
 * writers in other windows and the CLI that lock the same file wait for it. Locking is
 * retried only while the lock is held by someone else (`ELOCKED`), for up to
 * {@link LOCK_WAIT_MS}, with waits from {@link LOCK_RETRY_MIN_MS} to
 * {@link LOCK_RETRY_MAX_MS}; a lock older than {@link LOCK_STALE_MS} without a refresh is
 * taken over; a process that locks the file again right after its own release first lets the
 * others try ({@link LOCK_YIELD_MS}). proper-lockfile's own `retries` are not used: they retry every error, so a
 * read-only or full disk would only be reported after the whole wait.
 *
 * @param fn gets `assertHeld`, to call right before a write: it throws when the lock was
 *   taken over meanwhile (the holder stalled past {@link LOCK_STALE_MS}), so the write is
 *   not made without it
 * @throws StoreError naming `file`: the lock stayed taken for {@link LOCK_WAIT_MS}, or the
 *   folder cannot be written (read-only, permissions …); whatever `fn` throws
 */
export async function withFileLock<T>(file: string, fn: (assertHeld: () => void) => Promise<T>): Promise<T> {
  const lockfile = await loadLockLibrary();
  const lockfilePath = lockPathFor(file);
  let compromised: Error | undefined;
  const options = {
    realpath: false,
    lockfilePath,
    stale: LOCK_STALE_MS,
    update: LOCK_UPDATE_MS,
    retries: 0,
    // The library's default throws from a timer, which would take the extension host down.
    onCompromised: (err: Error) => {
      compromised = err;
    },
  };
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
