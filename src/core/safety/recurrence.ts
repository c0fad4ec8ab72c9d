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

/**
 * The values a finding's text stands for: the text itself without surrounding quotes; for a
 * block (a PEM key), each of its lines that is one run without spaces (its body, not its
 * `-----BEGIN …-----` armour); for `Bearer <token>` or `user:password`, the token and the password too.
 */
function valuesOf(found: string): string[] {
  const t = found.trim().replace(/^(["'`])([\s\S]*)\1$/, '$2');
  if (/[\r\n]/.test(t)) return t.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => !/\s/.test(l));
  const out = [t];
  for (const part of t.split(/\s+/)) if (part !== t) out.push(part);
  const password = /^[^\s:]+:(\S+)$/.exec(t)?.[1];
  if (password) out.push(password);
  return out;
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

/** Whether the character at `i` continues a token (so a value found there is part of a longer one). */
function continuesToken(text: string, i: number): boolean {
  return i >= 0 && i < text.length && /[A-Za-z0-9]/.test(text[i]);
}

/** A cut right after a head: an ellipsis (`…`, `...`) or a `[… N more characters …]` note, after spaces or a line break at most. */
const CUT_AFTER = /^[ \t]*(?:…|\.\.\.)|^\s*\[…/;
/** A cut right before a tail: an ellipsis, then spaces at most. */
const CUT_BEFORE = /(?:…|\.\.\.)[ \t]*$/;

/** Characters `text` and `value` share from `at` on (forward), at most `value.length`. */
function sharedHead(text: string, at: number, value: string): number {
  let n = 0;
  while (n < value.length && at + n < text.length && text.charCodeAt(at + n) === value.charCodeAt(n)) n++;
  return n;
}

/** Characters `text` before `end` and the end of `value` share (backward), at most `value.length`. */
function sharedTail(text: string, end: number, value: string): number {
  let n = 0;
  while (n < value.length && end - n - 1 >= 0 && text.charCodeAt(end - n - 1) === value.charCodeAt(value.length - n - 1)) n++;
  return n;
}

/**
 * A finding (priority 2) for every occurrence in `text` of a known value that stands as a
 * token of its own — not inside a longer run of letters and digits (`abc123xyz` is not found
 * in `abc123xyz9`) — and for every head of one (at least {@link MIN_RECURRING_CHARS}
 * characters) that a cut ends (`Zq8xT4mB2n…`, `… [120 more characters]`), and every tail
 * one starts (`…vK9pL3wY6s`). Linear in the text for each value (`indexOf`).
 */
export function recurrences(text: string, known: KnownSecrets): Finding[] {
  const out: Finding[] = [];
  if (known.size === 0 || text.length < MIN_RECURRING_CHARS) return out;
  const edge = (value: string, i: number) => /[A-Za-z0-9]/.test(value[i]);
  for (const [value, kind] of known) {
    const head = value.slice(0, MIN_RECURRING_CHARS);
    for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1)) {
      if (edge(value, 0) && continuesToken(text, at - 1)) continue;
      const n = sharedHead(text, at, value);
      const whole = n === value.length && !(edge(value, n - 1) && continuesToken(text, at + n));
      if (whole || (n < value.length && CUT_AFTER.test(text.slice(at + n, at + n + 8)))) out.push({ start: at, end: at + n, kind, priority: 2 });
    }
    const tail = value.slice(-MIN_RECURRING_CHARS);
    for (let at = text.indexOf(tail); at >= 0; at = text.indexOf(tail, at + 1)) {
      const end = at + tail.length;
      if (edge(value, value.length - 1) && continuesToken(text, end)) continue;
      const n = sharedTail(text, end, value);
      if (n < value.length && CUT_BEFORE.test(text.slice(Math.max(0, end - n - 8), end - n))) out.push({ start: end - n, end, kind, priority: 2 });
    }
  }
  return out;
}
