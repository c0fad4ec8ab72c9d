/**
 * Token counting over a gpt-tokenizer encoding. Special-token strings such as `<|endoftext|>` count as plain text (the raw
 * tokenizer throws on them), and runs over {@link LONG_RUN_CHARS} are counted in chunks: byte-pair encoding is quadratic in a
 * pre-token's length, so chunking keeps the work linear at the cost of an estimate (at most a token off per chunk).
 */
import type { TokenizerName } from './schema';

export interface TokenEncoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  /** Stops encoding as soon as the limit is passed. */
  isWithinTokenLimit(text: string, limit: number, options?: { disallowedSpecial?: Set<string> }): number | false;
  /** Not in gpt-tokenizer: several counts in one round trip to the worker thread. */
  countTokensBatch?(texts: readonly string[], options?: { disallowedSpecial?: Set<string> }): number[];
}

/** Loads once; provided by the host layer. */
export type EncodingLoader = (name: TokenizerName) => TokenEncoding;

/** `estimated`: long runs were counted in chunks. */
export interface TokenCount {
  readonly tokens: number;
  readonly estimated: boolean;
}

/** Words, identifiers and URLs stay exact; CJK prose, written without spaces, is chunked. */
export const LONG_RUN_CHARS = 256;

export const RUN_CHUNK_CHARS = 128;

// Treat every special-token string as ordinary text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/** `\S{256,}|\s{256,}`, but the lookbehinds refuse every start inside a run at once instead of re-scanning the run from each character. */
export const LONG_RUN_PATTERN = `(?<!\\S)\\S{${LONG_RUN_CHARS},}|(?<!\\s)\\s{${LONG_RUN_CHARS},}`;
const LONG_RUN = new RegExp(LONG_RUN_PATTERN, 'g');

/** The whole text, or the text between long runs and each run in chunks (then `estimated`). */
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

export function countTokens(encoding: TokenEncoding, text: string): TokenCount {
  const { parts, estimated } = countedParts(text);
  let tokens = 0;
  for (const part of parts) {
    tokens += encoding.countTokens(part, PLAIN_TEXT);
  }
  return { tokens, estimated };
}

/** One batch call when the encoding has it; throws an Error when the batch answers another number of counts (a broken encoding). */
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
 * An upper bound of the count in every encoding we use, without loading one: UTF-8 bytes, since each token of a byte-level BPE
 * covers at least one byte (a surrogate pair counts 6; a lone surrogate encodes as U+FFFD, 3 bytes).
 */
export function tokenUpperBound(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

/** The count when at most `limit`, else false, stopping as soon as the limit is passed: for text that may be far over budget. */
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

/** Bound to one encoding, so callers pass one object around. */
export interface TokenCounter {
  readonly tokenizer: TokenizerName;
  count(text: string): TokenCount;
  within(text: string, limit: number): number | false;
  countMany?(texts: readonly string[]): TokenCount[];
}

export function tokenCounter(tokenizer: TokenizerName, encoding: TokenEncoding): TokenCounter {
  return {
    tokenizer,
    count: (text) => countTokens(encoding, text),
    within: (text, limit) => tokensWithin(encoding, text, limit),
    countMany: (texts) => countTokensMany(encoding, texts),
  };
}
