/**
 * File names of the handoff root (DESIGN §5):
 * - `handoffs/<ISO 8601 UTC with milliseconds, ':' → '-'>_<specialist>.md`, e.g.
 *   `2026-05-26T14-30-45.123Z_quality_reviewer.md`; lexicographic order is chronological.
 *   Names without milliseconds (`2026-05-26T14-30-45Z_researcher.md`, as itervox writes
 *   them) and `.partial.md` names are read too.
 * - `briefings/<specialist with '_' → '-'>-<topic>-<YYYY-MM-DD>.md`.
 * - `history/<handoff id>.md`.
 * No name contains ':' so they are valid on Windows, macOS and Linux.
 */
import { SPECIALIST_ID_PATTERN } from './specialists';

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
  const iso = m[1].replace(/T(\d{2})-(\d{2})-(\d{2})/, 'T$1:$2:$3');
  const time = Date.parse(iso);
  if (Number.isNaN(time)) {
    return undefined;
  }
  return { id: `${m[1]}_${m[2]}`, time, specialist: m[2], partial: m[3] !== undefined };
}

/** UTC calendar day `YYYY-MM-DD` of a date. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Briefing file name for a specialist, topic slug and day (DESIGN §5). */
export function briefingFileName(specialist: string, topicSlug: string, date: Date): string {
  return `${specialist.replace(/_/g, '-')}-${topicSlug}-${utcDay(date)}.md`;
}
