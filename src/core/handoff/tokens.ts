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
  /**
   * Optional, not in gpt-tokenizer: the counts of several texts at once, in order, each what
   * `countTokens(text, options)` returns. The encoding on a worker thread
   * (src/engine/tokenizerWorker.ts) answers a batch in one round trip; without it, callers
   * count text by text ({@link countTokensMany}).
   */
  countTokensBatch?(texts: readonly string[], options?: { disallowedSpecial?: Set<string> }): number[];
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
 * chunked: the encoder's merge step is quadratic in the length of a run, so one long run
 * (a CJK paragraph, a pasted blob) would cost seconds, while short runs stay cheap. Ordinary words, identifiers and URLs are far shorter and stay exact; CJK prose
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
 * (test/unit/core/handoff/tokenPieces.test.ts compares both).
 */
export const LONG_RUN_PATTERN = `(?<!\\S)\\S{${LONG_RUN_CHARS},}|(?<!\\s)\\s{${LONG_RUN_CHARS},}`;
const LONG_RUN = new RegExp(LONG_RUN_PATTERN, 'g');

/**
 * The parts of `text` counted one by one: the whole text when it has no long run; else the
 * text between long runs, and each long run in {@link RUN_CHUNK_CHARS}-character chunks, in
 * order (`estimated: true`). No parts for the empty text.
 */
function countedParts(text: string): { parts: string[]; estimated: boolean } {
  if (!text) {
    return { parts: [], estimated: false };
  }
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) {
    return { parts: [text], estimated: false };
  }
  LONG_RUN.lastIndex = 0;
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    const start = m.index ?? 0;
    if (start > last) {
      parts.push(text.slice(last, start));
    }
    const run = m[0];
    for (let i = 0; i < run.length; i += RUN_CHUNK_CHARS) {
      parts.push(run.slice(i, i + RUN_CHUNK_CHARS));
    }
    last = start + run.length;
  }
  if (last < text.length) {
    parts.push(text.slice(last));
  }
  return { parts, estimated: true };
}

/**
 * Counts the tokens of `text` in `encoding`. Never throws on special-token strings;
 * bounded work on pathological input (see module doc).
 *
 * @returns `{tokens, estimated}` — tokens in the encoding's units.
 */
export function countTokens(encoding: TokenEncoding, text: string): TokenCount {
  const { parts, estimated } = countedParts(text);
  let tokens = 0;
  for (const part of parts) {
    tokens += encoding.countTokens(part, PLAIN_TEXT);
  }
  return { tokens, estimated };
}

/**
 * {@link countTokens} of each text, in order — the same figures — with every part of every
 * text counted in one `countTokensBatch` call when the encoding has it (one round trip to
 * the worker thread instead of one per part), else part by part.
 *
 * @returns one `{tokens, estimated}` per text (tokens in the encoding's units)
 * @throws Error when the batch answers another number of counts than it was asked (a broken encoding)
 */
export function countTokensMany(encoding: TokenEncoding, texts: readonly string[]): TokenCount[] {
  if (!encoding.countTokensBatch) {
    return texts.map((text) => countTokens(encoding, text));
  }
  const split = texts.map(countedParts);
  const all = split.flatMap((s) => s.parts);
  const counts = all.length > 0 ? encoding.countTokensBatch(all, PLAIN_TEXT) : [];
  if (counts.length !== all.length) {
    throw new Error(`countTokensBatch returned ${counts.length} counts for ${all.length} texts`);
  }
  let k = 0;
  return split.map(({ parts, estimated }) => {
    let tokens = 0;
    for (let i = 0; i < parts.length; i++) {
      tokens += counts[k++];
    }
    return { tokens, estimated };
  });
}

/**
 * An upper bound of {@link countTokens}`(encoding, text).tokens` in every encoding we use,
 * found without one (no tokenizer to load): the UTF-8 bytes `text` can take, 1 per UTF-16
 * code unit below U+0080, 2 below U+0800, else 3. o200k_base and cl100k_base are byte-level
 * byte-pair encodings: each token stands for at least one byte of the UTF-8 it encodes (a
 * surrogate pair is 4 bytes, counted 6 here; a lone surrogate, also one a 128-character chunk
 * cuts off, is encoded as U+FFFD, 3 bytes). test/unit/core/handoff/tokens.test.ts checks
 * it against the counts of both encodings.
 *
 * @returns tokens (an upper bound; 0 for the empty text)
 */
export function tokenUpperBound(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
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
 * at most `limit` tokens, else false (early exit, see {@link tokensWithin}); `countMany(texts)`,
 * when there, the counts of several texts asked at once.
 */
export interface TokenCounter {
  readonly tokenizer: TokenizerName;
  count(text: string): TokenCount;
  within(text: string, limit: number): number | false;
  /** Optional: `count` of each text, in order, asked at once ({@link countTokensMany}). */
  countMany?(texts: readonly string[]): TokenCount[];
}

/** Binds {@link countTokens}, {@link tokensWithin} and {@link countTokensMany} to an encoding. */
export function tokenCounter(tokenizer: TokenizerName, encoding: TokenEncoding): TokenCounter {
  return {
    tokenizer,
    count: (text) => countTokens(encoding, text),
    within: (text, limit) => tokensWithin(encoding, text, limit),
    countMany: (texts) => countTokensMany(encoding, texts),
  };
}
