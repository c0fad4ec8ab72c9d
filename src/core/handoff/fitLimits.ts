/** The sizes fit-to-budget shortens to (./fit.ts), in characters; and its markers. Pure. */

/** Marker appended to a summary that fit-to-budget shortened (docs/DESIGN.md §4). */
export const SUMMARY_TRUNCATED_MARKER = ' [truncated]';

/** Marker ending a text fit-to-budget shortened to its head or first line. */
export const SHORTENED_MARKER = ' …';

/** Characters of the summary, the latest request and the last turn kept at the floor. */
export const FLOOR_SUMMARY_CHARS = 300;
export const FLOOR_LATEST_REQUEST_CHARS = 400;
export const FLOOR_TURN_CHARS = 300;
/** Characters of the agent's compaction summary kept at the floor (cut below it first: it is the agent's words, not a fact of the log). */
export const FLOOR_COMPACTION_CHARS = 300;
/** Characters of one line: a command's or an older request's first line. */
export const LINE_CHARS = 120;
/** Folders a rolled-up list of paths has at most at the floor; past this many changed files they are rolled up. */
export const FLOOR_FOLDERS = 40;
/** The least of the summary, the latest request and the last turn a cut below the floor keeps. */
export const MIN_SUMMARY_CHARS = 60;
export const MIN_LATEST_REQUEST_CHARS = 160;
export const MIN_TURN_CHARS = 120;
