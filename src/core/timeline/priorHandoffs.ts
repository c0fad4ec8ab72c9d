/**
 * The *Prior handoffs context* (docs/DESIGN.md §5, after the itervox handoff convention): every
 * timeline file under `## Prior Agent Handoffs` within a byte budget, each file's share
 * capped so one huge file cannot push out the others, the handoff being picked up always
 * kept, and every cut saying the file's exact size. Pure: the engine reads the files
 * (src/engine/priorHandoffs.ts).
 */
import { formatCount, plural } from '../handoff/render';

/** Budget of the prior-handoffs block: 30 KB = 30,720 bytes of UTF-8 (itervox handoff convention, docs/DESIGN.md §5). */
export const PRIOR_HANDOFFS_BUDGET_BYTES = 30 * 1024;

/** Heading of the prior-handoffs block (itervox handoff convention, docs/DESIGN.md §5). */
export const PRIOR_HANDOFFS_HEADING = '## Prior Agent Handoffs';

/** Label appended to the heading of a partial file (our wording; the itervox convention marks partials the same way). */
export const PARTIAL_LABEL = '(partial — the previous agent stopped before finishing it)';

/** Body of the block when there is nothing to show. */
export const NO_PRIOR_HANDOFFS = '_No prior handoffs: no earlier handoff files were found._';

/**
 * Size of a string encoded as UTF-8, in bytes, without allocating. A lone surrogate
 * counts 3 bytes (it encodes as U+FFFD, as `TextEncoder` does).
 */
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

/**
 * The longest prefix of `text` whose UTF-8 encoding is at most `maxBytes` bytes, cut
 * between code points (never inside a surrogate pair), so the result encodes to valid
 * UTF-8. `maxBytes` ≤ 0 gives `''`.
 */
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

/** A budget in words, as the markers name it: "30 KB" for whole kibibytes, else "30,000 bytes". */
export function budgetWords(bytes: number): string {
  return bytes > 0 && bytes % 1024 === 0 ? `${formatCount(bytes / 1024)} KB` : plural(bytes, 'byte');
}

/** The marker line under the heading when older files were dropped, e.g. `[12 earlier handoffs dropped to fit the 30 KB budget]`. */
export function droppedMarker(dropped: number, budgetBytes: number): string {
  return `[${plural(dropped, 'earlier handoff')} dropped to fit the ${budgetWords(budgetBytes)} budget]`;
}

/** Most of the budget one file may take in the first pass: a quarter (7,680 bytes of 30 KB); what is left over goes to the files cut, newest first. */
export const FILE_SHARE = 1 / 4;
/** Most of the budget the handoff being picked up may take in the first pass: a half. */
export const PINNED_SHARE = 1 / 2;

/** One timeline file for {@link priorHandoffsBlock}. */
export interface PriorHandoffsFile {
  /** Bare file name, shown as the `###` heading. */
  readonly name: string;
  /** The file's text, or its start when only that was read. */
  readonly text: string;
  /** A `.partial.md` file: labelled partial. */
  readonly partial: boolean;
  /** The file's exact size in bytes on disk, when `text` may be only its start; default: the bytes of `text`. */
  readonly size?: number;
  /** The handoff being picked up: never dropped, and it gets the larger share. */
  readonly pinned?: boolean;
  /** A line shown under the heading, e.g. that its frontmatter could not be read. */
  readonly note?: string;
}

/** What {@link priorHandoffsBlock} built: the Markdown, how many files it shows (in full or cut) and how many it dropped. */
export interface PriorHandoffsBlock {
  readonly text: string;
  readonly included: number;
  readonly dropped: number;
  /** True when a file shown was cut to fit. */
  readonly truncated: boolean;
}

/**
 * Builds the block. Layout, `\n` line ends, blocks separated by one blank line:
 * ```
 * ## Prior Agent Handoffs
 *
 * [N earlier handoffs dropped to fit the 30 KB budget]   ← only when N > 0
 *
 * ### <name>                                              ← partial: `### <name> (partial — …)`
 *
 * <text, trailing whitespace removed>
 * ```
 * and one final `\n`; files sorted by name (chronological), compared by UTF-16 code unit.
 *
 * Budget: the whole returned text is at most `budgetBytes` bytes of UTF-8 (default
 * {@link PRIOR_HANDOFFS_BUDGET_BYTES}, 30 KB, the itervox handoff convention). Files are
 * taken newest first — the pinned one (the handoff being picked up) before all — each
 * whole when it fits its share ({@link FILE_SHARE}, {@link PINNED_SHARE} for the pinned) and
 * what is left; a file bigger than its share is cut to it, so one 50 MB file costs a
 * quarter of the budget, not all of it. The first file that fits neither way ends the
 * list: it and the older ones are dropped (the pinned one never is) and counted in the
 * marker. Room left over then extends the cut files, pinned first, newest next. A cut
 * file ends with `[… truncated: showing the first X of <size> bytes of this handoff to fit
 * the 30 KB budget]`, `size` being the file's exact size. Text is cut between code points
 * (valid UTF-8). A budget too small for even the heading gives the heading cut to the
 * budget. Never throws.
 *
 * @param droppedBefore older files the caller already left out without reading them; added to `dropped`. Default 0.
 * @param namedBudgetBytes the budget the markers name, in bytes, when the block has only part
 *   of it (the receiving prompt: what the handoff picked up leaves of the 30 KB); default `budgetBytes`.
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
