/**
 * "Pending too long" (docs/DESIGN.md §5 "Insights"): a handoff not picked up after
 * `handoff.pendingWarnAfter`, or accepted and never answered after that long, is shown with a
 * warning in the timeline and a line in the receiving prompt of its chain. The setting's
 * form, its reading, the verdict and its wording live here, once, for every surface.
 *
 * Pure: no I/O, no clock (the caller passes `now`).
 */
import type { HandoffStatus } from '../handoff/schema';
import type { TimelineNode } from './chains';

/** `handoff.pendingWarnAfter`'s default: `2d`. */
export const DEFAULT_PENDING_WARN_AFTER = '2d';
/** {@link DEFAULT_PENDING_WARN_AFTER} in ms: 2 days. */
export const DEFAULT_PENDING_WARN_AFTER_MS = 2 * 24 * 60 * 60 * 1000;
/** Longest warning age accepted: 365 days (a year-old pending handoff is worth a warning). */
export const MAX_PENDING_WARN_AFTER_MS = 365 * 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * The form of `handoff.pendingWarnAfter`: a whole number and a unit — `m` (minutes), `h`
 * (hours), `d` (days), `w` (weeks), e.g. `2d`, `36h`, `90m` (spaces and the unit's full name
 * are accepted: `2 days`) — or `off` (no warning). The same pattern is in package.json, so the
 * Settings editor flags a bad value as it is typed.
 */
export const PENDING_WARN_AFTER_PATTERN = /^\s*(?:off|(\d{1,6})\s*(m|min|mins|minutes?|h|hours?|d|days?|w|weeks?))\s*$/i;

/** A read `handoff.pendingWarnAfter`: the age in ms (0: `off`), or the problem and its fix, worded with `name` (the setting or the CLI flag). */
export type PendingWarnAfter = { ok: true; ms: number } | { ok: false; ms: number; problem: string; fix: string };

/**
 * Reads a `handoff.pendingWarnAfter` value ({@link PENDING_WARN_AFTER_PATTERN}). Undefined,
 * null or an empty string is the default (2 days). A bad value falls back to the default and
 * says why: `problem` names `name` and the value, `fix` the form expected.
 * @param name how the surface names the setting: `handoff.pendingWarnAfter` (VS Code), `--pending-warn-after` (CLI)
 */
export function parsePendingWarnAfter(value: unknown, name = 'handoff.pendingWarnAfter'): PendingWarnAfter {
  if (value === undefined || value === null || value === '') return { ok: true, ms: DEFAULT_PENDING_WARN_AFTER_MS };
  const fix = `give ${name} a whole number and a unit — m (minutes), h (hours), d (days) or w (weeks), such as "2d" or "36h" — or "off"; the default, ${DEFAULT_PENDING_WARN_AFTER}, is used meanwhile`;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value).slice(0, 40);
  const m = typeof value === 'string' ? PENDING_WARN_AFTER_PATTERN.exec(value) : null;
  if (!m) return { ok: false, ms: DEFAULT_PENDING_WARN_AFTER_MS, problem: `${name} is ${shown}, which is not a duration`, fix };
  if (m[1] === undefined) return { ok: true, ms: 0 };
  const n = Number(m[1]);
  const total = n * UNIT_MS[m[2][0].toLowerCase()];
  if (n === 0) return { ok: false, ms: DEFAULT_PENDING_WARN_AFTER_MS, problem: `${name} is ${shown}: a warning after no time at all would mark every handoff`, fix };
  if (total > MAX_PENDING_WARN_AFTER_MS) return { ok: false, ms: DEFAULT_PENDING_WARN_AFTER_MS, problem: `${name} is ${shown}, longer than 365 days`, fix };
  return { ok: true, ms: total };
}

/**
 * What {@link waitingOf} reads of a handoff: its kind, `created` (ISO), current status (its
 * status events applied), `status_at` — the ISO time of its latest status change (undefined:
 * none) — and whether its file is partial.
 */
export interface WaitingInput {
  readonly kind: 'handoff' | 'result';
  readonly created: string;
  readonly status: HandoffStatus | string;
  readonly status_at?: string;
  readonly partial?: boolean;
}

/** A handoff waiting too long: for a pick-up (`pickup`, still pending) or an answer (`answer`, accepted and never answered); `since` ISO, `age_ms` until now. */
export interface Waiting {
  readonly waiting: 'pickup' | 'answer';
  readonly since: string;
  readonly age_ms: number;
}

/**
 * Whether a handoff waits too long (docs/DESIGN.md §5 "Insights"): `pending` for longer than
 * `warnAfterMs` since `created`, or `accepted` — its latest change — with no result answering
 * it (`answered`) for longer than that since it was accepted. Results, partial files and
 * other statuses never wait; `warnAfterMs` 0 (`off`) never warns.
 * @param now ms since the epoch
 */
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

/**
 * An age in words, in its largest whole unit: `3 days`, `1 day`, `5 hours`, `12 minutes`
 * (under a minute: `less than a minute`). Weeks are said as days.
 */
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

/**
 * The warning in words, for the timeline's tooltip and the receiving prompt: "pending since
 * 2026-11-28 09:00 UTC (3 days), not picked up" or "accepted since … (3 days), never answered".
 */
export function waitingLine(w: Waiting): string {
  return w.waiting === 'pickup'
    ? `pending since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}), not picked up`
    : `accepted since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}), never answered`;
}

/**
 * A duration in short form for tables: `<1 min`, `45 min`, `2 h 5 min`, `3 d 4 h` (two units
 * at most, the larger first); null is `—` (no figure).
 */
export function shortDuration(ms: number | null): string {
  if (ms === null) return '—';
  const min = Math.floor(ms / UNIT_MS.m);
  if (min < 1) return '<1 min';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return h % 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${Math.floor(h / 24)} d`;
}

/** What {@link nodeWaiting} needs of a timeline entry's chain links: its kind, status and `status_at` (the timeline's `TimelineEntryInfo`). */
export interface WaitingInfo {
  readonly kind: 'handoff' | 'result';
  readonly status: string;
  readonly status_at?: string;
}

/**
 * Whether the timeline entry of `node` waits too long ({@link waitingOf}): one of our handoffs
 * (`kind: handoff`, not partial) whose chain links were read, pending since its file's time or
 * accepted since its latest status change, with no result among the hops below it.
 * @param infoOf the chain links read so far, by file key (undefined: not read yet — it does not wait)
 * @param now ms since the epoch; `warnAfterMs` 0: never
 */
export function nodeWaiting(node: TimelineNode, infoOf: (key: string) => WaitingInfo | undefined, now: number, warnAfterMs: number): Waiting | undefined {
  const { file } = node;
  const info = infoOf(file.key);
  if (file.source !== 'handoff' || !info || info.kind !== 'handoff') return undefined;
  const answered = node.children.some((c) => infoOf(c.file.key)?.kind === 'result');
  const at = info.status_at;
  return waitingOf({ kind: info.kind, created: new Date(file.time).toISOString(), status: info.status, ...(at ? { status_at: at } : {}), partial: file.partial }, answered, now, warnAfterMs);
}

/**
 * The receiving prompt's line for a handoff of the chain waiting too long (after `**Waiting:**`):
 * for the handoff picked up, "this handoff was pending since 2026-11-28 09:00 UTC (3 days)
 * before you picked it up" (or "… accepted since … (3 days) by another session and never
 * answered"); for another, "`<id>` to <specialist>: pending since … (3 days), not picked up".
 */
export function waitingPromptLine(w: Waiting, entry: { readonly id: string; readonly specialist: string }, pickedUp: boolean): string {
  if (pickedUp) {
    return w.waiting === 'pickup'
      ? `this handoff was pending since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}) before you picked it up: check that what it asks still holds`
      : `this handoff was accepted since ${utcMinute(w.since)} (${ageInWords(w.age_ms)}) and never answered`;
  }
  return `\`${entry.id}\` to ${entry.specialist}: ${waitingLine(w)}`;
}
