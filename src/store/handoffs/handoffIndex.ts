// The handoff index (docs/DESIGN.md §5). A file that cannot be read or parsed counts as absent.
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { parseHandoffFileName, type HandoffFileName } from '../../core/handoff/naming';
import { parseHandoff, type ParsedHandoff } from '../../core/handoff/parse';
import { fsCause, fsCauseAt } from '../../core/handoff/fsErrors';
import { StoreError, openRegularFile } from '../safeWrite';
import { withStatusEvents } from './statusEvents';

export interface HandoffFileEntry extends HandoffFileName {
  readonly path: string;
  readonly name: string;
}

/** By name only, oldest first; a missing folder is an empty list. */
export async function listHandoffFiles(dir: string): Promise<HandoffFileEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return [];
    }
    const kind = fsCause(err).kind;
    const fix = kind === 'link-loop' ? ' — remove the link or point it at a real folder' : kind === 'denied' ? " — fix the folder's permissions" : '';
    throw new StoreError(`ERROR: cannot list ${dir}: ${await fsCauseAt(err, dir, realpath)}${fix}`);
  }
  // Code-unit order, then parsed in that order.
  names.sort();
  const entries: HandoffFileEntry[] = [];
  for (const name of names) {
    const parsed = parseHandoffFileName(name);
    if (parsed) {
      entries.push({ id: parsed.id, time: parsed.time, specialist: parsed.specialist, partial: parsed.partial, name, path: path.join(dir, name) });
    }
  }
  return entries;
}

export const FRONTMATTER_READ_BYTES = 256 * 1024;

/** With its status events applied; undefined when unreadable or malformed. */
export async function readHandoffHead(file: string): Promise<ParsedHandoff | undefined> {
  const fh = await openRegularFile(file);
  if (!fh) {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(FRONTMATTER_READ_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const parsed = parseHandoff(buf.subarray(0, bytesRead).toString('utf8'));
    return parsed.ok ? await withStatusEvents(file, parsed.handoff) : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** Newest complete handoff whose frontmatter parses; gives up after 20 unreadable files. */
export async function readLatestHandoff(dir: string): Promise<ParsedHandoff | undefined> {
  return (await readLatestHandoffFile(dir))?.handoff;
}

/** {@link readLatestHandoff} with its file: the one meaning of "latest". */
export async function readLatestHandoffFile(dir: string, listed?: readonly HandoffFileEntry[]): Promise<{ file: string; handoff: ParsedHandoff } | undefined> {
  const files = (listed ?? (await listHandoffFiles(dir).catch(() => []))).filter((f) => !f.partial).reverse();
  for (const f of files.slice(0, 20)) {
    const h = await readHandoffHead(f.path);
    if (h) {
      return { file: f.path, handoff: h };
    }
  }
  return undefined;
}

/** Newest complete `kind: handoff` (a result hands work back), to `specialist` if given. @throws StoreError when `dir` cannot be listed */
export async function readNewestHandoff(dir: string, specialist?: string, candidates = 50): Promise<{ file: string; handoff: ParsedHandoff } | undefined> {
  const files = (await listHandoffFiles(dir)).filter((f) => !f.partial && (!specialist || f.specialist === specialist)).reverse();
  for (const f of files.slice(0, candidates)) {
    const h = await readHandoffHead(f.path);
    if (h && h.frontmatter.kind === 'handoff') return { file: f.path, handoff: h };
  }
  return undefined;
}

export type FindHandoff = { ok: true; file: string; handoff: ParsedHandoff } | { ok: false; message: string };

/** `ref`: `latest`, an id (`2026-05-26T14-30-45.123Z_quality_reviewer`) or a file name. */
export async function findHandoff(dir: string, ref: string, noun = 'parent handoff'): Promise<FindHandoff> {
  const files = await listHandoffFiles(dir).catch(() => []);
  let match: HandoffFileEntry | undefined;
  if (ref === 'latest') {
    const latest = await readLatestHandoffFile(dir, files);
    if (latest) {
      return { ok: true, file: latest.file, handoff: latest.handoff };
    }
    match = [...files].reverse().find((f) => !f.partial);
  } else {
    const id = path.basename(ref).replace(/(\.partial)?\.md$/, '');
    match = files.find((f) => f.id === id);
  }
  if (!match) {
    const newest = files.length ? ` (the newest is ${files[files.length - 1].id})` : ' (there are none yet)';
    return { ok: false, message: `ERROR: ${noun} "${ref.slice(0, 120)}" not found in ${dir}${newest} — pass a handoff id, its file name, or "latest"` };
  }
  const handoff = await readHandoffHead(match.path);
  if (!handoff) {
    return { ok: false, message: `ERROR: ${noun} ${match.path} cannot be parsed — fix its frontmatter or pick another parent` };
  }
  return { ok: true, file: match.path, handoff };
}
