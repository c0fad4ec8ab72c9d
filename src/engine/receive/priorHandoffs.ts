/**
 * Reads the timeline files for the `## Prior Agent Handoffs` block, each only as far as it could be shown. Special
 * files (FIFO, device, symbolic link) are never opened: skipped with a warning. Never throws.
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

export interface PriorHandoffsResult {
  readonly text: string;
  readonly included: number;
  readonly dropped: number;
  readonly warnings: string[];
}

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

type EntryMode = { readonly kind: 'whole' } | { readonly kind: 'compact'; readonly workspaceRoot: string };

function linkOf(workspaceRoot: string, file: string): string {
  const abs = path.isAbsolute(file) ? file : path.resolve(workspaceRoot, file);
  return path.relative(workspaceRoot, abs).split(path.sep).join('/');
}

/** Reads `order` (newest first) until the files' shares surely fill `budgetBytes`; the rest count as `unread`. */
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
        // Status changes are events beside the file, not edits of it.
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

function byName(files: readonly TimelineFile[]): TimelineFile[] {
  return [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every file as written (the MCP tool `prior_handoffs`); `pinnedPath` is kept whatever the others hold. */
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

export interface ReceivingHandoffs {
  /** Its body without frontmatter, or null when none was given or it was unreadable (a `WARNING:` says why). */
  readonly pickedUp: string | null;
  readonly prior: PriorHandoffsResult;
}

export interface ReceivingHandoffsOptions {
  /** The digests link their files relative to it. */
  readonly workspaceRoot: string;
  /** Shown in full, never among the prior handoffs. */
  readonly pickedUp?: { readonly id: string; readonly path: string };
  /** UTF-8 bytes for the picked-up handoff and the block together. */
  readonly budgetBytes?: number;
}

/**
 * The receiving prompt's handoffs within one budget: the picked-up one in full, reserving up to half of it
 * (`PINNED_SHARE`) and taking what the block leaves over; every other file under `## Prior Agent Handoffs`,
 * ours as digests, newest first until the budget is spent.
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
