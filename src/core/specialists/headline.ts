/**
 * A specialist's mandate in one short line, for a row of a list (the palette flow's
 * specialist pick): the head of its first sentence, up to the colon that introduces the
 * details ("Reviews the change against its intent: real bugs, …" → "Reviews the change
 * against its intent"), or, without one, up to the first comma; the whole first sentence
 * when it is short already. Never cut mid-word: a quick pick row ends in "…" when its text
 * does not fit, and a mandate's head fits.
 */

/** Most characters a headline aims at: about what a quick pick's detail line shows at its default width (600 px). */
export const MANDATE_HEADLINE_CHARS = 72;

/**
 * The headline of `mandate` (characters, not tokens): at most {@link MANDATE_HEADLINE_CHARS}
 * characters where the mandate's first sentence has a colon or comma early enough; the
 * first sentence otherwise (the caller shows the rest elsewhere, e.g. in the panel).
 */
export function mandateHeadline(mandate: string): string {
  const text = mandate.trim().replace(/\s+/g, ' ');
  const sentence = (/^(.+?)[.!?](\s|$)/.exec(text)?.[1] ?? text).trim();
  if (sentence.length <= MANDATE_HEADLINE_CHARS) return sentence;
  for (const mark of [':', ';', ' —', ',']) {
    const at = sentence.indexOf(mark);
    if (at >= 12 && at <= MANDATE_HEADLINE_CHARS) return sentence.slice(0, at).trim();
  }
  return sentence;
}
