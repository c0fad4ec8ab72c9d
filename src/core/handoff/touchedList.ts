// The touched-file lines of a handoff, rendered once per entry and joined once per list: fit-to-budget renders the same list many times.
import { codeSpan } from './codeSpan';
import { FLOOR_FOLDERS } from './fitLimits';
import { formatCount } from './limits';
import { rollUpPaths } from './rollup';
import type { HandoffPackage, TouchedFile } from './schema';

const NONE = '_None._';

/** `- **M** \`src/a.ts\` (+3 / −1)`; a submodule names HEAD's commit, then the worktree's. */
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

/** Entries are never edited in place, so a line can be kept by entry. */
const touchedLines = new WeakMap<TouchedFile, string>();
const touchedLine = (f: TouchedFile): string => touchedLines.get(f) ?? touchedLines.set(f, renderTouchedFile(f)).get(f)!;

/** The longest list rendered lately, with where each line ends, so a first part of it is a slice. */
let lastList: { entries: readonly TouchedFile[]; text: string; ends: number[] } | undefined;

/** The same text as `files.map(touchedLine).join('\n')`. */
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

/** Entries the session's other edits are rolled up into when the touched files are listed as paths. */
const SHORTENED_EDIT_ENTRIES = 8;
/** …and when they are rolled up into folders (the shortest form). */
const FOLDER_EDIT_ENTRIES = 3;

function pathLine(f: Pick<TouchedFile, 'path' | 'old_path' | 'status'>): string {
  return `- **${f.status}** ${f.old_path ? `${codeSpan(f.old_path)} → ${codeSpan(f.path)}` : codeSpan(f.path)}`;
}

function statusCounts(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses)
    .map(([s, n]) => `${s} ${formatCount(n)}`)
    .join(', ');
}

/** In the form fit-to-budget left it in (`touched_files_form`): with line counts, as paths, or rolled up into folders past {@link FLOOR_FOLDERS}. */
export function renderTouchedFiles(pkg: Pick<HandoffPackage, 'touched_files' | 'touched_files_omitted' | 'touched_files_form' | 'session_edits'>): string {
  const out: string[] = [];
  const files = pkg.touched_files;
  const form = pkg.touched_files_form;
  let rolledPaths = 0;
  if (form === 'folders') {
    const rolled = rollUpPaths(files, FLOOR_FOLDERS);
    rolledPaths += rolled.reduce((n, e) => n + (e.count > 1 ? e.count : 0), 0);
    out.push(
      rolled.length
        ? rolled
            .map((e) =>
              e.count === 1
                ? pathLine(
                    files.find((f) => f.path === e.path) ?? { path: e.path, old_path: null, status: Object.keys(e.statuses)[0] as TouchedFile['status'] },
                  )
                : `- ${codeSpan(e.path)} — ${formatCount(e.count)} files (${statusCounts(e.statuses)})`,
            )
            .join('\n')
        : NONE,
    );
  } else if (form === 'paths') {
    out.push(files.length ? files.map(pathLine).join('\n') : NONE);
  } else if (files.length || pkg.touched_files_omitted === 0) {
    out.push(files.length ? touchedList(files) : NONE);
  }
  if (pkg.touched_files_omitted > 0) {
    out.push(`- … and ${formatCount(pkg.touched_files_omitted)} more (left out by collection)`);
  }
  const edits = pkg.session_edits;
  if (edits.length) {
    // Shortened, the session's other edits are rolled up into a few folders: git's own changes come first.
    const rolled = form
      ? rollUpPaths(
          edits.map((e) => ({ path: e.path, status: e.source })),
          form === 'folders' ? FOLDER_EDIT_ENTRIES : SHORTENED_EDIT_ENTRIES,
        )
      : [];
    if (form === 'folders') rolledPaths += rolled.reduce((n, e) => n + (e.count > 1 ? e.count : 0), 0);
    const listed = form
      ? rolled.map((e) => (e.count === 1 ? codeSpan(e.path) : `${codeSpan(e.path)} (${formatCount(e.count)})`))
      : edits.map((e) => `${codeSpan(e.path)} (${e.source})`);
    out.push('', `Also edited in the session (not changed against HEAD now, or outside the repository): ${listed.join(', ')}`);
  }
  if (form === 'paths' && files.length) out.push('', '_Listed as paths only to fit the token budget; `git diff --stat` gives their line counts._');
  if (form === 'folders' && rolledPaths > 0)
    out.push('', `_${formatCount(rolledPaths)} paths rolled up into folders to fit the token budget; \`git status\` lists every one._`);
  else if (form === 'folders' && files.length) out.push('', '_Listed as paths only to fit the token budget; `git diff --stat` gives their line counts._');
  return out.join('\n');
}
