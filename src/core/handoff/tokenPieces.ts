// Counts each piece of a text once: fit-to-budget asks for dozens of renderings of one handoff that differ in a few lines.
// A cut right after a line feed followed by printable ASCII other than space and `/` keeps counts additive: in both encodings'
// pre-tokenizers a pre-token holding a line feed is whitespace only or punctuation then `[\r\n/]*`, so none continues past
// such a cut, and the long-run chunking of ./tokens.ts never crosses it either.
import type { TokenCount, TokenCounter } from './tokens';

function safeAfterLineFeed(c: number): boolean {
  // '!'..'~' without '/': printable, not whitespace, not a character a pre-token may take after line feeds.
  return c >= 0x21 && c <= 0x7e && c !== 0x2f;
}

/** Pieces whose counts add up to the count of `text`; joined, they give `text`. */
export function tokenPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** End (exclusive) of the piece starting at `start`, so a count can walk the pieces and stop early. */
function pieceEnd(text: string, start: number): number {
  for (let nl = text.indexOf('\n', start); nl >= 0 && nl + 1 < text.length; nl = text.indexOf('\n', nl + 1)) {
    if (safeAfterLineFeed(text.charCodeAt(nl + 1))) return nl + 1;
  }
  return text.length;
}

/** The memo starts over past it. */
export const MEMO_MAX_CHARS = 16_000_000;

/** Past this many characters per token left (plus 4,096), a piece is asked "fits or not" without a full count. */
const CHARS_PER_TOKEN_BOUND = 8;

/** Exactly `base`'s figures, each distinct piece counted once (the missing ones in one `countMany`); let it go with the handoff it was made for. */
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
      for (let start = 0; start < text.length;) {
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
