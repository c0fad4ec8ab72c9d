/** A recorded command as the user sees it before consenting to re-run it: what the shell gets, nothing hidden (a hand-edited file may hold a line break or bidi controls). */
import { escapeCodePoint } from '../safety/gate';
import { INVISIBLE_PATTERN } from '../safety/invisible';

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** One character of the gate's invisible set (no `g` flag: `test` keeps no state). */
const INVISIBLE_CHAR = new RegExp(INVISIBLE_PATTERN.source, 'u');

/** Line breaks as `\n`, invisible characters and whitespace other than the space as `\u{…}`; spaces never folded: what is shown is what runs. */
export function shownCommand(command: string): string {
  let out = '';
  for (const ch of command) {
    if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (ch !== ' ' && (/\s/u.test(ch) || INVISIBLE_CHAR.test(ch))) out += escapeCodePoint(ch);
    else out += ch;
  }
  return out;
}

/** At most 5 distinct, as `\u{…}`. A command holding one is not re-run: the gate escapes them when a handoff is written, so it was put in afterwards. */
export function invisibleInCommand(command: string): string[] {
  const found = new Set<string>();
  for (const ch of command) if (INVISIBLE_CHAR.test(ch)) found.add(escapeCodePoint(ch));
  return [...found].slice(0, 5);
}
