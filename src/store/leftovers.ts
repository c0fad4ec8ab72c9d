// Leftovers of interrupted writes (docs/DESIGN.md §5): temporary files `.<target>.<pid>-<machine>.<12 hex>.tmp`, lock folders
// `.<name>.lock` and their ticket queues `.<name>.lock-queue/`. Every write sweeps its folder, removing only what a gone writer left.
import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, readlink, rmdir, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { LOCK_STALE_MS, removeStaleLock } from './lockLibrary';

/** For a temporary file whose writer cannot be checked (another machine, no machine tag); a writer paused longer fails, its target untouched. */
export const STALE_LEFTOVER_MS = 10 * 60 * 1000;

/** No write lasts this long, so a process with the writer's id is a reused id. */
export const LIVE_PID_LEFTOVER_MS = 24 * 60 * 60 * 1000;

/** A ticket not refreshed for this long is a leftover even if its pid runs (reused id, or another machine). */
export const TICKET_STALE_MS = 60_000;

/** A lock queue's ticket, an empty file: `<arrival ms, 15 digits>-<pid>-<machine>-<8 hex>`; names sort by arrival. */
export const TICKET_NAME = /^(\d{15})-(\d+)-([0-9a-f]{8})-[0-9a-f]{8}$/;

/** Per folder and process: a handoff writes a folder several times and each sweep lists it. */
export const SWEEP_EVERY_MS = 60 * 1000;

/** `.<target>.<pid>[-<machine>].<12 hex>.tmp`; without a machine tag the pid cannot be checked. */
const TEMP_NAME = /^\..+\.(\d+)(?:-([0-9a-f]{8}))?\.[0-9a-f]{12}\.tmp$/;
const LOCK_NAME = /^\.(.+\.md|\.gitignore|\.gitattributes)\.lock$/;
const QUEUE_NAME = /^\.(.+\.md|\.gitignore|\.gitattributes)\.lock-queue$/;

let machine: Promise<string> | undefined;

/** Hash of the host name and, on Linux, the pid namespace (containers may share a host name). */
export function machineTag(): Promise<string> {
  return (machine ??= (async () => {
    const namespace = process.platform === 'linux' ? await readlink('/proc/self/ns/pid').catch(() => '') : '';
    return createHash('sha256').update(`${hostname()}\0${namespace}`).digest('hex').slice(0, 8);
  })());
}

export async function tempPathFor(target: string): Promise<string> {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${await machineTag()}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Signal 0 only checks. EPERM means another user's process, so only ESRCH says no. */
export function mayBeRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function isStaleTemp(name: string, ageMs: number, olderThanMs: number): Promise<boolean> {
  const m = TEMP_NAME.exec(name);
  if (!m) return false;
  const pid = Number(m[1]);
  if (m[2] === undefined || m[2] !== (await machineTag()) || !(pid > 0)) return ageMs > olderThanMs;
  if (pid !== process.pid && !mayBeRunning(pid)) return true;
  return ageMs > LIVE_PID_LEFTOVER_MS;
}

export async function ticketWriterGone(name: string, ageMs: number): Promise<boolean> {
  const m = TICKET_NAME.exec(name);
  if (!m || ageMs > TICKET_STALE_MS) return true;
  return m[3] === (await machineTag()) && Number(m[2]) !== process.pid && !mayBeRunning(Number(m[2]));
}

async function removeStaleTickets(queue: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(queue).catch(() => [] as string[])) {
    if (!TICKET_NAME.test(name)) continue;
    const full = path.join(queue, name);
    const st = await lstat(full).catch(() => undefined);
    if (
      st?.isFile() &&
      (await ticketWriterGone(name, Date.now() - st.mtimeMs)) &&
      (await unlink(full).then(
        () => true,
        () => false,
      ))
    )
      removed++;
  }
  if (
    await rmdir(queue).then(
      () => true,
      () => false,
    )
  )
    removed++;
  return removed;
}

/** Never touches a live writer's file (this process's included) or a name not ours. Never throws; returns the count. */
export async function removeStaleLeftovers(dir: string, olderThanMs = STALE_LEFTOVER_MS): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const now = Date.now();
  const removed = await Promise.all(
    names.map(async (name) => {
      const lock = LOCK_NAME.exec(name);
      const full = path.join(dir, name);
      if (QUEUE_NAME.test(name))
        return (
          (await lstat(full).then(
            (st) => st.isDirectory(),
            () => false,
          )) && (await removeStaleTickets(full)) > 0
        );
      if (!lock && !TEMP_NAME.test(name)) return false;
      try {
        const st = await lstat(full);
        if (lock) return st.isDirectory() && now - st.mtimeMs > LOCK_STALE_MS && (await removeStaleLock(path.join(dir, lock[1]), full));
        if (!st.isFile() || !(await isStaleTemp(name, now - st.mtimeMs, olderThanMs))) return false;
        await unlink(full);
        return true;
      } catch {
        return false; // gone meanwhile, or not ours to remove
      }
    }),
  );
  return removed.filter(Boolean).length;
}

const sweeps = new Map<string, { readonly done: Promise<number>; readonly at: number }>();

/** At most once per {@link SWEEP_EVERY_MS} per folder; joins a sweep in progress. Resolves to 0 when it did not sweep. */
export function sweepLeftovers(dir: string): Promise<number> {
  const key = path.resolve(dir);
  const now = Date.now();
  const last = sweeps.get(key);
  if (last && now - last.at < SWEEP_EVERY_MS) return last.done.then(() => 0);
  for (const [k, s] of sweeps) if (now - s.at >= SWEEP_EVERY_MS) sweeps.delete(k);
  const done = removeStaleLeftovers(key);
  sweeps.set(key, { done, at: now });
  return done;
}

/**
 * Sweeps `parent` and each folder in it (not through links). A briefing folder is written only by handoffs of its specialist,
 * topic and day, so what a killed writer left there would wait for the next such handoff, maybe for ever.
 */
export async function sweepFolderAndSubfolders(parent: string): Promise<number> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const counts = await Promise.all([sweepLeftovers(parent), ...entries.filter((e) => e.isDirectory()).map((e) => sweepLeftovers(path.join(parent, e.name)))]);
  return counts.reduce((a, b) => a + b, 0);
}

/** Awaits the sweep too, so nothing runs on behind the caller. */
export async function withLeftoversSwept<T>(dir: string, write: () => Promise<T>): Promise<T> {
  const sweep = sweepLeftovers(dir);
  try {
    return await write();
  } finally {
    await sweep;
  }
}
