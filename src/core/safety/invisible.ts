/**
 * Removed from other agents' text as a channel for hidden instructions: bidi controls, zero-width and tag characters, and
 * control characters but tab, LF and CR (an ESC would reach a terminal). Kept: ZWJ between emoji, subdivision-flag tags.
 */
export const INVISIBLE_PATTERN =
  // eslint-disable-next-line no-control-regex
  /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\u{e0000}-\u{e007f}]+/gu;

/** The RGI emoji tag sequences (subdivision flags), kept whole: 🏴 + tag letters + cancel tag. */
const RGI_TAG_SEQUENCES = new Set(
  ['gbeng', 'gbsct', 'gbwls'].map((s) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('') + String.fromCodePoint(0xe007f)),
);

const EMOJI_BEFORE_ZWJ = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u;
const EMOJI_AFTER_ZWJ = /\p{Extended_Pictographic}/u;

function codePointBefore(text: string, index: number): { cp: string; at: number } | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return { cp: text.slice(index - 2, index), at: index - 2 };
  }
  return { cp: text[index - 1], at: index - 1 };
}

function zwjBetweenEmoji(text: string, offset: number): boolean {
  let before = codePointBefore(text, offset);
  if (before?.cp === '\ufe0f') before = codePointBefore(text, before.at); // ❤️‍🔥: emoji, VS16, ZWJ
  const after = text.codePointAt(offset + 1);
  return before !== undefined && EMOJI_BEFORE_ZWJ.test(before.cp) && after !== undefined && EMOJI_AFTER_ZWJ.test(String.fromCodePoint(after));
}

/** @returns the cleaned text and how many code points were removed */
export function stripInvisible(text: string): { text: string; removed: number } {
  let removed = 0;
  if (!text) return { text, removed };
  const cleaned = text.replace(INVISIBLE_PATTERN, (match: string, offset: number) => {
    if (match === '\u200d' && zwjBetweenEmoji(text, offset)) return match;
    if (match.codePointAt(0)! >= 0xe0000 && RGI_TAG_SEQUENCES.has(match) && codePointBefore(text, offset)?.cp === '\u{1f3f4}') return match;
    removed += [...match].length;
    return '';
  });
  return { text: cleaned, removed };
}
