/** The *Prior handoffs context* (after the itervox convention): the timeline's files within a byte budget, so one huge file cannot push out the others. */
import { formatCount } from '../handoff/limits';
import { plural } from '../handoff/text';

/** 30 KB of UTF-8, the itervox handoff convention. */
export const PRIOR_HANDOFFS_BUDGET_BYTES = 30 * 1024;

export const PRIOR_HANDOFFS_HEADING = '## Prior Agent Handoffs';

export const PARTIAL_LABEL = '(partial — the previous agent stopped before finishing it)';

export const NO_PRIOR_HANDOFFS = '_No prior handoffs: no earlier handoff files were found._';

/** UTF-8 bytes without allocating; a lone surrogate counts 3 (it encodes as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      bytes += 1;
    } else if (c < 0x800) {
      bytes += 2;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

/** The longest prefix of at most `maxBytes` UTF-8 bytes, cut between code points. */
export function cutUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) {
      return text.slice(0, i);
    }
    bytes += size;
    if (pair) {
      i++;
    }
  }
  return text;
}

/** "30 KB" for whole kibibytes, else "30,000 bytes". */
export function budgetWords(bytes: number): string {
  return bytes > 0 && bytes % 1024 === 0 ? `${formatCount(bytes / 1024)} KB` : plural(bytes, 'byte');
}

export function droppedMarker(dropped: number, budgetBytes: number): string {
  return `[${plural(dropped, 'earlier handoff')} dropped to fit the ${budgetWords(budgetBytes)} budget]`;
}

/** Most of the budget one file may take in the first pass; what is left over then goes to the cut files, newest first. */
export const FILE_SHARE = 1 / 4;
export const PINNED_SHARE = 1 / 2;

export interface PriorHandoffsFile {
  readonly name: string;
  /** Or its start, when only that was read. */
  readonly text: string;
  readonly partial: boolean;
  /** Exact size in bytes on disk, when `text` may be only its start. */
  readonly size?: number;
  /** The handoff being picked up: never dropped, and it gets the larger share. */
  readonly pinned?: boolean;
  readonly note?: string;
}

export interface PriorHandoffsBlock {
  readonly text: string;
  readonly included: number;
  readonly dropped: number;
  readonly truncated: boolean;
}

/**
 * `## Prior Agent Handoffs`, a dropped marker if any, then `### <name>` and the text of each file, oldest first: at most
 * `budgetBytes` of UTF-8. Files are taken newest first, the pinned one before all, each whole if it fits its share and what
 * is left, else cut to its share; the first that fits neither way ends the list, and it and the older ones are dropped
 * (never the pinned one). Leftover room then extends the cut files. Never throws.
 * @param namedBudgetBytes the budget the markers name, when the block has only part of it
 */
export function priorHandoffsBlock(
  files: ReadonlyArray<PriorHandoffsFile>,
  budgetBytes: number = PRIOR_HANDOFFS_BUDGET_BYTES,
  droppedBefore = 0,
  namedBudgetBytes: number = budgetBytes,
): PriorHandoffsBlock {
  const budget = Math.max(0, Math.floor(budgetBytes));
  const named = Math.max(0, Math.floor(namedBudgetBytes));
  const skipped = Math.max(0, Math.floor(droppedBefore));
  const fit = (text: string): string => (utf8Length(text) <= budget ? text : cutUtf8(text, budget));
  if (files.length === 0) {
    const body = skipped > 0 ? droppedMarker(skipped, named) : NO_PRIOR_HANDOFFS;
    return { text: fit(`${PRIOR_HANDOFFS_HEADING}\n\n${body}\n`), included: 0, dropped: skipped, truncated: false };
  }
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const n = sorted.length;
  const headOf = (f: PriorHandoffsFile): string => `### ${f.name}${f.partial ? ` ${PARTIAL_LABEL}` : ''}\n\n${f.note ? `${f.note}\n\n` : ''}`;
  const texts = sorted.map((f) => f.text.trimEnd());
  // A file read in full (no size given, or the text holds all its bytes) may be shown whole.
  const complete = sorted.map((f) => f.size === undefined || utf8Length(f.text) >= f.size);
  const sizes = sorted.map((f, i) => (f.size === undefined ? utf8Length(texts[i]) : Math.max(f.size, utf8Length(texts[i]))));
  const note = (i: number, shown: number): string =>
    `\n\n[… truncated: showing the first ${formatCount(shown)} of ${plural(sizes[i], 'byte')} of this handoff to fit the ${budgetWords(named)} budget]`;
  // Bytes of a section: its head, its text (whole, or `shown` bytes and the note), and the "\n\n" before it.
  const whole = (i: number): number => 2 + utf8Length(headOf(sorted[i])) + utf8Length(texts[i]);
  const isWhole = (i: number): boolean => complete[i];
  const frameOfCut = (i: number): number => 2 + utf8Length(headOf(sorted[i])) + utf8Length(note(i, sizes[i]));
  // Room for the heading, the final "\n" and the largest marker this call could write.
  const maxMarker = utf8Length(droppedMarker(skipped + n, named)) + 2;
  let room = budget - utf8Length(PRIOR_HANDOFFS_HEADING) - 1 - maxMarker;
  const order = [...sorted.keys()].sort((a, b) => Number(!!sorted[b].pinned) - Number(!!sorted[a].pinned) || b - a);
  const shown = new Map<number, number | 'whole'>();
  let stopped = false;
  for (const i of order) {
    if (stopped && !sorted[i].pinned) continue;
    const cap = Math.floor(budget * (sorted[i].pinned ? PINNED_SHARE : FILE_SHARE));
    if (isWhole(i) && whole(i) <= cap && whole(i) <= room) {
      shown.set(i, 'whole');
      room -= whole(i);
      continue;
    }
    if (whole(i) <= cap && !sorted[i].pinned) {
      // A file within its share that does not fit what is left: it and the older ones are dropped.
      stopped = true;
      continue;
    }
    const bytes = Math.min(Math.max(cap, frameOfCut(i) + 64), room) - frameOfCut(i);
    if (bytes >= Math.min(64, utf8Length(texts[i])) && bytes > 0) {
      shown.set(i, Math.min(bytes, utf8Length(texts[i])));
      room -= frameOfCut(i) + bytes;
    } else if (!sorted[i].pinned) {
      stopped = true;
    }
  }
  // Extend the cut files with what is left, pinned first, newest next.
  for (const i of order) {
    const s = shown.get(i);
    if (typeof s !== 'number' || room <= 0) continue;
    const full = utf8Length(texts[i]);
    if (isWhole(i) && whole(i) - frameOfCut(i) - s <= room && whole(i) <= frameOfCut(i) + s + room) {
      room -= whole(i) - frameOfCut(i) - s;
      shown.set(i, 'whole');
    } else {
      const more = Math.max(0, Math.min(room, full - s));
      shown.set(i, s + more);
      room -= more;
    }
  }
  // Shown files are the pinned one plus a run of the newest; the rest is dropped.
  const kept = [...shown.keys()].sort((a, b) => a - b);
  const dropped = skipped + n - kept.length;
  let truncated = false;
  const build = (): string => {
    truncated = false;
    const sections = kept.map((i) => {
      const v = shown.get(i);
      if (v === 'whole') return `${headOf(sorted[i])}${texts[i]}`;
      truncated = true;
      const part = cutUtf8(texts[i], v ?? 0);
      return `${headOf(sorted[i])}${part}${note(i, utf8Length(part))}`;
    });
    return [PRIOR_HANDOFFS_HEADING, ...(dropped > 0 ? [droppedMarker(dropped, named)] : []), ...sections].join('\n\n') + '\n';
  };
  let text = build();
  // The room kept for a longer marker than was written goes to the first file cut (pinned, else newest).
  const first = order.find((i) => typeof shown.get(i) === 'number');
  let best = utf8Length(text) <= budget ? text : undefined;
  for (let k = 0; first !== undefined && k < 8; k++) {
    const slack = budget - utf8Length(text);
    const v = shown.get(first) as number;
    if (slack === 0 || (slack > 0 && v >= utf8Length(texts[first]))) break;
    shown.set(first, Math.max(0, v + slack));
    text = build();
    if (utf8Length(text) <= budget && (best === undefined || utf8Length(text) > utf8Length(best))) best = text;
    else if (utf8Length(text) <= budget) break;
  }
  text = best ?? text;
  if (utf8Length(text) > budget) {
    return { text: fit(`${PRIOR_HANDOFFS_HEADING}\n\n${droppedMarker(skipped + n, named)}\n`), included: 0, dropped: skipped + n, truncated: false };
  }
  return { text, included: kept.length, dropped, truncated };
}
