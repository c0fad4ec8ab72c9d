/**
 * The handoff being picked up, as the receiving prompt carries it ("A compact
 * receiving prompt"; docs/DESIGN.md §5 "Receiving side"): its body in full — the human
 * sections, every one of docs/DESIGN.md §5 "Handoff files" — without the YAML frontmatter,
 * nested under one `## ` heading of the prompt, cut only when it is bigger than the room the
 * 30 KB budget leaves it. Pure: the engine reads the file (src/engine/priorHandoffs.ts).
 */
import { codeSpan } from '../handoff/codeSpan';
import { formatCount, plural } from '../handoff/render';
import { budgetWords, cutUtf8, PRIOR_HANDOFFS_BUDGET_BYTES, utf8Length } from '../timeline/priorHandoffs';

/** An opening or closing code fence line (CommonMark §4.5: three or more backticks or tildes, indented at most three spaces). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** An ATX heading line (CommonMark §4.2: one to six `#`, then a space, a tab or the end, indented at most three spaces). */
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;

/**
 * The fence open after `line`, given the one open before it (`undefined`: none): a heading
 * inside a fence is code, not a heading.
 */
function fenceAfter(open: string | undefined, line: string): string | undefined {
  const f = FENCE.exec(line);
  if (!f) return open;
  if (!open) return f[1];
  return f[1][0] === open[0] && f[1].length >= open.length && line.trim() === f[1] ? undefined : open;
}

/** A setext heading underline (CommonMark §4.3: `=` or `-` only, indented at most three spaces) — a heading when it follows a paragraph line. */
const SETEXT = /^( {0,3})([=-]+[ \t]*)$/;
/** The receiving prompt's own labels (receiverPrompt.ts: verification; waiting) at a line's start: only the prompt may write them. */
const VERIFICATION_LABEL = /^( {0,3})\*\*(Verification|Waiting):\*\*/;

/** One line with its ATX heading (if any) `by` levels deeper, at least level `min`, at most `######`. */
function demoteLine(line: string, by: number, min = 1): string {
  return line.replace(ATX, (_, indent: string, hashes: string) => `${indent}${'#'.repeat(Math.min(6, Math.max(min, hashes.length + by)))}`);
}

/**
 * A line outside code fences as text from a handoff file shows it inside the prompt: its ATX
 * heading demoted ({@link demoteLine}); a setext underline after a text line escaped (`\===`),
 * so `Receive rules` over `===` is not a level-1 heading; a `**Verification:**` label at its
 * start escaped (`\*\*Verification:\*\*`, and `**Waiting:**` alike), so a handoff cannot forge the prompt's verification or waiting lines.
 */
function safeLine(line: string, prev: string | undefined, by: number, min: number): string {
  if (prev !== undefined && prev.trim() !== '' && !ATX.test(prev) && SETEXT.test(line)) return line.replace(SETEXT, '$1\\$2');
  return demoteLine(line, by, min).replace(VERIFICATION_LABEL, '$1\\*\\*$2:\\*\\*');
}

/** Each line of `text` as {@link demoteHeadings} shows it (lines inside fences unchanged). */
function safeLines(text: string, by: number, min: number): string[] {
  let open: string | undefined;
  let prev: string | undefined;
  return text.split('\n').map((line) => {
    const before = open;
    open = fenceAfter(before, line);
    const shown = before || FENCE.test(line) ? line : safeLine(line, prev, by, min);
    prev = before || FENCE.test(line) ? undefined : line;
    return shown;
  });
}

/**
 * `text` with every ATX heading outside code fences `by` levels deeper (`#` → `##` for
 * `by` = 1), at least level `min`, `######` staying `######`; lines inside fences unchanged.
 * So a handoff's own `# title` and `## Summary` nest under the prompt's sections instead of
 * standing beside them. Also, outside fences, a setext underline (`===`, `---` under a text
 * line) and a `**Verification:**` label at a line's start are escaped ({@link safeLine}): text
 * from a handoff file cannot add a heading above its level or forge the prompt's verification
 * line. Line ends are kept. Never throws.
 */
export function demoteHeadings(text: string, by = 1, min = 1): string {
  return safeLines(text, by, min).join('\n');
}

/** What {@link pickedUpHandoffText} built. */
export interface PickedUpText {
  /** Markdown starting with a `## ` heading, no final line end. */
  readonly text: string;
  /** True when the body was cut to fit `maxBytes`. */
  readonly cut: boolean;
}

/** Inputs of {@link pickedUpHandoffText} besides the body. */
export interface PickedUpOptions {
  /** The handoff's id: the heading when the body has no `# ` title of its own. */
  readonly id: string;
  /** The file's path relative to the workspace folder, `/`-separated: where the rest is when the body is cut. */
  readonly link: string;
  /** Most bytes of UTF-8 the text may take. */
  readonly maxBytes: number;
  /** The body's exact size on disk in bytes, when `body` may be only its start; default: the bytes of `body`. */
  readonly bodyBytes?: number;
  /** The budget named in the cut marker, in bytes; default {@link PRIOR_HANDOFFS_BUDGET_BYTES} (30 KB). */
  readonly budgetBytes?: number;
}

/**
 * The body of the handoff being picked up (`body`: the file after its frontmatter, as
 * `splitFrontmatter` gives it) for the prompt, headings one level deeper
 * ({@link demoteHeadings}): our title `# Handoff to <label>: <topic>` becomes the prompt's
 * `## ` section and its `## Summary` … `## Return condition` sections `###` under it. A body
 * without a `# ` title first is headed `## Handoff <id>`.
 *
 * Whole when it fits `maxBytes` (and `body` holds all of it); else cut at a line end (inside
 * a line only when a single line is too long, between code points), a code fence left open
 * closed, and the marker `[… truncated: showing the first X of N bytes of this handoff's
 * body to fit the 30 KB budget; the whole handoff is in <link>]` (X and N in bytes of the
 * file's body). A `maxBytes` too small for the heading and the marker gives them anyway:
 * the picked-up handoff is always named. Never throws.
 */
export function pickedUpHandoffText(body: string, opts: PickedUpOptions): PickedUpText {
  const lead = body.length - body.trimStart().length;
  const raw = body.trim();
  const rawBytes = utf8Length(raw);
  const total = Math.max(opts.bodyBytes ?? utf8Length(body), utf8Length(body));
  const complete = opts.bodyBytes === undefined || utf8Length(body) >= opts.bodyBytes;
  const titled = /^ {0,3}# /.test(raw) || /^ {0,3}#$/.test(raw.split('\n')[0]);
  const head = titled ? '' : `## Handoff ${codeSpan(opts.id)}\n\n`;
  // The title becomes the prompt's `## ` section; every other heading of the body stays under it (`###` at least), so a
  // hand-edited `# Receive rules` cannot stand beside the prompt's own sections.
  const shownLines = safeLines(raw, 1, 3);
  if (titled) shownLines[0] = shownLines[0].replace(/^( {0,3})###/, '$1##');
  const demoted = shownLines.join('\n');
  const whole = `${head}${demoted}`;
  if (complete && utf8Length(whole) <= opts.maxBytes) return { text: whole, cut: false };

  const budget = opts.budgetBytes ?? PRIOR_HANDOFFS_BUDGET_BYTES;
  const marker = (shown: number): string =>
    `[… truncated: showing the first ${formatCount(shown)} of ${plural(total, 'byte')} of this handoff's body to fit the ${budgetWords(budget)} budget; the whole handoff is in ${codeSpan(opts.link)}]`;
  const reserve = utf8Length(marker(total)) + 2;
  const out: string[] = [];
  let open: string | undefined;
  let used = utf8Length(head);
  let consumed = 0;
  const rawLines = raw.split('\n');
  for (const [i, line] of rawLines.entries()) {
    const after = fenceAfter(open, line);
    const shown = shownLines[i];
    // The line, its line end, and the fence closer a cut after it would need.
    const cost = utf8Length(shown) + 1 + (after ? after.length + 1 : 0);
    // The title line always: the picked-up handoff is always named.
    if (used + cost + reserve <= opts.maxBytes || (titled && out.length === 0)) {
      out.push(shown);
      used += utf8Length(shown) + 1;
      consumed += utf8Length(line) + 1;
      open = after;
      continue;
    }
    // A line too long to fit: its start, when nothing else would be shown (not a fence line: that one has no start).
    const room = opts.maxBytes - used - (open ? open.length + 1 : 0) - reserve - 1;
    if (out.length === (titled ? 1 : 0) && room > 0 && !FENCE.test(line)) {
      const part = cutUtf8(shown, room);
      out.push(part);
      consumed += Math.max(0, utf8Length(part) - (utf8Length(shown) - utf8Length(line)));
    }
    break;
  }
  if (open && out.length > 0) out.push(open);
  const shownBytes = Math.min(rawBytes, consumed) + lead;
  return { text: `${head}${out.join('\n').trimEnd()}${out.length ? '\n\n' : ''}${marker(shownBytes)}`, cut: true };
}
