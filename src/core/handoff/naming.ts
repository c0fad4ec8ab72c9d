// File names of the handoff root; none contains ':', so they are valid on Windows, macOS and Linux.
// `handoffs/<ISO 8601 UTC, ':' → '-'>_<specialist>.md` sorts chronologically (itervox's names without ms and `.partial.md` read too);
// `briefings/<specialist, '_' → '-'>-<topic>-<YYYY-MM-DD>.md`; `history/<handoff id>.md`.
import { SPECIALIST_ID_PATTERN } from '../specialists/registry';

export const HANDOFFS_DIR = 'handoffs';
/** Append-only. */
export const BRIEFINGS_DIR = 'briefings';
/** What fit-to-budget cut. */
export const HISTORY_DIR = 'history';
export const SPECIALISTS_DIR = 'specialists';

/** `2026-05-26T14:30:45.123Z` → `2026-05-26T14-30-45.123Z` (file-name-safe, sorts chronologically). */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/:/g, '-');
}

export function handoffId(date: Date, specialist: string): string {
  return `${fileTimestamp(date)}_${specialist}`;
}

export function handoffFileName(date: Date, specialist: string): string {
  return `${handoffId(date, specialist)}.md`;
}

/** `time`: ms since the epoch. */
export interface HandoffFileName {
  readonly id: string;
  readonly time: number;
  readonly specialist: string;
  readonly partial: boolean;
}

const FILE_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})(?:\.(\d{1,9}))?Z$/;

/** Undefined for a date that is not real (30 February, hour 24); unlike `Date.parse`, nothing rolls over. */
export function strictUtc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number | undefined {
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) {
    return undefined;
  }
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? t : undefined;
}

/** With or without milliseconds (digits past them truncated); undefined when not such a timestamp or no real instant. */
export function parseFileTimestamp(stamp: string): number | undefined {
  const m = FILE_TIMESTAMP.exec(stamp);
  if (!m) {
    return undefined;
  }
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  return strictUtc(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms);
}

const NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{1,9})?Z)_(.+?)(\.partial)?\.md$/;

/** Undefined for names that are not handoff files (temp files, other Markdown). */
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

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function briefingFileName(specialist: string, topicSlug: string, date: Date): string {
  return `${specialist.replace(/_/g, '-')}-${topicSlug}-${utcDay(date)}.md`;
}
