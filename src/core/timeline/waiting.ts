/** "Pending too long": a handoff not picked up, or accepted and never answered, after `handoff.pendingWarnAfter`. The caller passes `now`. */
import type { HandoffStatus } from '../handoff/schema';
import type { TimelineNode } from './chains';

export const DEFAULT_PENDING_WARN_AFTER = '2d';
export const DEFAULT_PENDING_WARN_AFTER_MS = 2 * 24 * 60 * 60 * 1000;
/** A year-old pending handoff is still worth a warning. */
export const MAX_PENDING_WARN_AFTER_MS = 365 * 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `2d`, `36h`, `90m`, `2 days` or `off`. The same pattern is in package.json, so the Settings editor flags a bad value as it is typed. */
export const PENDING_WARN_AFTER_PATTERN = /^\s*(?:off|(\d{1,6})\s*(m|min|mins|minutes?|h|hours?|d|days?|w|weeks?))\s*$/i;

/** `ms` 0 is `off`; a bad value carries the default `ms`, the problem and its fix. */
export type PendingWarnAfter = { ok: true; ms: number } | { ok: false; ms: number; problem: string; fix: string };

/** Undefined, null or `''` is the default; a bad value falls back to it and says why. `name`: how the surface names the setting (or CLI flag). */
export function parsePendingWarnAfter(value: unknown, name = 'handoff.pendingWarnAfter'): PendingWarnAfter {
  if (value === undefined || value === null || value === '') return { ok: true, ms: DEFAULT_PENDING_WARN_AFTER_MS };
  const fix = `give ${name} a whole number and a unit — m (minutes), h (hours), d (days) or w (weeks), such as "2d" or "36h" — or "off"; the default, ${DEFAULT_PENDING_WARN_AFTER}, is used meanwhile`;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value).slice(0, 40);
  const m = typeof value === 'string' ? PENDING_WARN_AFTER_PATTERN.exec(value) : null;
  if (!m) return { ok: false, ms: DEFAULT_PENDING_WARN_AFTER_MS, problem: `${name} is ${shown}, which is not a duration`, fix };
  if (m[1] === undefined) return { ok: true, ms: 0 };
  const n = Number(m[1]);
  const total = n * UNIT_MS[m[2][0].toLowerCase()];
  if (n === 0)
    return { ok: false, ms: DEFAULT_PENDING_WARN_AFTER_MS, problem: `${name} is ${shown}: a warning after no time at all would mark every handoff`, fix };
  if (total > MAX_PENDING_WARN_AFTER_MS) return { ok: false, ms: DEFAULT_PENDING_WARN_AFTER_MS, problem: `${name} is ${shown}, longer than 365 days`, fix };
  return { ok: true, ms: total };
}

/** `status` with its status events applied; `status_at`: the ISO time of its latest status change. */
export interface WaitingInput {
  readonly kind: 'handoff' | 'result';
  readonly created: string;
  readonly status: HandoffStatus | string;
  readonly status_at?: string;
  readonly partial?: boolean;
}

/** `pickup`: still pending; `answer`: accepted and never answered. */
export interface Waiting {
  readonly waiting: 'pickup' | 'answer';
  readonly since: string;
  readonly age_ms: number;
}

/** Results, partial files and other statuses never wait; `warnAfterMs` 0 never warns. `now` in ms since the epoch. */
export function waitingOf(h: WaitingInput, answered: boolean, now: number, warnAfterMs: number): Waiting | undefined {
  if (warnAfterMs <= 0 || h.kind !== 'handoff' || h.partial) return undefined;
  let since: string | undefined;
  if (h.status === 'pending') since = h.created;
  else if (h.status === 'accepted' && !answered) since = h.status_at ?? h.created;
  if (since === undefined) return undefined;
  const t = Date.parse(since);
  if (!Number.isFinite(t) || now - t <= warnAfterMs) return undefined;
  return { waiting: h.status === 'pending' ? 'pickup' : 'answer', since: new Date(t).toISOString(), age_ms: now - t };
}

/** In its largest whole unit (`3 days`, `5 hours`); weeks are said as days. */
export function ageInWords(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms >= UNIT_MS.d) return plural(Math.floor(ms / UNIT_MS.d), 'day');
  if (ms >= UNIT_MS.h) return plural(Math.floor(ms / UNIT_MS.h), 'hour');
  if (ms >= UNIT_MS.m) return plural(Math.floor(ms / UNIT_MS.m), 'minute');
  return 'less than a minute';
}

/** A UTC time as `YYYY-MM-DD HH:MM UTC`, the way the warning lines say "since when". */
export function utcMinute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** "pending since 2026-11-28 09:00 UTC (3 days), not picked up", for the timeline's tooltip and the receiving prompt. */
export function waitingLine(w: Waiting): string {
  return w.waiting === 'pickup'
    ? `pending since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}), not picked up`
    : `accepted since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}), never answered`;
}

/** `<1 min`, `45 min`, `2 h 5 min`, `3 d 4 h`; null is `—`. */
export function shortDuration(ms: number | null): string {
  if (ms === null) return '—';
  const min = Math.floor(ms / UNIT_MS.m);
  if (min < 1) return '<1 min';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return h % 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${Math.floor(h / 24)} d`;
}

/** What {@link nodeWaiting} needs of the timeline's `TimelineEntryInfo`. */
export interface WaitingInfo {
  readonly kind: 'handoff' | 'result';
  readonly status: string;
  readonly status_at?: string;
}

/** Only our handoffs whose chain links were read; answered when a result is among the hops below. `infoOf` undefined: not read yet. */
export function nodeWaiting(node: TimelineNode, infoOf: (key: string) => WaitingInfo | undefined, now: number, warnAfterMs: number): Waiting | undefined {
  const { file } = node;
  const info = infoOf(file.key);
  if (file.source !== 'handoff' || !info || info.kind !== 'handoff') return undefined;
  const answered = node.children.some((c) => infoOf(c.file.key)?.kind === 'result');
  const at = info.status_at;
  return waitingOf(
    { kind: info.kind, created: new Date(file.time).toISOString(), status: info.status, ...(at ? { status_at: at } : {}), partial: file.partial },
    answered,
    now,
    warnAfterMs,
  );
}

/** The receiving prompt's `**Waiting:**` line, worded for the handoff picked up or another of its chain. */
export function waitingPromptLine(w: Waiting, entry: { readonly id: string; readonly specialist: string }, pickedUp: boolean): string {
  if (pickedUp) {
    return w.waiting === 'pickup'
      ? `this handoff was pending since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}) before you picked it up: check that what it asks still holds`
      : `this handoff was accepted since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}) and never answered`;
  }
  return `\`${entry.id}\` to ${entry.specialist}: ${waitingLine(w)}`;
}
