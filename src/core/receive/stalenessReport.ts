/**
 * Staleness of a handoff on the receiving side (docs/DESIGN.md §5 "Receiving side"): what
 * changed in the workspace since the handoff was written — new commits, files whose
 * state differs from what it describes, paths it names that no longer exist, a working
 * tree whose diff hash differs — turned into lines a person or an agent reads before
 * acting on it. Pure: the facts are collected by `src/evidence/git/stalenessFacts.ts`.
 */
import path from 'node:path';
import { codeSpan, formatCount, plural } from '../handoff/render';
import { parseTouchedFiles, type ParsedHandoff } from '../handoff/parse';
import type { Commit, TouchedFile } from '../handoff/schema';

/**
 * A file whose state differs from what the handoff describes. `path` is relative to the
 * repository root (`/`-separated, the new path of a rename). `status` is git's letter
 * against the handoff's head commit — `A`, `C`, `D`, `M` (also a type change), `R`,
 * `U` (conflict), `?` (untracked) — or {@link REVERTED_STATUS} for a file the handoff
 * lists as touched whose change is no longer in the working tree. A rename keeps its origin
 * in `oldPath`; the path it was renamed from is never also called reverted.
 */
export interface ChangedFile {
  readonly path: string;
  readonly status: string;
  /** The path a rename or copy (`R`, `C`) came from, relative to the repository root; absent for other changes. */
  readonly oldPath?: string;
}

/** Status of a {@link ChangedFile} the handoff lists as touched that no longer differs from its head commit. */
export const REVERTED_STATUS = 'reverted';

/**
 * What changed since a handoff was written (docs/DESIGN.md §5 receiving side).
 *
 * Lists are capped by the collector (`maxItems`, default 50); `commitsOmitted` and
 * `changedOmitted` count what was left out, so nothing is dropped silently (docs/DESIGN.md §6).
 */
export interface StalenessReport {
  /** The handoff's `head_commit` as written in it (possibly abbreviated), or null when it records none. */
  readonly headCommit: string | null;
  /** The full id of HEAD now; null outside a repository or before the first commit. */
  readonly currentHead: string | null;
  /** Commits of `head_commit..HEAD`, newest first. */
  readonly commitsSince: Commit[];
  /** Commits of that range left out of `commitsSince`. */
  readonly commitsOmitted: number;
  /**
   * Files whose state against the handoff's head commit (committed since, staged,
   * unstaged, untracked) differs from the handoff's touched-file list, in git's path
   * order, then the listed files whose change is gone ({@link REVERTED_STATUS}).
   */
  readonly changedSince: ChangedFile[];
  /** Files left out of `changedSince`. */
  readonly changedOmitted: number;
  /** Paths the handoff names that existed when it was written and are gone now (see {@link pathsExpectedToExist}). */
  readonly missingPaths: string[];
  /** Whether the working tree's diff hash differs from the handoff's `diff_hash`; null when either is unknown. */
  readonly diffChanged: boolean | null;
  /** What could not be checked and why: not a repository, head commit not in this repository, git missing … */
  readonly notes: string[];
}

/** A report with nothing found and nothing checked, for `headCommit`. */
export function emptyStalenessReport(headCommit: string | null, notes: readonly string[] = []): StalenessReport {
  return {
    headCommit,
    currentHead: null,
    commitsSince: [],
    commitsOmitted: 0,
    changedSince: [],
    changedOmitted: 0,
    missingPaths: [],
    diffChanged: null,
    notes: [...notes],
  };
}

/** Items named per line of {@link stalenessLines} before "and N more": 10. */
export const STALENESS_LINE_ITEMS = 10;

/** Characters of a commit subject shown by {@link stalenessLines} before "…": 80. */
const SUBJECT_MAX_CHARS = 80;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Control, bidi and zero-width characters (docs/DESIGN.md §7 invisible Unicode), made visible in lines. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060\u2066-\u2069\ufeff]/g;

/** A path as git shows a name that is not valid UTF-8 (`"bad\351name"`, see gitParse `displayPath`): not checkable on disk. */
const GIT_QUOTED = /^".*\\[0-7]{3}.*"$/s;

/**
 * A relative, `/`-separated path inside the workspace, normalized (`./a//b` → `a/b`), or
 * null for what is not one: empty, absolute (`/x`, `\\x`, `C:\x`, `C:x`), `~`, a NUL
 * byte, or a path that leads outside through `..` (docs/DESIGN.md §7).
 */
export function safeRelativePath(p: string): string | null {
  if (!p || p.includes('\0') || p.startsWith('/') || p.startsWith('\\') || /^[a-zA-Z]:/.test(p) || /^~([\\/]|$)/.test(p)) {
    return null;
  }
  const normal = path.posix.normalize(p).replace(/\/+$/, '');
  if (!normal || normal === '.' || normal === '..' || normal.startsWith('../')) {
    return null;
  }
  return normal;
}

/**
 * The items of a handoff's "Artifacts" section: each bullet's text, unwrapped from the
 * code span our renderer writes (`- \`docs/plan.md\``); plain bullets (other tools) as
 * written. `_None._` and non-bullet lines are skipped.
 */
export function parseArtifacts(section: string): string[] {
  const items: string[] = [];
  for (const line of section.split(/\r?\n/)) {
    const m = /^[-*] (.*)$/.exec(line.trimEnd());
    if (!m) {
      continue;
    }
    const text = m[1];
    const span = /^(`+)(.*)\1$/s.exec(text);
    if (span) {
      const inner = span[1].length > 1 && span[2].startsWith(' ') && span[2].endsWith(' ') ? span[2].slice(1, -1) : span[2];
      items.push(inner.replace(/\\n/g, '\n').replace(/\\r/g, '\r'));
    } else if (text.trim() && text.trim() !== '_None._') {
      items.push(text.trim());
    }
  }
  return items;
}

/**
 * The workspace path an artifact names, or null when it does not look like a relative
 * path. Taken as a path: text without whitespace or control characters that has a `/`
 * or ends in a file extension (`docs/plan.md`, `.env`, `build/`). Not paths: URLs and
 * other `scheme:` references, absolute and home paths, `..` escapes, prose, ids such as
 * `PR #12`. A trailing `:line[:col]` or `#L12` anchor is dropped and `\` is read as `/`
 * (artifacts are typed by agents and people, unlike touched files, which come from git).
 */
export function artifactPath(text: string): string | null {
  let t = text.trim();
  if (!t || t.length > 1024 || /\s/.test(t) || CONTROL.test(t) || GIT_QUOTED.test(t)) {
    return null;
  }
  t = t.replace(/#L\d+(?:-L?\d+)?$/, '').replace(/:\d+(?:[-:]\d+)?$/, '');
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(t)) {
    // `https://…`, `mailto:…`, `file:///…`: a reference, not a workspace path.
    return null;
  }
  t = t.replace(/\\/g, '/');
  if (!t.includes('/') && !/\.[A-Za-z][A-Za-z0-9_-]{0,15}$/.test(t)) {
    return null;
  }
  return safeRelativePath(t);
}

function touchedOf(handoff: ParsedHandoff): TouchedFile[] {
  return parseTouchedFiles(handoff.sections.get('Touched files') ?? '');
}

function artifactsOf(handoff: ParsedHandoff): string[] {
  return parseArtifacts(handoff.sections.get('Artifacts') ?? '')
    .map(artifactPath)
    .filter((p): p is string => p !== null);
}

function touchedPath(p: string | null): string | null {
  return p === null || GIT_QUOTED.test(p) ? null : safeRelativePath(p);
}

function unique(paths: ReadonlyArray<string | null>): string[] {
  return [...new Set(paths.filter((p): p is string => p !== null))];
}

/**
 * The workspace paths a handoff names, relative to the repository root: its touched
 * files (paths, and the sources of renames and copies) and its artifacts that look like
 * relative paths ({@link artifactPath}). Deduplicated, in that order; never absolute,
 * never a URL, never escaping through `..`; names git had to quote (not valid UTF-8)
 * are left out.
 */
export function namedPaths(handoff: ParsedHandoff): string[] {
  const touched = touchedOf(handoff);
  return unique([...touched.flatMap((f) => [touchedPath(f.path), touchedPath(f.old_path)]), ...artifactsOf(handoff)]);
}

/**
 * The subset of {@link namedPaths} that existed when the handoff was written, so their
 * absence now is news: touched files except deletions, copy sources (a copy keeps its
 * source), and path-like artifacts. Rename sources and deleted files were already gone.
 */
export function pathsExpectedToExist(handoff: ParsedHandoff): string[] {
  const touched = touchedOf(handoff);
  return unique([
    ...touched.filter((f) => f.status !== 'D').map((f) => touchedPath(f.path)),
    ...touched.filter((f) => f.status === 'C').map((f) => touchedPath(f.old_path)),
    ...artifactsOf(handoff),
  ]);
}

/** Status letters compared as equal: an untracked file and a staged new file are both new against the head commit. */
function sameStatus(a: string, b: string): boolean {
  const norm = (s: string) => (s === '?' ? 'A' : s);
  return norm(a) === norm(b);
}

/**
 * Compares the files that differ from the handoff's head commit now with the touched
 * files the handoff lists (both against that same commit) and keeps what the handoff
 * does not describe: a file is as described when the handoff lists the same path with
 * the same status (untracked = added), the same rename source and the same +/− line
 * counts (or none on both sides; for a submodule, the same commit checked out). A rename or
 * copy keeps its origin (`oldPath`). Listed files that no longer differ at all come last,
 * as {@link REVERTED_STATUS} — except a path that is now the origin of a rename (a file the
 * handoff lists as modified, renamed in a commit since): the rename shows it.
 *
 * Line counts are a heuristic per file: an edit that keeps them is not seen here; the
 * diff hash ({@link StalenessReport.diffChanged}) catches it for the whole tree.
 *
 * @param listed the handoff's touched files (parsed from its "Touched files" section)
 * @param now the files that differ from the head commit now, in git's path order
 */
export function changesSinceHandoff(listed: readonly TouchedFile[], now: readonly TouchedFile[]): ChangedFile[] {
  const byPath = new Map(listed.map((f) => [f.path, f]));
  const changed: ChangedFile[] = [];
  for (const f of now) {
    const l = byPath.get(f.path);
    const asDescribed =
      l !== undefined &&
      sameStatus(l.status, f.status) &&
      (l.old_path ?? null) === (f.old_path ?? null) &&
      (l.submodule || f.submodule
        ? sameSubmoduleCommit(l.submodule?.to ?? null, f.submodule?.to ?? null)
        : l.added === f.added && l.deleted === f.deleted && l.binary === f.binary);
    if (!asDescribed) {
      changed.push(f.old_path ? { path: f.path, status: f.status, oldPath: f.old_path } : { path: f.path, status: f.status });
    }
  }
  // A listed path that is now the origin of a rename is shown by that rename, not as reverted.
  const present = new Set(now.flatMap((f) => (f.old_path && f.status === 'R' ? [f.path, f.old_path] : [f.path])));
  for (const l of listed) {
    if (!present.has(l.path)) {
      changed.push({ path: l.path, status: REVERTED_STATUS });
    }
  }
  return changed;
}

/** Whether two submodule commits are the same: both none, or one id a prefix of the other (a handoff shows 10 hex digits). */
function sameSubmoduleCommit(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return sameCommit(a, b);
}

/**
 * Whether nothing is known to have changed: the handoff's head commit is HEAD, no commit,
 * changed file or missing path was found, the diff hash did not differ, and no note says
 * something could not be checked.
 */
export function isUpToDate(r: StalenessReport): boolean {
  return (
    r.headCommit !== null &&
    r.currentHead !== null &&
    sameCommit(r.headCommit, r.currentHead) &&
    r.commitsSince.length + r.commitsOmitted === 0 &&
    r.changedSince.length + r.changedOmitted === 0 &&
    r.missingPaths.length === 0 &&
    r.diffChanged !== true &&
    r.notes.length === 0
  );
}

function sameCommit(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x.length >= 4 && y.length >= 4 && (x.startsWith(y) || y.startsWith(x));
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 10) : 'none';
}

/** Text made safe for one line: control, bidi and zero-width characters shown as `\u{…}` escapes. */
function visible(text: string): string {
  return text.replace(UNPRINTABLE, (ch) => `\\u{${ch.charCodeAt(0).toString(16)}}`);
}

function shownPath(p: string): string {
  return codeSpan(visible(p));
}

function subject(s: string): string {
  const one = visible(s.replace(/\s+/g, ' ').trim());
  return one.length > SUBJECT_MAX_CHARS ? `${one.slice(0, SUBJECT_MAX_CHARS - 1)}…` : one;
}

/** `items` (at most `max` of them) joined, with "and N more" for the rest plus `omitted`. */
function listed(items: readonly string[], max: number, omitted: number, sep = ', '): string {
  const shown = items.slice(0, max);
  const more = items.length - shown.length + omitted;
  return `${shown.join(sep)}${more > 0 ? `${sep}and ${formatCount(more)} more` : ''}`;
}

/**
 * The lines a person or an agent reads before acting on a handoff: first the notes
 * (what could not be checked), then new commits, changed files, missing paths and a
 * changed working tree, each list naming at most `maxListed` items and saying how many
 * more there are. When nothing changed it is exactly one line saying the handoff is up
 * to date. Never throws, also for an empty report.
 *
 * @param maxListed items named per line (default {@link STALENESS_LINE_ITEMS})
 */
export function stalenessLines(r: StalenessReport, maxListed = STALENESS_LINE_ITEMS): string[] {
  const max = Math.max(0, Math.floor(maxListed));
  const findings: string[] = [];
  const commits = (r.commitsSince ?? []).length + (r.commitsOmitted ?? 0);
  const head = typeof r.headCommit === 'string' ? r.headCommit : null;
  const now = typeof r.currentHead === 'string' ? r.currentHead : null;
  const headMoved = head !== null && now !== null && !sameCommit(head, now);
  if (commits > 0) {
    const items = (r.commitsSince ?? []).map((c) => `${short(c.sha)} ${subject(c.subject)}`);
    findings.push(`${plural(commits, 'commit')} since the handoff (HEAD ${short(head)} → ${short(now)}): ${listed(items, max, r.commitsOmitted ?? 0, '; ')}`);
  } else if (headMoved) {
    findings.push(`HEAD is now ${short(now)}, not the handoff's ${short(head)}, with no new commits on top of it (a reset, or another branch)`);
  }
  const changed = (r.changedSince ?? []).length + (r.changedOmitted ?? 0);
  if (changed > 0) {
    const items = (r.changedSince ?? []).map((f) => `${f.status} ${f.oldPath ? `${shownPath(f.oldPath)} → ` : ''}${shownPath(f.path)}`);
    findings.push(`${plural(changed, 'file')} changed since: ${listed(items, max, r.changedOmitted ?? 0)}`);
  }
  const missing = r.missingPaths ?? [];
  if (missing.length > 0) {
    findings.push(`${plural(missing.length, 'path')} it names no longer ${missing.length === 1 ? 'exists' : 'exist'}: ${listed(missing.map(shownPath), max, 0)}`);
  }
  if (r.diffChanged === true && !headMoved) {
    findings.push(
      changed > 0
        ? 'The working tree differs from when the handoff was written'
        : 'The working tree differs from when the handoff was written: files it lists as touched were edited further',
    );
  }
  const notes = (r.notes ?? []).map(visible);
  if (findings.length === 0 && notes.length === 0 && head !== null && now !== null) {
    return [
      r.diffChanged === false
        ? `Up to date: HEAD is still ${short(now)} and the working tree is as the handoff describes`
        : `Up to date as far as can be told: HEAD is still ${short(now)} and no file changed since (the working tree's diff hash could not be compared)`,
    ];
  }
  if (findings.length === 0) {
    findings.push(notes.length ? 'Nothing else found that changed since the handoff' : 'Nothing could be compared with the handoff');
  }
  return [...notes, ...findings];
}
