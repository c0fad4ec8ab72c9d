/**
 * Once a value is found to be a secret, every occurrence of it is one (docs/DESIGN.md §7
 * "Nothing leaked"): `token = '…'` then the same key bare in a later line, a password in a
 * URL and again in a command, a key in the summary and in the branch name. The values the
 * rules find are collected ({@link collectValues}) and every other occurrence of each, in
 * every text of a batch and in the texts scanned after it (a handoff's other fields, its
 * files), is a finding of the same kind ({@link recurrences}) — including the head of a value
 * that a text was cut inside (`Zq8xT4mB…`), which no rule would know on its own. Pure: no I/O.
 */
import type { Finding } from './secretKinds';

/** Secrets already found: the value → its kind. Carried from one scan to the next so later texts are redacted too. */
export type KnownSecrets = ReadonlyMap<string, string>;

/** Least length of a value redacted wherever it recurs, and of a cut head or tail of one: 8 characters (a shorter one, `admin`, is a common word too). */
export const MIN_RECURRING_CHARS = 8;
/** Longest value remembered: 4,096 characters (longer findings are blocks; their lines are remembered instead). */
const MAX_RECURRING_CHARS = 4096;

/**
 * Whether a found value is specific enough to redact wherever it occurs: at least
 * {@link MIN_RECURRING_CHARS} characters, one line, and a digit, a symbol or upper case past
 * its first letter — `Secret123`, `hunter2!x`, `xK…`, a token — never plain words
 * (`thisismypassword`, `Kubernetes` or `my secret phrase` found once is redacted there, not in
 * every sentence that says it).
 */
export function isRecurringValue(value: string): boolean {
  if (value.length < MIN_RECURRING_CHARS || value.length > MAX_RECURRING_CHARS || /[\r\n]/.test(value) || value.includes('\0') || value.includes('[REDACTED')) return false;
  const word = value.replace(/\s+/g, '');
  if (!/[A-Za-z0-9]/.test(word)) return false;
  return /[0-9]/.test(word) || /[^A-Za-z]/.test(word) || (/[a-z]/.test(word) && /[A-Z]/.test(word.slice(1)));
}

/** Whether a part of a found value looks random enough to stand for it alone: letters and digits both (a token, a password), never a word or a fixed literal (`Bearer`, `x-oauth-basic`, a user name). */
const isRandomPart = (part: string): boolean => /[0-9]/.test(part) && /[A-Za-z]/.test(part);

/**
 * The values a finding's text stands for: the text itself without surrounding quotes; for a
 * block (a PEM key), each of its lines that is one run without spaces (its body, not its
 * `-----BEGIN …-----` armour); for `Bearer <token>` or `user:password`, the parts that look
 * random too (the token, the password, a token given as the user).
 */
function valuesOf(found: string): string[] {
  const t = found.trim().replace(/^(["'`])([\s\S]*)\1$/, '$2');
  if (/[\r\n]/.test(t)) return t.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => !/\s/.test(l));
  const parts = /\s/.test(t) ? t.split(/\s+/) : (/^([^\s:]+):(\S+)$/.exec(t)?.slice(1) ?? []);
  return [t, ...parts.filter(isRandomPart)];
}

/**
 * Adds the values of `findings` in `text` that may recur ({@link isRecurringValue}) to `into`;
 * the first kind found names a value.
 */
export function collectValues(text: string, findings: readonly Finding[], into: Map<string, string>): void {
  for (const f of findings) {
    for (const value of valuesOf(text.slice(f.start, f.end))) {
      if (isRecurringValue(value) && !into.has(value)) into.set(value, f.kind);
    }
  }
}

/** Whether the UTF-16 unit `c` is an ASCII letter or digit (a token goes on through it). */
function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * A cut: an ellipsis (`…`, `...`), a `[… N more characters …]` note or fit-to-budget's
 * ` [truncated]` (the head before it may end in spaces, and before a note in a line break).
 */
const CUT = /…|\.\.\.|\[…|\[truncated\]/g;
/** An ellipsis a tail may follow (then spaces or tabs at most). */
const ELLIPSIS = /(?:…|\.\.\.)[ \t]*/g;

/** Whether the UTF-16 unit `c` is whitespace a value never starts or ends with (values are trimmed). */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether a value may start at `at` (not midway through a run of letters and digits, not on a space). */
function mayStart(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return !isSpace(c) && !(at > 0 && isAlnum(c) && isAlnum(text.charCodeAt(at - 1)));
}

/** Whether a value may end at `end` (exclusive; not midway through a run of letters and digits, not after a space). */
function mayEnd(text: string, end: number): boolean {
  const c = text.charCodeAt(end - 1);
  return !isSpace(c) && !(end < text.length && isAlnum(c) && isAlnum(text.charCodeAt(end)));
}

/** The known values by their last {@link MIN_RECURRING_CHARS} characters, and by their first (each list sorted). */
interface ValueIndex {
  readonly size: number;
  readonly heads: Map<string, string[]>;
  readonly tails: Map<string, string[]>;
  /** The last two UTF-16 units of each value as one number: most places are passed over by this alone. */
  readonly lastPairs: Set<number>;
}

/** Two UTF-16 units as one number. */
const pair = (a: number, b: number): number => a * 65536 + b;

/** One index per set, built again when the set has grown (a job's set only grows). */
const indexes = new WeakMap<KnownSecrets, ValueIndex>();

function indexOfValues(known: KnownSecrets): ValueIndex {
  const cached = indexes.get(known);
  if (cached && cached.size === known.size) return cached;
  const heads = new Map<string, string[]>();
  const tails = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, k: string, v: string) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  const lastPairs = new Set<number>();
  for (const value of known.keys()) {
    add(heads, value.slice(0, MIN_RECURRING_CHARS), value);
    add(tails, value.slice(-MIN_RECURRING_CHARS), value);
    lastPairs.add(pair(value.charCodeAt(value.length - 2), value.charCodeAt(value.length - 1)));
  }
  for (const list of heads.values()) list.sort();
  const index = { size: known.size, heads, tails, lastPairs };
  indexes.set(known, index);
  return index;
}

/** The first value of a sorted list that starts with `prefix` and is longer, if any (binary search). */
function longerWithPrefix(sorted: readonly string[], prefix: string): string | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++) if (sorted[i].length > prefix.length) return sorted[i];
  return undefined;
}

/**
 * A finding (priority 2) for every occurrence in `text` of a known value that stands as a
 * token of its own — not inside a longer run of letters and digits (`abc123xyz` is not found
 * in `abc123xyz9`) — and for every head of one (at least {@link MIN_RECURRING_CHARS}
 * characters) that a cut ends (`Zq8xT4mB2n…`, `… [120 more characters]`), and every tail
 * one starts after an ellipsis (`…vK9pL3wY6s`).
 *
 * One pass over the text whatever the number of values: each place a value may end is looked
 * up by the {@link MIN_RECURRING_CHARS} characters before it (the random end of a token, so
 * families that share a start — JWTs, `sk_live_`, `github_pat_` — do not crowd one list);
 * before each cut, the run back to a space or the previous cut by its start; after each
 * ellipsis, the run up to a space or the next ellipsis by its end.
 */
export function recurrences(text: string, known: KnownSecrets): Finding[] {
  const out: Finding[] = [];
  if (known.size === 0 || text.length < MIN_RECURRING_CHARS) return out;
  const { heads, tails, lastPairs } = indexOfValues(known);
  const kind = (value: string) => known.get(value) ?? 'secret';
  // Whole values.
  for (let end = MIN_RECURRING_CHARS; end <= text.length; end++) {
    if (!lastPairs.has(pair(text.charCodeAt(end - 2), text.charCodeAt(end - 1))) || !mayEnd(text, end)) continue;
    const values = tails.get(text.substr(end - MIN_RECURRING_CHARS, MIN_RECURRING_CHARS));
    if (!values) continue;
    for (const value of values) {
      const start = end - value.length;
      if (start >= 0 && mayStart(text, start) && text.startsWith(value, start)) out.push({ start, end, kind: kind(value), priority: 2 });
    }
  }
  // Heads a cut ends: the longest one in the run before each cut.
  let after = 0;
  for (const m of text.matchAll(CUT)) {
    let cut = m.index;
    while (cut > after && (text[cut - 1] === ' ' || text[cut - 1] === '\t' || (m[0] !== '…' && m[0] !== '...' && isSpace(text.charCodeAt(cut - 1))))) cut--;
    let from = cut;
    while (from > after && cut - from < MAX_RECURRING_CHARS && !isSpace(text.charCodeAt(from - 1))) from--;
    after = m.index + m[0].length;
    for (let start = from; start + MIN_RECURRING_CHARS <= cut; start++) {
      if (!mayStart(text, start)) continue;
      const sorted = heads.get(text.substr(start, MIN_RECURRING_CHARS));
      const value = sorted && longerWithPrefix(sorted, text.slice(start, cut));
      if (value) {
        out.push({ start, end: cut, kind: kind(value), priority: 2 });
        break;
      }
    }
  }
  // Tails an ellipsis starts: the longest one in the run after each.
  for (const m of text.matchAll(ELLIPSIS)) {
    const from = m.index + m[0].length;
    let stop = from;
    while (stop < text.length && stop - from < MAX_RECURRING_CHARS && !isSpace(text.charCodeAt(stop)) && text[stop] !== '…' && !text.startsWith('...', stop)) stop++;
    for (let end = stop; end >= from + MIN_RECURRING_CHARS; end--) {
      if (!mayEnd(text, end)) continue;
      const tail = text.slice(from, end);
      const value = tails.get(text.substr(end - MIN_RECURRING_CHARS, MIN_RECURRING_CHARS))?.find((v) => v.length > tail.length && v.endsWith(tail));
      if (value) {
        out.push({ start: from, end, kind: kind(value), priority: 2 });
        break;
      }
    }
  }
  return out;
}
