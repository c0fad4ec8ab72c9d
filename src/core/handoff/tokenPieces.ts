/**
 * Counting the same text once: fit-to-budget and the history cap ask for the
 * tokens of dozens of renderings of one handoff that differ in a few lines (a frontmatter
 * figure, how many touched files are kept). {@link memoisedCounter} cuts each text into
 * pieces at places where cutting cannot change the count, counts each piece once, and adds
 * the remembered counts up — the same figures as counting every text whole.
 *
 * Where a cut is safe ({@link tokenPieces}): right after a line feed that is followed by a
 * printable ASCII character other than the space and `/`. In the pre-tokenizers of both
 * encodings we use (gpt-tokenizer's `O200K_TOKEN_SPLIT_REGEX` and `CL100K_TOKEN_SPLIT_REGEX`,
 * the published tiktoken patterns) a pre-token holding a line feed is either whitespace only
 * (it ends before the next non-whitespace character) or punctuation followed by
 * `[\r\n/]*` / `[\r\n]*` (it ends before anything else); no alternative starts with a line
 * feed and continues into a letter, digit or mark. So the pre-tokens of `a + b` are those of
 * `a` then those of `b`, and byte-pair encoding works within a pre-token. The long-run
 * chunking of ./tokens.ts (runs of whitespace or of non-whitespace) never crosses such a cut
 * either: the line feed ends a whitespace run, the next character starts another run.
 * test/unit/core/handoff/tokenPieces.test.ts checks the sum against whole counts on many
 * generated texts in both encodings.
 */
import type { TokenCount, TokenCounter } from './tokens';

/** Whether a cut right before the character code `c` (which follows a line feed) keeps token counts additive. */
function safeAfterLineFeed(c: number): boolean {
  // '!'..'~' without '/': printable, not whitespace, not a character a pre-token may take after line feeds.
  return c >= 0x21 && c <= 0x7e && c !== 0x2f;
}

/**
 * `text` cut into pieces whose token counts add up to the count of `text` (see the module
 * doc): each piece ends with a line feed followed, in `text`, by a printable ASCII character
 * other than the space and `/` — except the last piece. The pieces joined give `text`.
 */
export function tokenPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * Where the piece of `text` that starts at `start` ends (exclusive): right after the first
 * line feed at or past `start` that is followed by a printable ASCII character other than the
 * space and `/`, else the text's length. Walking `start = pieceEnd(text, start)` visits the
 * pieces of {@link tokenPieces} one by one, so a count can stop early without cutting the rest.
 */
function pieceEnd(text: string, start: number): number {
  for (let nl = text.indexOf('\n', start); nl >= 0 && nl + 1 < text.length; nl = text.indexOf('\n', nl + 1)) {
    if (safeAfterLineFeed(text.charCodeAt(nl + 1))) return nl + 1;
  }
  return text.length;
}

/** Most characters of pieces remembered by one {@link memoisedCounter}: 16,000,000 (the memo starts over past it). */
export const MEMO_MAX_CHARS = 16_000_000;

/**
 * A piece much longer than what is left of a limit is asked "fits or not" without a full
 * count (and not remembered): more than this many characters per token left, plus 4,096.
 */
const CHARS_PER_TOKEN_BOUND = 8;

/**
 * `base` with a memo of piece counts, for the texts of one handoff (prepare, fit-to-budget,
 * history): `count(text)` and `within(text, limit)` return exactly what `base` returns for the
 * whole text, counting each distinct piece ({@link tokenPieces}) once. `count` asks for the
 * pieces it does not know all at once (`base.countMany`, when there: one round trip to the
 * tokenizer's worker thread instead of one per piece). `within` stops at the
 * first piece that passes the limit, and asks `base.within` (early exit, nothing remembered)
 * for a piece far longer than the tokens left. Memory: at most {@link MEMO_MAX_CHARS}
 * characters of pieces; let the counter go with the handoff it was made for.
 */
export function memoisedCounter(base: TokenCounter): TokenCounter {
  let memo = new Map<string, TokenCount>();
  let chars = 0;
  const remember = (piece: string, c: TokenCount): TokenCount => {
    if (chars + piece.length > MEMO_MAX_CHARS) {
      memo = new Map();
      chars = 0;
    }
    memo.set(piece, c);
    chars += piece.length;
    return c;
  };
  const countPiece = (piece: string): TokenCount => memo.get(piece) ?? remember(piece, base.count(piece));
  return {
    tokenizer: base.tokenizer,
    count(text: string): TokenCount {
      const pieces = tokenPieces(text);
      // Looked up before anything is remembered: remembering may start the memo over.
      const known = pieces.map((piece) => memo.get(piece));
      const missing = [...new Set(pieces.filter((_, i) => known[i] === undefined))];
      const counted = new Map<string, TokenCount>();
      if (missing.length > 0) {
        const counts = base.countMany ? base.countMany(missing) : missing.map((piece) => base.count(piece));
        missing.forEach((piece, i) => counted.set(piece, remember(piece, counts[i])));
      }
      let tokens = 0;
      let estimated = false;
      for (let i = 0; i < pieces.length; i++) {
        const c = known[i] ?? (counted.get(pieces[i]) as TokenCount);
        tokens += c.tokens;
        estimated ||= c.estimated;
      }
      return { tokens, estimated };
    },
    within(text: string, limit: number): number | false {
      if (limit < 0) return false;
      let tokens = 0;
      // Piece by piece: a text far over the limit is never cut up past the piece that passes it.
      for (let start = 0; start < text.length; ) {
        const end = pieceEnd(text, start);
        const piece = text.slice(start, end);
        start = end;
        const left = limit - tokens;
        const known = memo.get(piece);
        if (known === undefined && piece.length > CHARS_PER_TOKEN_BOUND * left + 4096) {
          const n = base.within(piece, left);
          if (n === false) return false;
          tokens += n;
          continue;
        }
        tokens += (known ?? countPiece(piece)).tokens;
        if (tokens > limit) return false;
      }
      return tokens;
    },
  };
}
