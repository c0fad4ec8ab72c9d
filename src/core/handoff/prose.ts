// Free text written as prose cannot change the file's structure: parse.ts splits at `## ` outside fences, and
// CommonMark reads a lone CR as a break, `---`/`===` under a line as a heading and an unclosed fence as running to the end.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Headings and setext underlines outside fences escaped, line breaks as LF, a fence left open closed; '' for blank text. */
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
