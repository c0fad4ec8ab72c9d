/** The handoff being picked up, as the receiving prompt carries it: its body without frontmatter under one `## ` heading, cut only past the room the budget leaves. */
import { codeSpan } from '../handoff/codeSpan';
import { formatCount } from '../handoff/limits';
import { plural } from '../handoff/text';
import { budgetWords, cutUtf8, PRIOR_HANDOFFS_BUDGET_BYTES, utf8Length } from '../timeline/priorHandoffs';

/** CommonMark §4.5. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** CommonMark §4.2. */
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;

/** A heading inside a fence is code, not a heading. */
function fenceAfter(open: string | undefined, line: string): string | undefined {
  const f = FENCE.exec(line);
  if (!f) return open;
  if (!open) return f[1];
  return f[1][0] === open[0] && f[1].length >= open.length && line.trim() === f[1] ? undefined : open;
}

/** CommonMark §4.3: a heading when it follows a paragraph line. */
const SETEXT = /^( {0,3})([=-]+[ \t]*)$/;
/** The receiving prompt's own labels: only the prompt may write them. */
const VERIFICATION_LABEL = /^( {0,3})\*\*(Verification|Waiting):\*\*/;

function demoteLine(line: string, by: number, min = 1): string {
  return line.replace(ATX, (_, indent: string, hashes: string) => `${indent}${'#'.repeat(Math.min(6, Math.max(min, hashes.length + by)))}`);
}

/** Also escapes a setext underline after text and a `**Verification:**` or `**Waiting:**` label, so a handoff cannot forge them. */
function safeLine(line: string, prev: string | undefined, by: number, min: number): string {
  if (prev !== undefined && prev.trim() !== '' && !ATX.test(prev) && SETEXT.test(line)) return line.replace(SETEXT, '$1\\$2');
  return demoteLine(line, by, min).replace(VERIFICATION_LABEL, '$1\\*\\*$2:\\*\\*');
}

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

/** ATX headings outside code fences `by` levels deeper (at least `min`), so a handoff's own `# title` nests under the prompt's sections. Never throws. */
export function demoteHeadings(text: string, by = 1, min = 1): string {
  return safeLines(text, by, min).join('\n');
}

export interface PickedUpText {
  /** Starts with a `## ` heading; no final line end. */
  readonly text: string;
  readonly cut: boolean;
}

export interface PickedUpOptions {
  /** The heading when the body has no `# ` title of its own. */
  readonly id: string;
  /** Workspace-relative, `/`-separated: where the rest is when the body is cut. */
  readonly link: string;
  readonly maxBytes: number;
  /** The body's exact size on disk, when `body` may be only its start. */
  readonly bodyBytes?: number;
  readonly budgetBytes?: number;
}

/**
 * Our title `# Handoff to <label>: <topic>` becomes the prompt's `## ` section and the body's sections `###` under it; a
 * body without a title is headed `## Handoff <id>`. Too big for `maxBytes`, it is cut at a line end, an open fence
 * closed, with a marker naming the whole file; the heading and marker are always there. Never throws.
 */
export function pickedUpHandoffText(body: string, opts: PickedUpOptions): PickedUpText {
  const lead = body.length - body.trimStart().length;
  const raw = body.trim();
  const rawBytes = utf8Length(raw);
  const total = Math.max(opts.bodyBytes ?? utf8Length(body), utf8Length(body));
  const complete = opts.bodyBytes === undefined || utf8Length(body) >= opts.bodyBytes;
  const titled = /^ {0,3}# /.test(raw) || /^ {0,3}#$/.test(raw.split('\n')[0]);
  const head = titled ? '' : `## Handoff ${codeSpan(opts.id)}\n\n`;
  // Every other heading stays at `###` or deeper, so a hand-edited `# Receive rules` cannot stand beside the prompt's own.
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
