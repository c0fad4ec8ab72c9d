/**
 * Token counting for the budget (DESIGN §4), over a gpt-tokenizer encoding.
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
const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS},}|\\s{${LONG_RUN_CHARS},}`, 'g');

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
 * A counter bound to one encoding, so callers pass one object around.
 * `count(text)` returns a {@link TokenCount}.
 */
export interface TokenCounter {
  readonly tokenizer: TokenizerName;
  count(text: string): TokenCount;
}

/** Binds {@link countTokens} to an encoding. */
export function tokenCounter(tokenizer: TokenizerName, encoding: TokenEncoding): TokenCounter {
  return { tokenizer, count: (text) => countTokens(encoding, text) };
}
