/**
 * Free text written into a handoff or briefing as prose (the summary, the reason for a
 * handoff): whoever wrote it — the user, a drafted summary, a language model's answer — it
 * cannot change the file's structure. `parse.ts` splits a body at
 * `## ` lines outside code fences, and Markdown viewers (CommonMark) read a lone CR as a line
 * break, `---`/`===` under a line as a setext heading and an unclosed fence as running to the
 * end of the document.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `text` trimmed, with line breaks as LF (CRLF and lone CR too), every ATX heading line
 * (`#`…`######` at up to three spaces) and every setext underline (`---`, `===`) escaped with a
 * backslash (shown as typed), and a code fence left open closed at the end. Text inside a
 * closed fence is left as it is (a heading there is code, not a heading).
 * @returns the text to write; '' for blank text
 */
export function structureSafeProse(text: string): string {
  const lines = text.trim().split(/\r\n|\r|\n/);
  let fence: string | undefined;
  const out = lines.map((line) => {
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
      return line;
    }
    if (fence) return line;
    return line.replace(/^( {0,3})(#{1,6}(?:[ \t]|$)|-{3,}[ \t]*$|={3,}[ \t]*$|(?:- *){3,}$|(?:\* *){3,}$)/, '$1\\$2');
  });
  if (fence) out.push(fence);
  return out.join('\n');
}
