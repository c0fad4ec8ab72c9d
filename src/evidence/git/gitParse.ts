// Parsers of `status --porcelain=v2 -z` and `diff --raw --numstat -z`. Not simple-git's `status()` / `diffSummary()`:
// `status()` reads porcelain v1 and trims paths, and `diffSummary()` refuses `-z`, without which git quotes non-ASCII
// paths and abbreviates renames as `{a => b}`. A name that is not valid UTF-8 is shown as `git status` quotes it.
import { isUtf8 } from 'node:buffer';
import type { FileStatus, TouchedFile } from '../../core/handoff/schema';

/** Private-use code points stand for undecodable bytes while parsing. */
const BYTE_MARK = 0xe000;
const BYTE_MARKS = /[\ue000-\ue0ff]/;

/** Each byte of an invalid UTF-8 sequence becomes a private-use marker, escaped later by {@link displayPath}. */
export function decodeField(buf: Buffer): string {
  if (isUtf8(buf)) {
    return buf.toString('utf8');
  }
  let out = '';
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len > 0 && i + len <= buf.length && isUtf8(buf.subarray(i, i + len))) {
      out += buf.toString('utf8', i, i + len);
      i += len;
    } else {
      out += String.fromCharCode(BYTE_MARK + b);
      i += 1;
    }
  }
  return out;
}

/** Git-quoted (`"bad\351name"`) when it held bytes that are not UTF-8. */
export function displayPath(p: string): string {
  if (!BYTE_MARKS.test(p)) {
    return p;
  }
  const escaped = [...p]
    .map((ch) => {
      const code = ch.charCodeAt(0);
      if (code >= BYTE_MARK && code <= BYTE_MARK + 0xff) {
        return `\\${(code - BYTE_MARK).toString(8).padStart(3, '0')}`;
      }
      return ch === '\\' || ch === '"' ? `\\${ch}` : ch;
    })
    .join('');
  return `"${escaped}"`;
}

/**
 * A trailing NUL ends the last field. Output valid as a whole is decoded once and split as text: no multi-byte
 * sequence contains NUL, so each field decodes the same.
 */
export function splitNulFields(buf: Buffer): string[] {
  if (isUtf8(buf)) {
    const fields = buf.toString('utf8').split('\0');
    if (fields[fields.length - 1] === '') fields.pop();
    return fields;
  }
  return splitNulFieldsEach(buf);
}

export function splitNulFieldsEach(buf: Buffer): string[] {
  const fields: string[] = [];
  let start = 0;
  for (let i = buf.indexOf(0, start); i >= 0; i = buf.indexOf(0, start)) {
    fields.push(decodeField(buf.subarray(start, i)));
    start = i + 1;
  }
  if (start < buf.length) {
    fields.push(decodeField(buf.subarray(start)));
  }
  return fields;
}

export interface BranchHeaders {
  oid: string | null;
  head: string | null;
  detached: boolean;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
}

export interface StatusEntry {
  readonly kind: '1' | '2' | 'u' | '?';
  readonly xy: string;
  readonly path: string;
  readonly origPath: string | null;
  /** `100644`, `100755`, `120000` symlink, `160000` submodule, `000000` gone; null when untracked. */
  readonly worktreeMode: string | null;
  /** `N...` for a file, `S<c><m><u>` for a submodule (commit changed, tracked changes, untracked); null when untracked. */
  readonly sub: string | null;
}

function field(rec: string, n: number): string | null {
  return rec.split(' ', n + 1)[n] ?? null;
}

/** The path after `n` fields; it may contain spaces. */
function afterFields(rec: string, n: number): string {
  let idx = 0;
  for (let k = 0; k < n; k++) {
    idx = rec.indexOf(' ', idx) + 1;
    if (idx === 0) {
      return '';
    }
  }
  return rec.slice(idx);
}

/** A rename or copy record is followed by one more field, the original path; ignored (`!`) entries are skipped. */
export function parseStatusV2(fields: readonly string[]): { branch: BranchHeaders; entries: StatusEntry[] } {
  const branch: BranchHeaders = { oid: null, head: null, detached: false, upstream: null, ahead: null, behind: null };
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const rec = fields[i];
    if (!rec) {
      continue;
    }
    const type = rec[0];
    if (type === '#') {
      const m = /^# branch\.(\S+) (.*)$/.exec(rec);
      if (!m) {
        continue;
      }
      const [, key, value] = m;
      if (key === 'oid') {
        branch.oid = value === '(initial)' ? null : value;
      } else if (key === 'head') {
        branch.detached = value === '(detached)';
        branch.head = branch.detached ? null : value;
      } else if (key === 'upstream') {
        branch.upstream = value;
      } else if (key === 'ab') {
        const ab = /^\+(\d+) -(\d+)$/.exec(value);
        if (ab) {
          branch.ahead = Number(ab[1]);
          branch.behind = Number(ab[2]);
        }
      }
    } else if (type === '1') {
      entries.push({ kind: '1', xy: rec.slice(2, 4), path: afterFields(rec, 8), origPath: null, worktreeMode: field(rec, 5), sub: field(rec, 2) });
    } else if (type === '2') {
      entries.push({
        kind: '2',
        xy: rec.slice(2, 4),
        path: afterFields(rec, 9),
        origPath: fields[++i] ?? null,
        worktreeMode: field(rec, 5),
        sub: field(rec, 2),
      });
    } else if (type === 'u') {
      entries.push({ kind: 'u', xy: rec.slice(2, 4), path: afterFields(rec, 10), origPath: null, worktreeMode: field(rec, 6), sub: field(rec, 2) });
    } else if (type === '?') {
      entries.push({ kind: '?', xy: '??', path: rec.slice(2), origPath: null, worktreeMode: null, sub: null });
    }
  }
  return { branch, entries };
}

export function statusLetter(e: StatusEntry): FileStatus {
  if (e.kind === '?') {
    return '?';
  }
  if (e.kind === 'u') {
    return 'U';
  }
  const [x, y] = e.xy;
  if (e.kind === '2') {
    if (y === 'D') {
      return 'D';
    }
    return x === 'C' || y === 'C' ? 'C' : 'R';
  }
  // `.A`: added with intent (`git add -N`), an empty placeholder in the index, new against HEAD.
  if (x === 'A' || (x === '.' && y === 'A')) {
    return 'A';
  }
  if (x === 'D' || y === 'D') {
    return 'D';
  }
  return 'M';
}

export interface RawEntry {
  readonly srcMode: string;
  readonly dstMode: string;
  readonly srcOid: string;
  readonly dstOid: string;
  /** Without its score. */
  readonly status: string;
  readonly path: string;
  readonly origPath: string | null;
}

/** Null counts for binary files. */
export interface NumstatEntry {
  readonly path: string;
  readonly origPath: string | null;
  readonly added: number | null;
  readonly deleted: number | null;
  readonly binary: boolean;
}

/**
 * Raw records first (`:mode mode oid oid status`, then one path, or two for renames and copies), consumed exactly so
 * a file name that looks like numstat is never taken for one; then numstat (`added\tdeleted\tpath`, for a rename
 * `added\tdeleted\t` then old and new path; binary `-\t-`).
 */
export function parseRawNumstat(fields: readonly string[]): { raw: RawEntry[]; numstat: NumstatEntry[] } {
  const raw: RawEntry[] = [];
  let i = 0;
  while (i < fields.length && fields[i].startsWith(':')) {
    const [srcMode, dstMode, srcOid, dstOid, statusScore] = fields[i].slice(1).split(' ');
    const status = (statusScore ?? '').charAt(0);
    const two = status === 'R' || status === 'C';
    raw.push({ srcMode, dstMode, srcOid, dstOid, status, path: two ? fields[i + 2] : fields[i + 1], origPath: two ? fields[i + 1] : null });
    i += two ? 3 : 2;
  }
  return { raw, numstat: parseNumstatFields(fields.slice(i)) };
}

export function parseNumstatFields(fields: readonly string[]): NumstatEntry[] {
  const result: NumstatEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const rec = fields[i];
    if (!rec) {
      continue;
    }
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(rec);
    if (!m) {
      continue;
    }
    const binary = m[1] === '-' && m[2] === '-';
    let p = m[3];
    let orig: string | null = null;
    if (p === '') {
      orig = fields[++i] ?? null;
      p = fields[++i] ?? '';
    }
    result.push({ path: p, origPath: orig, added: binary ? null : Number(m[1]), deleted: binary ? null : Number(m[2]), binary });
  }
  return result;
}

export function parseNumstatZ(out: string): NumstatEntry[] {
  return parseNumstatFields(out.split('\0'));
}

export interface MergedFiles {
  readonly files: TouchedFile[];
  /** Paths to count again with `--no-renames`. */
  readonly recount: string[];
}

/**
 * In status order. Numstat compares the worktree with HEAD and may pair renames differently from status, so counts
 * come only from a numstat record of the same shape; the rest are returned in `recount`. A rename staged then deleted
 * in the worktree is the deletion of the original path.
 */
export function mergeTouchedFiles(entries: readonly StatusEntry[], numstat: readonly NumstatEntry[]): MergedFiles {
  const plain = new Map<string, NumstatEntry>();
  const renamed = new Map<string, NumstatEntry>();
  const inRename = new Set<string>();
  for (const n of numstat) {
    if (n.origPath) {
      renamed.set(n.path, n);
      inRename.add(n.path).add(n.origPath);
    } else {
      plain.set(n.path, n);
    }
  }
  const recount: string[] = [];
  const files = entries.map((e): TouchedFile => {
    const status = statusLetter(e);
    let path = e.path;
    let oldPath = e.origPath;
    let n: NumstatEntry | undefined;
    if (e.kind === '?') {
      n = undefined;
    } else if (e.kind === '2' && status === 'D' && e.origPath) {
      path = e.origPath;
      oldPath = null;
      n = plain.get(path);
    } else if (e.kind === '2') {
      const r = renamed.get(path);
      n = r && r.origPath === e.origPath ? r : plain.get(path);
    } else {
      n = plain.get(path);
    }
    if (!n && e.kind !== '?' && e.kind !== 'u' && inRename.has(path)) {
      recount.push(path);
    }
    if (e.sub?.startsWith('S')) {
      // A gitlink: numstat counts its commit change as one line; the collector fills in the commits.
      return {
        path,
        status,
        old_path: oldPath,
        added: null,
        deleted: null,
        binary: false,
        xy: e.xy,
        submodule: { from: null, to: null, dirty: e.sub[2] === 'M' || e.sub[3] === 'U' },
      };
    }
    return { path, status, old_path: oldPath, added: n ? n.added : null, deleted: n ? n.deleted : null, binary: n ? n.binary : false, xy: e.xy };
  });
  return { files, recount };
}

export function applyRecount(files: readonly TouchedFile[], recount: readonly NumstatEntry[]): TouchedFile[] {
  const byPath = new Map(recount.map((n) => [n.path, n]));
  return files.map((f) => {
    const n = f.added === null && !f.binary && !f.submodule ? byPath.get(f.path) : undefined;
    return n ? { ...f, added: n.added, deleted: n.deleted, binary: n.binary } : f;
  });
}
