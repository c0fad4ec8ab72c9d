// proper-lockfile as the store uses it: a live holder refreshes its lock every LOCK_UPDATE_MS,
// so a lock older than LOCK_STALE_MS belongs to a holder that is gone (killed, or its machine slept).
import type * as ProperLockfile from 'proper-lockfile';

/** proper-lockfile's smallest `stale`; our locks are held for milliseconds, so only a dead holder's lock gets this old. */
export const LOCK_STALE_MS = 2000;

/** proper-lockfile requires at most half of {@link LOCK_STALE_MS} and at least 1 s. */
export const LOCK_UPDATE_MS = 1000;

type LockLibrary = typeof ProperLockfile;
let lockLibrary: Promise<LockLibrary> | undefined;

/** Loaded on first use: it installs exit handlers, and activation should not pay for that. */
export function loadLockLibrary(): Promise<LockLibrary> {
  return (lockLibrary ??= import('proper-lockfile').then((lib) => {
    keepSigxfszHarmless();
    return lib;
  }));
}

/**
 * Node ignores SIGXFSZ, so a write past `ulimit -f` fails with EFBIG and the caller truncates back.
 * proper-lockfile's signal-exit re-raises SIGXFSZ when no one else listens, killing the process
 * mid-append; a no-op listener of ours keeps Node's behaviour. Windows has no SIGXFSZ.
 */
function keepSigxfszHarmless(): void {
  if (process.platform !== 'win32' && !process.listeners('SIGXFSZ').includes(ignoreSignal)) {
    process.on('SIGXFSZ', ignoreSignal);
  }
}

function ignoreSignal(): void {
  // the failed write reports EFBIG; nothing to do here
}

/** `onCompromised`: the library's default throws from a timer, which would take the extension host down. */
export function lockOptions(lockfilePath: string, onCompromised: (err: Error) => void): ProperLockfile.LockOptions {
  return { realpath: false, lockfilePath, stale: LOCK_STALE_MS, update: LOCK_UPDATE_MS, retries: 0, onCompromised };
}

/** Takes a gone holder's lock over and releases it, which removes the folder; a live holder's lock is left alone. Never throws. */
export async function removeStaleLock(file: string, lockfilePath: string): Promise<boolean> {
  try {
    const lib = await loadLockLibrary();
    const release = await lib.lock(
      file,
      lockOptions(lockfilePath, () => undefined),
    );
    await release();
    return true;
  } catch {
    return false; // held by a live writer, or not a lock the library can take (a folder with files in it)
  }
}
