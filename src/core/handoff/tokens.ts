/**
 * Token counting for the budget (docs/DESIGN.md §4), over a gpt-tokenizer encoding.
 *
 * Two rules the raw tokenizer does not give us:
 * - text containing special-token strings such as `<|endoftext|>` is counted as plain
 *   text (gpt-tokenizer throws on them by default);
 * - byte-pair encoding is quadratic in the length of one pre-token, so a very long run
 *   without whitespace (minified code, base64) or of whitespace alone could stall the
 *   editor. Such runs are counted in fixed-size chunks: the work stays linear and the
 *   count becomes an estimate (`estimated: true`), off by at most a token per chunk.
 */
import type { TokenizerName } from './schema';

/** The subset of a gpt-tokenizer encoding module this project uses. */
export interface TokenEncoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  /** The count when it is at most `limit`, else false — stops encoding as soon as the limit is passed. */
  isWithinTokenLimit(text: string, limit: number, options?: { disallowedSpecial?: Set<string> }): number | false;
}

/** Loads (once) and returns the encoding for a tokenizer name; provided by the host layer. */
export type EncodingLoader = (name: TokenizerName) => TokenEncoding;

/** A token count; `estimated` is true when long runs were counted in chunks. */
export interface TokenCount {
  readonly tokens: number;
  readonly estimated: boolean;
}

/**
 * Runs longer than this many characters without a whitespace/non-whitespace change are
 * chunked. Measured in o200k_base: one run of 1,999 CJK characters takes ~20 ms and
 * 50,000 'x' take 1.5 s (quadratic), while 256-character runs cost ~0.7 ms at most.
 * Ordinary words, identifiers and URLs are far shorter and stay exact; CJK prose
 * (written without spaces) is chunked, off by at most a token per chunk.
 */
export const LONG_RUN_CHARS = 256;

/** Chunk size, in characters, for counting a long run. */
export const RUN_CHUNK_CHARS = 128;

// Treat every special-token string as ordinary text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/**
 * Long runs, each matched from its first character: the same matches, scanned left to right, as
 * `\S{256,}|\s{256,}` (a match of that pattern always starts where a run starts, since the
 * previous match ended where its run ended), but the lookbehinds refuse every start inside a
 * run at once, where the plain pattern re-scanned the rest of the run from each character
 * (8 ms → 3.6 ms on a 150,000-character handoff; test/unit/core/handoff/tokenPieces.test.ts
 * compares both).
 */
export const LONG_RUN_PATTERN = `(?<!\\S)\\S{${LONG_RUN_CHARS},}|(?<!\\s)\\s{${LONG_RUN_CHARS},}`;
const LONG_RUN = new RegExp(LONG_RUN_PATTERN, 'g');

/**
 * Counts the tokens of `text` in `encoding`. Never throws on special-token strings;
 * bounded work on pathological input (see module doc).
 *
 * @returns `{tokens, estimated}` — tokens in the encoding's units.
 */
export function countTokens(encoding: TokenEncoding, text: string): TokenCount {
  if (!text) {
    return { tokens: 0, estimated: false };
  }
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) {
    return { tokens: encoding.countTokens(text, PLAIN_TEXT), estimated: false };
  }
  LONG_RUN.lastIndex = 0;
  let tokens = 0;
  let last = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    const start = m.index ?? 0;
    if (start > last) {
      tokens += encoding.countTokens(text.slice(last, start), PLAIN_TEXT);
    }
    const run = m[0];
    for (let i = 0; i < run.length; i += RUN_CHUNK_CHARS) {
      tokens += encoding.countTokens(run.slice(i, i + RUN_CHUNK_CHARS), PLAIN_TEXT);
    }
    last = start + run.length;
  }
  if (last < text.length) {
    tokens += encoding.countTokens(text.slice(last), PLAIN_TEXT);
  }
  return { tokens, estimated: true };
}

/**
 * Whether `text` fits in `limit` tokens, with the same rules as {@link countTokens}
 * (special-token strings as plain text, long runs chunked), stopping as soon as the
 * count passes the limit — for "fits or not" questions on text that may be far over
 * budget (gpt-tokenizer `isWithinTokenLimit`).
 *
 * @returns the count (tokens) when it is at most `limit`, else false
 */
export function tokensWithin(encoding: TokenEncoding, text: string, limit: number): number | false {
  if (limit < 0) {
    return false;
  }
  if (!text) {
    return 0;
  }
  let tokens = 0;
  const add = (piece: string): boolean => {
    const n = encoding.isWithinTokenLimit(piece, limit - tokens, PLAIN_TEXT);
    if (n === false) {
      return false;
    }
    tokens += n;
    return true;
  };
  LONG_RUN.lastIndex = 0;
  let last = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    const start = m.index ?? 0;
    if (start > last && !add(text.slice(last, start))) {
      return false;
    }
    const run = m[0];
    for (let i = 0; i < run.length; i += RUN_CHUNK_CHARS) {
      if (!add(run.slice(i, i + RUN_CHUNK_CHARS))) {
        return false;
      }
    }
    last = start + run.length;
  }
  if (last < text.length && !add(text.slice(last))) {
    return false;
  }
  return tokens;
}

/**
 * A counter bound to one encoding, so callers pass one object around.
 * `count(text)` returns a {@link TokenCount}; `within(text, limit)` the count when it is
 * at most `limit` tokens, else false (early exit, see {@link tokensWithin}).
 */
export interface TokenCounter {
  readonly tokenizer: TokenizerName;
  count(text: string): TokenCount;
  within(text: string, limit: number): number | false;
}

/** Binds {@link countTokens} and {@link tokensWithin} to an encoding. */
export function tokenCounter(tokenizer: TokenizerName, encoding: TokenEncoding): TokenCounter {
  return { tokenizer, count: (text) => countTokens(encoding, text), within: (text, limit) => tokensWithin(encoding, text, limit) };
}
