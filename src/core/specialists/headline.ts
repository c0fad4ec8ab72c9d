/** About what a quick pick's detail line shows at its default width. */
export const MANDATE_HEADLINE_CHARS = 72;

/** The head of the first sentence, up to the colon or comma that introduces details ("Reviews the change against its intent"); never cut mid-word. */
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
