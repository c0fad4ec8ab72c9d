// Verifications on disk (docs/DESIGN.md §9): `<handoff root>/verifications/<handoff id>/<time>_<8 hex>.json`, never
// edited, like status events. The latest in name order is what the timeline and the receiving prompt show.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { STATUS_EVENT_NAME, nextEventDate, statusEventFileName } from '../../core/handoff/statusEvents';
import { VERIFICATIONS_DIR, parseVerificationFile, renderVerificationFile, type Verification } from '../../core/receive/verification';
import { ensureSanitized, sanitizeValue } from '../../core/safety/gate';
import { resolveInside } from '../pathGuard';
import { ensureRootGitFiles } from './rootGitFiles';
import { StoreError, createExclusive, ensureDir, openRegularFile } from '../safeWrite';

/** Room for 100 rechecks of 2,000-character texts; ours are about 1 KiB. */
export const MAX_VERIFICATION_BYTES = 256 * 1024;
/** The newest by name. */
export const MAX_VERIFICATIONS = 1000;
const READ_CONCURRENCY = 16;

/** Undefined when the id does not pass the path guard. */
function folderOf(root: string, id: string): string | undefined {
  const dir = resolveInside(root, VERIFICATIONS_DIR, id);
  return dir.ok ? dir.path : undefined;
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => STATUS_EVENT_NAME.test(n)).sort();
  } catch {
    return [];
  }
}

/** Undefined when not a verification of handoff `id` (bad JSON, a link, too big). */
async function readOne(dir: string, name: string, id: string): Promise<Verification | undefined> {
  const fh = await openRegularFile(path.join(dir, name)).catch(() => undefined);
  if (!fh) return undefined;
  try {
    if ((await fh.stat()).size > MAX_VERIFICATION_BYTES) return undefined;
    return parseVerificationFile(name, await fh.readFile('utf8'), id);
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Oldest first, at most the newest {@link MAX_VERIFICATIONS}. Never throws. */
export async function readVerifications(root: string, id: string): Promise<Verification[]> {
  const dir = folderOf(root, id);
  if (!dir) return [];
  const out: Verification[] = [];
  for (const name of (await namesIn(dir)).slice(-MAX_VERIFICATIONS)) {
    const v = await readOne(dir, name, id);
    if (v) out.push(v);
  }
  return out;
}

async function newestIn(dir: string, id: string): Promise<Verification | undefined> {
  const names = await namesIn(dir);
  for (let i = names.length - 1; i >= 0 && i >= names.length - MAX_VERIFICATIONS; i--) {
    const v = await readOne(dir, names[i], id);
    if (v) return v;
  }
  return undefined;
}

/** The newest file that parses. Never throws. */
export async function latestVerification(root: string, id: string): Promise<Verification | undefined> {
  const dir = folderOf(root, id);
  return dir ? newestIn(dir, id) : undefined;
}

/** By handoff id; `verifications/` is listed once, so unverified handoffs cost nothing. Never throws. */
export async function latestVerifications(root: string): Promise<Map<string, Verification>> {
  const out = new Map<string, Verification>();
  const base = path.join(root, VERIFICATIONS_DIR);
  let ids: string[];
  try {
    ids = (await readdir(base, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return out;
  }
  for (let i = 0; i < ids.length; i += READ_CONCURRENCY) {
    const batch = ids.slice(i, i + READ_CONCURRENCY);
    const found = await Promise.all(batch.map((id) => newestIn(path.join(base, id), id)));
    batch.forEach((id, j) => {
      const v = found[j];
      if (v) out.set(id, v);
    });
  }
  return out;
}

/** Code points kept whole; ends in `…` when cut. */
function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${Array.from(text.slice(0, max - 1))
        .join('')
        .replace(/[\ud800-\udbff]$/, '')}…`;
}

/** Cut to the lengths {@link VerificationSchema} allows (an escaped invisible character is 8 characters long). */
function fitSchema(v: Verification): Verification {
  return {
    ...v,
    staleness: v.staleness.map((s) => clip(s, 2000)),
    rechecks: v.rechecks.map((r) => ({ ...r, command: clip(r.command, 2000), cwd: r.cwd === null ? null : clip(r.cwd, 4096), reason: clip(r.reason, 2000) })),
  };
}

/**
 * Named after `checked_at`, moved past the newest so name order stays time order. Each text is gated on its own:
 * gating the JSON text would write `\u{202e}`, which JSON cannot read back.
 * @throws StoreError when the id does not pass the path guard or the file cannot be written
 */
export async function writeVerification(root: string, v: Verification, now = new Date()): Promise<string> {
  const dir = folderOf(root, v.handoff_id);
  if (!dir)
    throw new StoreError(
      `ERROR: handoff id "${v.handoff_id.slice(0, 120)}" cannot name a folder under ${path.join(root, VERIFICATIONS_DIR)}; its verification cannot be recorded`,
    );
  await ensureDir(root, dir);
  await ensureRootGitFiles(root);
  const names = await namesIn(dir);
  const date = nextEventDate(v.checked_at, now, names[names.length - 1]);
  const content = await ensureSanitized(renderVerificationFile(fitSchema(await sanitizeValue(v))));
  for (let i = 0; i < 10; i++) {
    const target = path.join(dir, statusEventFileName(date, randomBytes(4).toString('hex')));
    if (await createExclusive(target, content)) return target;
  }
  throw new StoreError(`ERROR: could not find a free verification file name in ${dir}`);
}
