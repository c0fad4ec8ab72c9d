/**
 * Reads the timeline files for the `## Prior Agent Handoffs` block (docs/DESIGN.md §5) and
 * builds it with `priorHandoffsBlock` (src/core/timeline/priorHandoffs.ts): each file read
 * only as far as it could be shown, its exact size taken from the open file, the handoff
 * being picked up always read and kept. Entries that are not readable regular files (a
 * FIFO, a device, a symbolic link, which may lead out of the workspace) are skipped with a
 * warning, and a handoff of ours whose frontmatter does not parse is quoted with a warning
 * (docs/DESIGN.md §7: special files are never opened for reading). Never throws.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { parseHandoff } from '../core/handoff/parse';
import { FILE_SHARE, PINNED_SHARE, PRIOR_HANDOFFS_BUDGET_BYTES, priorHandoffsBlock, type PriorHandoffsFile } from '../core/timeline/priorHandoffs';
import type { TimelineFile } from '../core/timeline/chains';
import { withStatusEvents } from '../store/handoffs/statusEvents';
import { openRegularFile } from '../store/safeWrite';

/** What {@link priorHandoffsFor} built: the block, how many files it shows and dropped, and a `WARNING:` line per file skipped or quoted with a problem. */
export interface PriorHandoffsResult {
  readonly text: string;
  readonly included: number;
  readonly dropped: number;
  readonly warnings: string[];
}

/** Why an entry that is not a readable regular file was skipped, in words. */
async function whyUnreadable(file: string): Promise<string> {
  try {
    const st = await lstat(file);
    if (st.isSymbolicLink()) return 'it is a symbolic link (handoff files are never read through a link: it may lead to a device or out of the workspace)';
    if (st.isFIFO()) return 'it is a FIFO (named pipe), not a file';
    if (st.isCharacterDevice() || st.isBlockDevice()) return 'it is a device, not a file';
    if (st.isSocket()) return 'it is a socket, not a file';
    if (st.isDirectory()) return 'it is a folder, not a file';
    return 'it could not be opened for reading';
  } catch (err) {
    return `it could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/** The start of a regular file (at most `maxBytes`) and its exact size, or why it was not read. */
async function readStart(file: string, maxBytes: number): Promise<{ text: string; size: number } | { skipped: string }> {
  const fh = await openRegularFile(file);
  if (!fh) return { skipped: await whyUnreadable(file) };
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.min(size, maxBytes) + 4);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, bytesRead);
    // A NUL byte: not a handoff but a binary file under a handoff's name — not quoted.
    if (bytes.includes(0)) return { text: '_(a binary file, not shown)_', size: Buffer.byteLength('_(a binary file, not shown)_') };
    const text = bytes.toString('utf8');
    // A read cut inside a character decodes to U+FFFD at the end: drop it.
    return { text: bytesRead < size ? text.replace(/\uFFFD+$/, '') : text, size };
  } catch (err) {
    return { skipped: `it could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * The prior handoffs block: timeline files read newest first — the one at `pinnedPath`
 * (the handoff being picked up) first of all — each at most the budget's bytes, until the
 * shares of the files read surely fill the budget; the older ones are counted as dropped
 * without being read.
 *
 * @param pinnedPath absolute path of the handoff being picked up, kept whatever the others hold
 * @returns the block and a `WARNING:` line per entry skipped (FIFO, device, link) and per
 *   handoff of ours whose frontmatter does not parse
 */
export async function priorHandoffsFor(files: readonly TimelineFile[], budgetBytes = PRIOR_HANDOFFS_BUDGET_BYTES, pinnedPath?: string): Promise<PriorHandoffsResult> {
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const warnings: string[] = [];
  const read: PriorHandoffsFile[] = [];
  let spent = 0;
  let unread = 0;
  const pinnedIndex = pinnedPath === undefined ? -1 : sorted.findIndex((f) => path.resolve(f.path) === path.resolve(pinnedPath));
  const order = [...(pinnedIndex >= 0 ? [pinnedIndex] : []), ...[...sorted.keys()].reverse().filter((i) => i !== pinnedIndex)];
  for (const i of order) {
    const f = sorted[i];
    const pinned = i === pinnedIndex;
    if (!pinned && spent > budgetBytes) {
      unread++;
      continue;
    }
    const got = await readStart(f.path, budgetBytes);
    if ('skipped' in got) {
      warnings.push(`WARNING: prior handoff ${f.name} was skipped: ${got.skipped} — replace it with a regular file or remove it`);
      continue;
    }
    let note: string | undefined;
    if (f.source === 'handoff' && !got.text.startsWith('_(a binary file')) {
      const parsed = parseHandoff(got.text);
      if (!parsed.ok) {
        const problem = parsed.message.replace(/^ERROR:\s*/, '');
        warnings.push(`WARNING: prior handoff ${f.name}: its frontmatter cannot be read (${problem.slice(0, 300)}); it is quoted as written — fix the frontmatter or remove the file`);
        note = '_(its frontmatter cannot be read; quoted as written)_';
      } else {
        // Status changes are events beside the file (docs/DESIGN.md §5 "Status"), not edits of it:
        // the frontmatter quoted below shows the status it was written with, so say the current one.
        const current = await withStatusEvents(f.path, parsed.handoff).catch(() => parsed.handoff);
        if (current.frontmatter.status !== parsed.handoff.frontmatter.status) {
          const history = (current.frontmatter.status_history ?? []).map((c) => `${c.from} → ${c.to} at ${c.at}`).join('; ');
          note = `_(status now: ${current.frontmatter.status}, from its status events${history ? ` — ${history}` : ''}; the frontmatter below shows the status it was written with)_`;
        }
      }
    }
    read.push({ name: f.name, text: got.text, partial: f.partial, size: got.size, pinned, note });
    spent += Math.min(got.size, Math.floor(budgetBytes * (pinned ? PINNED_SHARE : FILE_SHARE)));
  }
  const block = priorHandoffsBlock(read, budgetBytes, unread);
  return { text: block.text, included: block.included, dropped: block.dropped, warnings };
}
