// Status events on disk (docs/DESIGN.md §5): `<handoff root>/status/<handoff id>/<time>_<8 hex>.json`, one file per
// change, created exclusively and never edited, so branches changing the same handoff merge without a conflict.
import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { HANDOFFS_DIR, parseFileTimestamp } from '../../core/handoff/naming';
import type { ParsedHandoff } from '../../core/handoff/parse';
import type { StatusChange } from '../../core/handoff/schema';
import {
  STATUS_DIR,
  STATUS_EVENT_NAME,
  effectiveStatus,
  nextEventDate,
  parseStatusEvent,
  renderStatusEvent,
  statusEventFileName,
  type NamedStatusEvent,
  type StatusEvent,
} from '../../core/handoff/statusEvents';
import { ensureSanitized } from '../../core/safety/gate';
import { resolveInside } from '../pathGuard';
import { ensureRootGitFiles } from './rootGitFiles';
import { NOFOLLOW, StoreError, createExclusive, ensureDir, openRegularFile } from '../safeWrite';
import { STALE_LEFTOVER_MS } from '../leftovers';

/** Ours are a few hundred bytes. */
export const MAX_STATUS_EVENT_BYTES = 4 * 1024;
/** The newest by name; a handoff changes status a few times. */
export const MAX_STATUS_EVENTS = 1000;

/** Undefined for a file outside a `handoffs/` folder (another tool's). */
export function statusFolderOf(file: string): { root: string; id: string; dir: string } | undefined {
  const parent = path.dirname(file);
  if (path.basename(parent) !== HANDOFFS_DIR) return undefined;
  const root = path.dirname(parent);
  const id = path.basename(file).replace(/(\.partial)?\.md$/, '');
  const dir = resolveInside(root, STATUS_DIR, id);
  return dir.ok ? { root, id, dir: dir.path } : undefined;
}

/** An event that comes with a result holds only once `handoffs/<result_id>.md` is a regular file. */
function resultHolds(root: string, event: StatusEvent): boolean {
  if (event.result_id === undefined) return true;
  const result = resolveInside(root, HANDOFFS_DIR, `${event.result_id}.md`);
  try {
    return result.ok && lstatSync(result.path).isFile();
  } catch {
    return false;
  }
}

/** Oldest first; only events that hold. Files that are not events of this handoff are skipped. Never throws. */
export async function readStatusEvents(file: string): Promise<NamedStatusEvent[]> {
  const where = statusFolderOf(file);
  return where ? (await readAllStatusEvents(file)).filter((e) => resultHolds(where.root, e.event)) : [];
}

/** Including events whose result is not written. */
async function readAllStatusEvents(file: string): Promise<NamedStatusEvent[]> {
  const where = statusFolderOf(file);
  if (!where) return [];
  let names: string[];
  try {
    names = (await readdir(where.dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const out: NamedStatusEvent[] = [];
  for (const name of names.slice(-MAX_STATUS_EVENTS)) {
    const fh = await openRegularFile(path.join(where.dir, name)).catch(() => undefined);
    if (!fh) continue;
    try {
      if ((await fh.stat()).size > MAX_STATUS_EVENT_BYTES) continue;
      const event = parseStatusEvent(name, await fh.readFile('utf8'), where.id);
      if (event) out.push({ name, event });
    } catch {
      // unreadable: skipped like a file that is not an event
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
  return out;
}

/** {@link readStatusEvents} with synchronous calls, for bulk reads: the same checks, so the same events. Never throws. */
export function readStatusEventsSync(file: string): NamedStatusEvent[] {
  const where = statusFolderOf(file);
  if (!where) return [];
  let names: string[];
  try {
    names = readdirSync(where.dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const out: NamedStatusEvent[] = [];
  for (const name of names.slice(-MAX_STATUS_EVENTS)) {
    let fd: number;
    try {
      fd = openSync(path.join(where.dir, name), fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | NOFOLLOW);
    } catch {
      continue;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > MAX_STATUS_EVENT_BYTES) continue;
      const event = parseStatusEvent(name, readFileSync(fd, 'utf8'), where.id);
      if (event && resultHolds(where.root, event)) out.push({ name, event });
    } catch {
      // unreadable: skipped like a file that is not an event
    } finally {
      try {
        closeSync(fd);
      } catch {
        // closed or gone
      }
    }
  }
  return out;
}

/** Unchanged when there are no events. */
export async function withStatusEvents(file: string, handoff: ParsedHandoff): Promise<ParsedHandoff> {
  const events = await readStatusEvents(file);
  if (events.length === 0) return handoff;
  const fm = handoff.frontmatter;
  const eff = effectiveStatus(fm.status, fm.status_history, events);
  return { ...handoff, frontmatter: { ...fm, status: eff.status, status_history: eff.history } };
}

/**
 * The caller holds the handoff's lock and has read the current status. Stale events of results never written are removed.
 * @param latestName so the new name sorts after it
 * @param resultId the change holds once `handoffs/<resultId>.md` is written
 */
export async function writeStatusEvent(
  file: string,
  change: StatusChange,
  latestName: string | undefined,
  now = new Date(),
  resultId?: string,
): Promise<string> {
  const where = statusFolderOf(file);
  if (!where) throw new StoreError(`ERROR: ${file} is not in a handoffs/ folder of a handoff root; its status cannot be recorded`);
  await ensureDir(where.root, where.dir);
  await ensureRootGitFiles(where.root);
  for (const orphan of (await readAllStatusEvents(file)).filter((e) => !resultHolds(where.root, e.event))) {
    const at = STATUS_EVENT_NAME.exec(orphan.name)?.[1];
    const written = at ? parseFileTimestamp(at) : undefined;
    if (written !== undefined && now.getTime() - written > STALE_LEFTOVER_MS) await unlink(path.join(where.dir, orphan.name)).catch(() => undefined);
  }
  const date = nextEventDate(change.at, now, latestName);
  const event: StatusEvent = {
    schema: 1,
    handoff_id: where.id,
    from: change.from,
    to: change.to,
    at: change.at,
    session_id: change.session_id,
    ...(resultId === undefined ? {} : { result_id: resultId }),
  };
  const content = await ensureSanitized(renderStatusEvent(event));
  for (let i = 0; i < 10; i++) {
    const target = path.join(where.dir, statusEventFileName(date, randomBytes(4).toString('hex')));
    if (await createExclusive(target, content)) return target;
  }
  throw new StoreError(`ERROR: could not find a free status event name in ${where.dir}`);
}
