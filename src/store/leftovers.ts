/**
 * What an interrupted write leaves, and its removal (docs/DESIGN.md §5 "Leftovers"): the one
 * mechanism for every folder the store writes.
 *
 * - Temporary files are named `.<target>.<pid>-<machine>.<12 hex>.tmp` ({@link tempPathFor}):
 *   hidden, never a handoff's or a briefing's name, matched by the handoff root's
 *   `.gitignore` (`.*.tmp`, `rootGitFiles.ts`), and carrying the writer's process id and
 *   this machine's tag ({@link machineTag}), so the sweep can tell whether the writer is gone.
 * - Lock folders are `.<name>.lock` (`fileLock.ts`), refreshed by a live holder; beside each,
 *   the queue of writers waiting for it, `.<name>.lock-queue/`, one ticket file per writer
 *   ({@link TICKET_NAME}), refreshed by its live writer.
 * - Every write through a temporary file or under a lock sweeps its folder at the same time
 *   ({@link withLeftoversSwept}: `createExclusive`, `replaceFileAtomic`, `withFileLock`), at
 *   most once per {@link SWEEP_EVERY_MS} per folder and process; the handoff root and its
 *   `history/` are swept by every handoff as well. The sweep removes only what is stale
 *   ({@link removeStaleLeftovers}), never a live writer's file, so it runs beside the write.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, readlink, rmdir, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { LOCK_STALE_MS, removeStaleLock } from './lockLibrary';

/**
 * Age after which a temporary file whose writer cannot be seen is removed: 10 minutes
 * (600,000 ms) — one written on another machine (a shared folder) or by a version that did
 * not name its writer. A write lasts milliseconds; a writer paused longer (its machine slept)
 * finds its temporary file gone and reports an `ERROR:`, its target untouched.
 */
export const STALE_LEFTOVER_MS = 10 * 60 * 1000;

/**
 * Age after which a temporary file is removed although a process of its writer's id runs on
 * this machine: 1 day (86,400,000 ms). No write lasts that long, so the id was reused.
 */
export const LIVE_PID_LEFTOVER_MS = 24 * 60 * 60 * 1000;

/**
 * A lock queue's ticket not refreshed for this long is its writer's leftover even when a process
 * of its id runs on this machine (the id reused, or a writer on another machine): 60,000 ms, far
 * more than a loaded machine delays a live writer's refresh (every `LOCK_UPDATE_MS`).
 */
export const TICKET_STALE_MS = 60_000;

/**
 * A lock queue's ticket (`fileLock.ts`): `<arrival ms, 15 digits>-<pid>-<machine>-<8 hex>`, an
 * empty file. Names sort by arrival; the process id and machine tell whether its writer is gone.
 */
export const TICKET_NAME = /^(\d{15})-(\d+)-([0-9a-f]{8})-[0-9a-f]{8}$/;

/** How often one process sweeps the same folder at most: 60,000 ms (a handoff writes a folder several times; each sweep lists it). */
export const SWEEP_EVERY_MS = 60 * 1000;

/** `.<target>.<pid>[-<machine>].<12 hex>.tmp` (without the machine: written before writers named it). */
const TEMP_NAME = /^\..+\.(\d+)(?:-([0-9a-f]{8}))?\.[0-9a-f]{12}\.tmp$/;
/** Lock folders of ours: `.<file>.md.lock` (handoffs, briefings), `..gitignore.lock`, `..gitattributes.lock`; and their queues (`.lock-queue`). */
const LOCK_NAME = /^\.(.+\.md|\.gitignore|\.gitattributes)\.lock$/;
const QUEUE_NAME = /^\.(.+\.md|\.gitignore|\.gitattributes)\.lock-queue$/;

let machine: Promise<string> | undefined;

/**
 * This machine's tag, 8 hex: a hash of the host name and, on Linux, the process-id namespace
 * (containers on one host may share a host name, not a process-id namespace). A process id in a
 * temporary file's name is checked only when the tag is this one.
 */
export function machineTag(): Promise<string> {
  return (machine ??= (async () => {
    const namespace = process.platform === 'linux' ? await readlink('/proc/self/ns/pid').catch(() => '') : '';
    return createHash('sha256').update(`${hostname()}\0${namespace}`).digest('hex').slice(0, 8);
  })());
}

/** A new temporary file beside `target` (see the module's comment), unique per process and call. */
export async function tempPathFor(target: string): Promise<string> {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${await machineTag()}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Whether a process with id `pid` may run on this machine: signal 0 checks without sending
 * anything. Only "no such process" (ESRCH) says no; another user's process (EPERM) is there.
 */
export function mayBeRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Whether the temporary file `name`, `ageMs` old, was left by a writer that is gone. */
async function isStaleTemp(name: string, ageMs: number, olderThanMs: number): Promise<boolean> {
  const m = TEMP_NAME.exec(name);
  if (!m) return false;
  const pid = Number(m[1]);
  if (m[2] === undefined || m[2] !== (await machineTag()) || !(pid > 0)) return ageMs > olderThanMs;
  if (pid !== process.pid && !mayBeRunning(pid)) return true;
  return ageMs > LIVE_PID_LEFTOVER_MS;
}

/**
 * Whether the writer of a lock queue's ticket is gone: its process no longer runs on this
 * machine, or the ticket was not refreshed for {@link TICKET_STALE_MS}.
 * @param ageMs how long ago the ticket was last refreshed (its mtime)
 */
export async function ticketWriterGone(name: string, ageMs: number): Promise<boolean> {
  const m = TICKET_NAME.exec(name);
  if (!m || ageMs > TICKET_STALE_MS) return true;
  return m[3] === (await machineTag()) && Number(m[2]) !== process.pid && !mayBeRunning(Number(m[2]));
}

/** Removes the tickets of gone writers from a lock's queue, then the queue when it is empty (a waiting writer keeps it); how many went. */
async function removeStaleTickets(queue: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(queue).catch(() => [] as string[])) {
    if (!TICKET_NAME.test(name)) continue;
    const full = path.join(queue, name);
    const st = await lstat(full).catch(() => undefined);
    if (st?.isFile() && (await ticketWriterGone(name, Date.now() - st.mtimeMs)) && (await unlink(full).then(() => true, () => false))) removed++;
  }
  if (await rmdir(queue).then(() => true, () => false)) removed++;
  return removed;
}

/**
 * Removes what interrupted writers left in `dir`: temporary files whose writer is gone (its
 * process no longer runs on this machine; written elsewhere or without an id: older than
 * `olderThanMs`, default {@link STALE_LEFTOVER_MS}), and lock folders their holder stopped
 * refreshing (taken over and released through proper-lockfile, `removeStaleLock`), and the
 * tickets of gone writers in lock queues, with the queue once empty. A file of
 * a live writer, this process's own included, is never touched, nor anything whose name is
 * not one of ours. Best effort: never throws.
 *
 * @returns how many leftovers were removed
 */
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
      if (QUEUE_NAME.test(name)) return (await lstat(full).then((st) => st.isDirectory(), () => false)) && (await removeStaleTickets(full)) > 0;
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

/** Sweeps in progress or done lately, by folder: the sweep's promise and when it started (ms). */
const sweeps = new Map<string, { readonly done: Promise<number>; readonly at: number }>();

/**
 * Sweeps `dir` ({@link removeStaleLeftovers}) unless this process did so in the last
 * {@link SWEEP_EVERY_MS}: a sweep in progress is joined. Never rejects.
 * @returns how many leftovers this call's sweep removed (0 when it joined or skipped one)
 */
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
 * Runs `write` (a write into the folder `dir`) while `dir` is swept ({@link sweepLeftovers});
 * returns once both are done, so nothing runs on behind the caller.
 */
export async function withLeftoversSwept<T>(dir: string, write: () => Promise<T>): Promise<T> {
  const sweep = sweepLeftovers(dir);
  try {
    return await write();
  } finally {
    await sweep;
  }
}
