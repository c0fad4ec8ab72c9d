/**
 * The touched-file lines of a handoff (docs/DESIGN.md §5 "Touched files"), rendered once per
 * entry and joined once per list: fit-to-budget renders the same list, or a first part of
 * it, ~30 times per handoff (issue 19).
 */
import { codeSpan } from './codeSpan';
import type { TouchedFile } from './schema';

/**
 * One line for a touched file, e.g. `- **M** \`src/a.ts\` (+3 / −1)`; a submodule names its
 * commits, HEAD's then the worktree's: `- **M** \`lib/sub\` (submodule 1a2b3c4d5e..6f7a8b9c0d)`.
 */
export function renderTouchedFile(f: TouchedFile): string {
  const where = f.old_path ? `${codeSpan(f.old_path)} → ${codeSpan(f.path)}` : codeSpan(f.path);
  let counts: string;
  if (f.submodule) {
    const s = f.submodule;
    counts = ` (submodule ${s.from ? s.from.slice(0, 10) : 'none'}..${s.to ? s.to.slice(0, 10) : 'none'}${s.dirty ? ', with uncommitted changes inside' : ''})`;
  } else if (f.binary) {
    counts = ' (binary)';
  } else if (f.status === '?') {
    counts = ' (untracked)';
  } else if (f.added !== null && f.deleted !== null) {
    counts = ` (+${f.added} / −${f.deleted})`;
  } else {
    counts = '';
  }
  return `- **${f.status}** ${where}${counts}`;
}

/** Rendered lines by file entry: fit-to-budget renders the same entries ~30 times (issue 19); entries are never edited in place. */
const touchedLines = new WeakMap<TouchedFile, string>();
const touchedLine = (f: TouchedFile): string => touchedLines.get(f) ?? touchedLines.set(f, renderTouchedFile(f)).get(f)!;

/**
 * The longest touched-file list rendered lately: its entries, their lines joined by line
 * feeds, and where each line ends in that text. Fit-to-budget renders the same list, or a
 * first part of it, ~30 times (issue 19: the join was 1.6 ms of a 4 ms rendering).
 */
let lastList: { entries: readonly TouchedFile[]; text: string; ends: number[] } | undefined;

/**
 * `files.map(touchedLine).join('\n')`, taken from {@link lastList} when `files` holds the
 * same entries (===) as its first `files.length` ones: the same text, cut where that line ends.
 */
export function touchedList(files: readonly TouchedFile[]): string {
  const last = lastList;
  if (last && files.length <= last.entries.length && files.every((f, i) => f === last.entries[i])) {
    return files.length === last.entries.length ? last.text : last.text.slice(0, last.ends[files.length - 1]);
  }
  const lines = files.map(touchedLine);
  const text = lines.join('\n');
  const ends: number[] = [];
  let at = 0;
  for (const line of lines) {
    at += line.length;
    ends.push(at);
    at += 1;
  }
  lastList = { entries: [...files], text, ends };
  return text;
}

