/** A value found to be a secret is one wherever it recurs, even as the head of a value a text was cut inside (`Zq8xT4mB…`). */
import type { Finding } from './secretKinds';

/** value → kind, carried from one scan to the next so later texts are redacted too. */
export type KnownSecrets = ReadonlyMap<string, string>;

/** Shorter values (`admin`) are common words too. Also the least length of a cut head or tail. */
export const MIN_RECURRING_CHARS = 8;
/** Longer findings are blocks; their lines are remembered instead. */
const MAX_RECURRING_CHARS = 4096;

/** Plain words (`thisismypassword`) are redacted where found, not in every sentence: one line with a digit, symbol or inner capital. */
export function isRecurringValue(value: string): boolean {
  if (value.length < MIN_RECURRING_CHARS || value.length > MAX_RECURRING_CHARS || /[\r\n]/.test(value) || value.includes('\0') || value.includes('[REDACTED'))
    return false;
  const word = value.replace(/\s+/g, '');
  if (!/[A-Za-z0-9]/.test(word)) return false;
  return /[0-9]/.test(word) || /[^A-Za-z]/.test(word) || (/[a-z]/.test(word) && /[A-Z]/.test(word.slice(1)));
}

/** Letters and digits both: never a word or a fixed literal (`Bearer`, `x-oauth-basic`). */
const isRandomPart = (part: string): boolean => /[0-9]/.test(part) && /[A-Za-z]/.test(part);

/** Without quotes; a block's lines without spaces; the random-looking parts of `Bearer <token>` or `user:password`. */
function valuesOf(found: string): string[] {
  const t = found.trim().replace(/^(["'`])([\s\S]*)\1$/, '$2');
  if (/[\r\n]/.test(t))
    return t
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .filter((l) => !/\s/.test(l));
  const parts = /\s/.test(t) ? t.split(/\s+/) : (/^([^\s:]+):(\S+)$/.exec(t)?.slice(1) ?? []);
  return [t, ...parts.filter(isRandomPart)];
}

/** The first kind found names a value. */
export function collectValues(text: string, findings: readonly Finding[], into: Map<string, string>): void {
  for (const f of findings) {
    for (const value of valuesOf(text.slice(f.start, f.end))) {
      if (isRecurringValue(value) && !into.has(value)) into.set(value, f.kind);
    }
  }
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** An ellipsis, a `[… N more characters …]` note or fit-to-budget's ` [truncated]`. */
const CUT = /…|\.\.\.|\[…|\[truncated\]/g;
const ELLIPSIS = /(?:…|\.\.\.)[ \t]*/g;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function mayStart(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return !isSpace(c) && !(at > 0 && isAlnum(c) && isAlnum(text.charCodeAt(at - 1)));
}

function mayEnd(text: string, end: number): boolean {
  const c = text.charCodeAt(end - 1);
  return !isSpace(c) && !(end < text.length && isAlnum(c) && isAlnum(text.charCodeAt(end)));
}

/** The known values by their first {@link MIN_RECURRING_CHARS} characters (each list sorted) and by their last. */
interface ValueIndex {
  readonly size: number;
  readonly heads: Map<string, string[]>;
  readonly tails: Map<string, string[]>;
  /** Most places are passed over by this alone. */
  readonly lastPairs: Set<number>;
}

const pair = (a: number, b: number): number => a * 65536 + b;

/** Rebuilt when the set has grown (a job's set only grows). */
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
 * Findings for each known value standing alone, each head of one a cut ends (`Zq8xT4mB2n…`) and each tail after an
 * ellipsis. One pass: places are looked up by a token's random end, so families sharing a start do not crowd one list.
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
    while (stop < text.length && stop - from < MAX_RECURRING_CHARS && !isSpace(text.charCodeAt(stop)) && text[stop] !== '…' && !text.startsWith('...', stop))
      stop++;
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
