/**
 * A recorded command as the user is shown it before consenting to re-run it
 * (docs/DESIGN.md §9 "Verify on receipt"): exactly the characters the shell will get, none
 * hidden. A handoff file can be edited by hand or by another agent, so its "Tests run" line
 * may hold a line break (a second command), bidi controls that reorder what a terminal shows
 * (Trojan Source, CVE-2021-42574) or Unicode tag characters (invisible text). Pure.
 */
import { escapeCodePoint } from '../safety/gate';
import { INVISIBLE_PATTERN } from '../safety/invisible';

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** One character of the gate's invisible set (no `g` flag: `test` keeps no state). */
const INVISIBLE_CHAR = new RegExp(INVISIBLE_PATTERN.source, 'u');

/**
 * `command` with every character that would not show as itself escaped: a line break as
 * `\n` (`\r`, `\t` likewise), each invisible or control character (the gate's set,
 * src/core/safety/invisible.ts, including bidi controls and tag characters) and each other
 * whitespace but the plain space (U+2028, no-break space…) as `\u{…}`. Spaces are kept, never
 * folded: what is shown is what runs. One line.
 */
export function shownCommand(command: string): string {
  let out = '';
  for (const ch of command) {
    if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (ch !== ' ' && (/\s/u.test(ch) || INVISIBLE_CHAR.test(ch))) out += escapeCodePoint(ch);
    else out += ch;
  }
  return out;
}

/**
 * The invisible characters of `command` (the gate's set: bidi controls, zero-width
 * characters, tag characters, control characters other than tab and line breaks), each as
 * `\u{…}`, at most 5 distinct; empty when it has none. A recorded command holding one is not
 * re-run: no agent's transcript records one (the gate escapes them when the handoff is
 * written), so it was put in the file afterwards.
 */
export function invisibleInCommand(command: string): string[] {
  const found = new Set<string>();
  for (const ch of command) if (INVISIBLE_CHAR.test(ch)) found.add(escapeCodePoint(ch));
  return [...found].slice(0, 5);
}
