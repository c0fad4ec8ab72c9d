/**
 * File names of the handoff root (docs/DESIGN.md §5):
 * - `handoffs/<ISO 8601 UTC with milliseconds, ':' → '-'>_<specialist>.md`, e.g.
 *   `2026-05-26T14-30-45.123Z_quality_reviewer.md`; lexicographic order is chronological.
 *   Names without milliseconds (`2026-05-26T14-30-45Z_researcher.md`, as itervox writes
 *   them) and `.partial.md` names are read too.
 * - `briefings/<specialist with '_' → '-'>-<topic>-<YYYY-MM-DD>.md`.
 * - `history/<handoff id>.md`.
 * No name contains ':' so they are valid on Windows, macOS and Linux.
 */
import { SPECIALIST_ID_PATTERN } from '../specialists/registry';

/** Sub-folder of the handoff root holding one file per handoff. */
export const HANDOFFS_DIR = 'handoffs';
/** Sub-folder holding the append-only briefings. */
export const BRIEFINGS_DIR = 'briefings';
/** Sub-folder holding stage-2 histories (what fit-to-budget cut). */
export const HISTORY_DIR = 'history';
/** Sub-folder holding custom specialist definitions. */
export const SPECIALISTS_DIR = 'specialists';

/** `2026-05-26T14:30:45.123Z` → `2026-05-26T14-30-45.123Z` (file-name-safe, sorts chronologically). */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/:/g, '-');
}

/** The id (file-name stem) of a handoff created at `date` for `specialist`. */
export function handoffId(date: Date, specialist: string): string {
  return `${fileTimestamp(date)}_${specialist}`;
}

/** The file name of a handoff: `<id>.md`. */
export function handoffFileName(date: Date, specialist: string): string {
  return `${handoffId(date, specialist)}.md`;
}

/** What a handoff file name says: its id, creation time (ms since epoch), specialist and whether it is partial. */
export interface HandoffFileName {
  readonly id: string;
  readonly time: number;
  readonly specialist: string;
  readonly partial: boolean;
}

/** A file-name timestamp: ISO 8601 UTC with ':' → '-', fraction of a second optional (1–9 digits). */
const FILE_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})(?:\.(\d{1,9}))?Z$/;

/**
 * Milliseconds since the epoch (UTC) for a calendar date and time, or undefined when
 * the fields do not name a real instant (month 13, 30 February, hour 24, second 60).
 * Unlike `Date.parse`, nothing rolls over into the next day or month.
 */
export function strictUtc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number | undefined {
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) {
    return undefined;
  }
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? t : undefined;
}

/**
 * Parses a file-name timestamp such as `2026-05-26T14-30-45.123Z` or
 * `2026-05-26T14-30-45Z` (docs/DESIGN.md §5; the itervox convention writes the second form).
 * Digits past milliseconds are ignored (truncated, not rounded).
 *
 * @returns milliseconds since the epoch (UTC), or undefined when the text is not such a
 *   timestamp or names no real instant (e.g. `2026-02-30T…`).
 */
export function parseFileTimestamp(stamp: string): number | undefined {
  const m = FILE_TIMESTAMP.exec(stamp);
  if (!m) {
    return undefined;
  }
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  return strictUtc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms);
}


const NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{1,9})?Z)_(.+?)(\.partial)?\.md$/;

/**
 * Parses a handoff file name (with or without milliseconds, `.partial.md` too).
 * @returns undefined for names that are not handoff files (temp files, other Markdown).
 */
export function parseHandoffFileName(name: string): HandoffFileName | undefined {
  const m = NAME.exec(name);
  if (!m || !SPECIALIST_ID_PATTERN.test(m[2])) {
    return undefined;
  }
  const time = parseFileTimestamp(m[1]);
  if (time === undefined) {
    return undefined;
  }
  return { id: `${m[1]}_${m[2]}`, time, specialist: m[2], partial: m[3] !== undefined };
}

/** UTC calendar day `YYYY-MM-DD` of a date. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Briefing file name for a specialist, topic slug and day (docs/DESIGN.md §5). */
export function briefingFileName(specialist: string, topicSlug: string, date: Date): string {
  return `${specialist.replace(/_/g, '-')}-${topicSlug}-${utcDay(date)}.md`;
}
