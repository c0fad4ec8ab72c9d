/**
 * Reads the timeline files for the `## Prior Agent Handoffs` block (docs/DESIGN.md §5) and
 * builds it with `priorHandoffsBlock` (src/core/timeline/priorHandoffs.ts): each file read
 * only as far as it could be shown, its exact size taken from the open file. Two forms:
 * every file as written ({@link priorHandoffsFor}, the MCP tool `prior_handoffs`), and the
 * receiving prompt's ({@link receivingHandoffsFor}): the handoff picked up in
 * full without its frontmatter, and the others of ours as digests. Entries that are not
 * readable regular files (a FIFO, a device, a symbolic link, which may lead out of the
 * workspace) are skipped with a warning, and a handoff of ours whose frontmatter does not
 * parse is quoted with a warning (docs/DESIGN.md §7: special files are never opened for
 * reading). Never throws.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { splitFrontmatter } from '../../core/handoff/frontmatter';
import { parseHandoff } from '../../core/handoff/parse';
import { pickedUpHandoffText } from '../../core/receive/pickedUpHandoff';
import { priorHandoffDigest } from '../../core/timeline/priorDigest';
import {
  FILE_SHARE,
  PINNED_SHARE,
  PRIOR_HANDOFFS_BUDGET_BYTES,
  priorHandoffsBlock,
  utf8Length,
  type PriorHandoffsFile,
} from '../../core/timeline/priorHandoffs';
import type { TimelineFile } from '../../core/timeline/chains';
import { FRONTMATTER_READ_BYTES } from '../../store/handoffs/handoffIndex';
import { withStatusEvents } from '../../store/handoffs/statusEvents';
import { openRegularFile } from '../../store/safeWrite';

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

/** How {@link readEntries} shows a handoff of ours that parses: the file as written (`whole`), or its digest (`compact`). */
type EntryMode = { readonly kind: 'whole' } | { readonly kind: 'compact'; readonly workspaceRoot: string };

/** A timeline file's path relative to the workspace folder, `/`-separated: the link of its digest. */
function linkOf(workspaceRoot: string, file: string): string {
  const abs = path.isAbsolute(file) ? file : path.resolve(workspaceRoot, file);
  return path.relative(workspaceRoot, abs).split(path.sep).join('/');
}

/**
 * Reads the files of `order` (indexes into `sorted`, newest first) until the shares of the
 * files read surely fill `budgetBytes`; the older ones are counted in `unread`.
 */
async function readEntries(
  sorted: readonly TimelineFile[],
  order: readonly number[],
  pinnedIndex: number,
  budgetBytes: number,
  mode: EntryMode,
): Promise<{ read: PriorHandoffsFile[]; unread: number; warnings: string[] }> {
  const warnings: string[] = [];
  const read: PriorHandoffsFile[] = [];
  let spent = 0;
  let unread = 0;
  for (const i of order) {
    const f = sorted[i];
    const pinned = i === pinnedIndex;
    if (!pinned && spent > budgetBytes) {
      unread++;
      continue;
    }
    // A digest needs the frontmatter and the first sections: the head a handoff's frontmatter is read from (256 KiB).
    const got = await readStart(f.path, mode.kind === 'compact' ? Math.max(budgetBytes, FRONTMATTER_READ_BYTES) : budgetBytes);
    if ('skipped' in got) {
      warnings.push(`WARNING: prior handoff ${f.name} was skipped: ${got.skipped} — replace it with a regular file or remove it`);
      continue;
    }
    let note: string | undefined;
    let text = got.text;
    let size: number | undefined = got.size;
    const binary = got.text.startsWith('_(a binary file');
    // Our own format: our folder, or a copy in itervox's whose original is gone (docs/DESIGN.md §5 "Interop").
    const ours = !binary && (f.source === 'handoff' || (mode.kind === 'compact' && f.source === 'itervox' && got.text.startsWith('---')));
    if (ours) {
      const parsed = parseHandoff(got.text);
      if (!parsed.ok && f.source === 'handoff') {
        const problem = parsed.message.replace(/^ERROR:\s*/, '');
        warnings.push(
          `WARNING: prior handoff ${f.name}: its frontmatter cannot be read (${problem.slice(0, 300)}); it is quoted as written — fix the frontmatter or remove the file`,
        );
        note = '_(its frontmatter cannot be read; quoted as written)_';
      } else if (parsed.ok) {
        // Status changes are events beside the file (docs/DESIGN.md §5 "Status"), not edits of it.
        const current = await withStatusEvents(f.path, parsed.handoff).catch(() => parsed.handoff);
        const fm = current.frontmatter;
        if (mode.kind === 'compact') {
          text = priorHandoffDigest({
            id: fm.id,
            from: fm.from,
            to: fm.to,
            kind: fm.kind,
            status: fm.status,
            created: fm.created,
            topic: fm.topic_title || fm.topic,
            sections: parsed.handoff.sections,
            link: linkOf(mode.workspaceRoot, f.path),
          });
          size = undefined;
        } else if (fm.status !== parsed.handoff.frontmatter.status) {
          // The frontmatter quoted below shows the status it was written with, so say the current one.
          const history = (fm.status_history ?? []).map((c) => `${c.from} → ${c.to} at ${c.at}`).join('; ');
          note = `_(status now: ${fm.status}, from its status events${history ? ` — ${history}` : ''}; the frontmatter below shows the status it was written with)_`;
        }
      }
    }
    read.push({ name: f.name, text, partial: f.partial, size, pinned, note });
    spent += Math.min(size ?? utf8Length(text), Math.floor(budgetBytes * (pinned ? PINNED_SHARE : FILE_SHARE)));
  }
  return { read, unread, warnings };
}

/** Timeline files by name (chronological), compared by UTF-16 code unit. */
function byName(files: readonly TimelineFile[]): TimelineFile[] {
  return [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The prior handoffs block with every file as written (the MCP tool `prior_handoffs`):
 * timeline files read newest first — the one at `pinnedPath` first of all — each at most the
 * budget's bytes, until the shares of the files read surely fill the budget; the older ones
 * are counted as dropped without being read.
 *
 * @param pinnedPath absolute path of a handoff kept whatever the others hold
 * @returns the block and a `WARNING:` line per entry skipped (FIFO, device, link) and per
 *   handoff of ours whose frontmatter does not parse
 */
export async function priorHandoffsFor(
  files: readonly TimelineFile[],
  budgetBytes = PRIOR_HANDOFFS_BUDGET_BYTES,
  pinnedPath?: string,
): Promise<PriorHandoffsResult> {
  const sorted = byName(files);
  const pinnedIndex = pinnedPath === undefined ? -1 : sorted.findIndex((f) => path.resolve(f.path) === path.resolve(pinnedPath));
  const order = [...(pinnedIndex >= 0 ? [pinnedIndex] : []), ...[...sorted.keys()].reverse().filter((i) => i !== pinnedIndex)];
  const { read, unread, warnings } = await readEntries(sorted, order, pinnedIndex, budgetBytes, { kind: 'whole' });
  const block = priorHandoffsBlock(read, budgetBytes, unread);
  return { text: block.text, included: block.included, dropped: block.dropped, warnings };
}

/** What {@link receivingHandoffsFor} built: the handoff picked up, for the prompt, and the prior handoffs block. */
export interface ReceivingHandoffs {
  /**
   * The handoff picked up as `pickedUpHandoffText` shapes it (a `## ` heading, its body
   * without the frontmatter, cut only past its room), or null when none was given or its
   * file could not be read (then a `WARNING:` line says why).
   */
  readonly pickedUp: string | null;
  /** The `## Prior Agent Handoffs` block: every other timeline file, ours as digests. */
  readonly prior: PriorHandoffsResult;
}

/** Inputs of {@link receivingHandoffsFor} besides the timeline files. */
export interface ReceivingHandoffsOptions {
  /** Absolute path of the workspace folder: the digests link their files relative to it. */
  readonly workspaceRoot: string;
  /** The handoff being picked up: its id and absolute path. Shown in full, never under the prior handoffs. */
  readonly pickedUp?: { readonly id: string; readonly path: string };
  /** Bytes of UTF-8 the picked-up handoff and the block take together; default {@link PRIOR_HANDOFFS_BUDGET_BYTES} (30 KB). */
  readonly budgetBytes?: number;
}

/**
 * The handoffs of the receiving prompt ("A compact receiving prompt"; docs/DESIGN.md
 * §5 "Prior handoffs context"), within one budget (30 KB by default):
 *
 * - the handoff picked up, always kept: its body in full, without the frontmatter
 *   (`pickedUpHandoffText`), read from the file's first 256 KiB; it is left out of the
 *   prior handoffs, so it is not shown twice;
 * - every other timeline file under `## Prior Agent Handoffs`, newest first until the budget
 *   is spent, the oldest dropped first with the marker: a handoff or result of ours as its
 *   digest (`priorHandoffDigest`: id, from → to, the status now — its status events applied
 *   —, created, topic, summary, decisions, failed approaches and a link to the file); a file
 *   of ours whose frontmatter does not parse quoted as written with a warning; itervox and
 *   Agent Zero files (no frontmatter of ours) quoted as written, each capped at its share.
 *
 * Budget: the picked-up handoff first keeps room for itself up to half the budget
 * (`PINNED_SHARE`); the block gets the rest; what the block leaves over goes to the
 * picked-up handoff. Special files (FIFO, device, link) are skipped with a warning. Never
 * throws.
 */
export async function receivingHandoffsFor(files: readonly TimelineFile[], opts: ReceivingHandoffsOptions): Promise<ReceivingHandoffs> {
  const budget = Math.max(0, Math.floor(opts.budgetBytes ?? PRIOR_HANDOFFS_BUDGET_BYTES));
  const warnings: string[] = [];
  let body: { text: string; bodyBytes: number; complete: boolean } | undefined;
  if (opts.pickedUp) {
    const got = await readStart(opts.pickedUp.path, FRONTMATTER_READ_BYTES);
    if ('skipped' in got) {
      warnings.push(`WARNING: the handoff picked up, ${path.basename(opts.pickedUp.path)}, was not read: ${got.skipped}`);
    } else {
      const split = splitFrontmatter(got.text);
      const text = split.ok ? split.body : got.text;
      const bodyBytes = got.size - (utf8Length(got.text) - utf8Length(text));
      body = { text, bodyBytes, complete: utf8Length(text) >= bodyBytes };
    }
  }
  const pickedUpPath = opts.pickedUp ? path.resolve(opts.pickedUp.path) : undefined;
  const sorted = byName(files.filter((f) => path.resolve(f.path) !== pickedUpPath));
  const reserve = body ? Math.min(body.complete ? utf8Length(body.text) + 256 : budget, Math.floor(budget * PINNED_SHARE)) : 0;
  const blockBudget = budget - reserve;
  const read = await readEntries(sorted, [...sorted.keys()].reverse(), -1, blockBudget, { kind: 'compact', workspaceRoot: opts.workspaceRoot });
  warnings.push(...read.warnings);
  const block = priorHandoffsBlock(read.read, blockBudget, read.unread, budget);
  let pickedUp: string | null = null;
  if (opts.pickedUp && body) {
    pickedUp = pickedUpHandoffText(body.text, {
      id: opts.pickedUp.id,
      link: linkOf(opts.workspaceRoot, opts.pickedUp.path),
      maxBytes: budget - utf8Length(block.text),
      bodyBytes: body.bodyBytes,
      budgetBytes: budget,
    }).text;
  }
  return { pickedUp, prior: { text: block.text, included: block.included, dropped: block.dropped, warnings } };
}
