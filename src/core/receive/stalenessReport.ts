/** What changed in the workspace since a handoff was written, as lines a person or an agent reads before acting on it. */
import path from 'node:path';
import { codeSpan } from '../handoff/codeSpan';
import { formatCount } from '../handoff/limits';
import { plural } from '../handoff/text';
import { parseTouchedFiles, type ParsedHandoff } from '../handoff/parse';
import type { Commit, TouchedFile } from '../handoff/schema';

/** `path` is repository-relative, `/`-separated; `status` is git's letter against the handoff's head commit (`?` untracked), or {@link REVERTED_STATUS}. */
export interface ChangedFile {
  readonly path: string;
  readonly status: string;
  /** Of a rename or copy. */
  readonly oldPath?: string;
}

/** A listed touched file that no longer differs from its head commit. */
export const REVERTED_STATUS = 'reverted';

/** Lists are capped by the collector; the `*Omitted` counts say how many were left out, so nothing is dropped silently. */
export interface StalenessReport {
  /** Possibly abbreviated; null when it records none. */
  readonly headCommit: string | null;
  /** Null outside a repository or before the first commit. */
  readonly currentHead: string | null;
  /** `head_commit..HEAD`, newest first. */
  readonly commitsSince: Commit[];
  readonly commitsOmitted: number;
  /** Files not as the handoff describes them, in git's path order, then the reverted ones. */
  readonly changedSince: ChangedFile[];
  readonly changedOmitted: number;
  /** Paths that existed when the handoff was written and are gone now. */
  readonly missingPaths: string[];
  /** Null when either hash is unknown. */
  readonly diffChanged: boolean | null;
  readonly notes: string[];
}

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

export const STALENESS_LINE_ITEMS = 10;

const SUBJECT_MAX_CHARS = 80;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Made visible in lines (invisible Unicode). */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060\u2066-\u2069\ufeff]/g;

/** How git shows a name that is not valid UTF-8: not checkable on disk. */
const GIT_QUOTED = /^".*\\[0-7]{3}.*"$/s;

/** Normalized, or null for an empty, absolute, home, NUL-holding or `..`-escaping path. */
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

/** Unwraps the code span our renderer writes; other tools' plain bullets as written. */
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

/** Null unless the text looks like a relative path (a `/` or a file extension); a `:line` or `#L12` anchor is dropped and `\` read as `/`, as people type these. */
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

/** Touched files (and rename and copy sources) and path-like artifacts; names git had to quote are left out. */
export function namedPaths(handoff: ParsedHandoff): string[] {
  const touched = touchedOf(handoff);
  return unique([...touched.flatMap((f) => [touchedPath(f.path), touchedPath(f.old_path)]), ...artifactsOf(handoff)]);
}

/** Those whose absence now is news: rename sources and deleted files were already gone. */
export function pathsExpectedToExist(handoff: ParsedHandoff): string[] {
  const touched = touchedOf(handoff);
  return unique([
    ...touched.filter((f) => f.status !== 'D').map((f) => touchedPath(f.path)),
    ...touched.filter((f) => f.status === 'C').map((f) => touchedPath(f.old_path)),
    ...artifactsOf(handoff),
  ]);
}

/** Untracked and staged-new are both new against the head commit. */
function sameStatus(a: string, b: string): boolean {
  const norm = (s: string) => (s === '?' ? 'A' : s);
  return norm(a) === norm(b);
}

/**
 * Keeps what the handoff does not describe: the same path, status, rename source and line counts is as described (line
 * counts are a heuristic; the diff hash catches the rest). Listed files that no longer differ come last, as reverted.
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

/** A handoff shows 10 hex digits: one id a prefix of the other is the same. */
function sameSubmoduleCommit(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return sameCommit(a, b);
}

/** Nothing is known to have changed, and no note says something could not be checked. */
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

/** Control, bidi and zero-width characters as `\u{…}`. */
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

function listed(items: readonly string[], max: number, omitted: number, sep = ', '): string {
  const shown = items.slice(0, max);
  const more = items.length - shown.length + omitted;
  return `${shown.join(sep)}${more > 0 ? `${sep}and ${formatCount(more)} more` : ''}`;
}

/** Notes first, then each finding naming at most `maxListed` items; exactly one line when nothing changed. Never throws. */
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
    findings.push(
      `${plural(missing.length, 'path')} it names no longer ${missing.length === 1 ? 'exists' : 'exist'}: ${listed(missing.map(shownPath), max, 0)}`,
    );
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
