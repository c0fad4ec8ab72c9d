/**
 * proper-lockfile as the store uses it (docs/DESIGN.md §5): loaded on first use, with the
 * staleness rule every lock of ours follows — a live holder refreshes its lock folder's mtime
 * every {@link LOCK_UPDATE_MS}, and a lock not refreshed for {@link LOCK_STALE_MS} belongs to a
 * holder that is gone. Taking locks: `withFileLock` (`fileLock.ts`); removing the lock folder a
 * killed holder left: {@link removeStaleLock}, for the sweep of leftovers (`leftovers.ts`).
 */
import type * as ProperLockfile from 'proper-lockfile';

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

type LockLibrary = typeof ProperLockfile;
let lockLibrary: Promise<LockLibrary> | undefined;

/** proper-lockfile, loaded on first use (it installs exit handlers; activation should not pay for that). */
export function loadLockLibrary(): Promise<LockLibrary> {
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
 * The options of every lock of ours on the lock folder `lockfilePath`: no retries (the
 * caller decides), stale after {@link LOCK_STALE_MS}, refreshed every {@link LOCK_UPDATE_MS}.
 * @param onCompromised called when the lock was lost (taken over, its folder removed); the
 *   library's default throws from a timer, which would take the extension host down
 */
export function lockOptions(lockfilePath: string, onCompromised: (err: Error) => void): ProperLockfile.LockOptions {
  return { realpath: false, lockfilePath, stale: LOCK_STALE_MS, update: LOCK_UPDATE_MS, retries: 0, onCompromised };
}

/**
 * Removes the lock folder `lockfilePath` of `file` when its holder is gone: the library takes
 * the lock over only when it was not refreshed for {@link LOCK_STALE_MS} (its own rule, the
 * one every writer applies), and it is released at once, which removes the folder. A live
 * holder's lock is left alone. Never throws.
 * @returns whether the folder was removed
 */
export async function removeStaleLock(file: string, lockfilePath: string): Promise<boolean> {
  try {
    const lib = await loadLockLibrary();
    const release = await lib.lock(file, lockOptions(lockfilePath, () => undefined));
    await release();
    return true;
  } catch {
    return false; // held by a live writer, or not a lock the library can take (a folder with files in it)
  }
}
