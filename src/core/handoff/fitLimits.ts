/** The sizes fit-to-budget shortens to (./fit.ts), in characters; and its markers. Pure. */

export const SUMMARY_TRUNCATED_MARKER = ' [truncated]';

export const SHORTENED_MARKER = ' …';

export const FLOOR_SUMMARY_CHARS = 300;
export const FLOOR_LATEST_REQUEST_CHARS = 400;
export const FLOOR_TURN_CHARS = 300;
/** Cut below the floor first: the agent's words, not a fact of the log. */
export const FLOOR_COMPACTION_CHARS = 300;
export const LINE_CHARS = 120;
/** Past this many changed files, paths are rolled up into at most this many folders. */
export const FLOOR_FOLDERS = 40;
export const MIN_SUMMARY_CHARS = 60;
export const MIN_LATEST_REQUEST_CHARS = 160;
export const MIN_TURN_CHARS = 120;
