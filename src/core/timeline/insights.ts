/** Handoff insights, figured from the handoff files' frontmatter alone; {@link InsightsSchema} is what every surface shows as is. */
import * as z from 'zod';
import type { HandoffStatus, StatusChange } from '../handoff/schema';
import { waitingOf } from './waiting';

export { waitingOf, type Waiting } from './waiting';

const count = z.number().int().nonnegative();
const ms = z.number().int().nonnegative().nullable();

/**
 * Counts of the period's entries, statuses as they are now. `picked_up`: ever moved from `pending` to `accepted`,
 * `in_progress`, `complete` or `blocked`; `*_too_long`: see {@link waitingOf}; medians in ms from `created` to the first
 * pick-up / completion (null: none); `handbacks`: results written by the specialist; `retries`: handoffs answered by more
 * than one `in_progress` result; `tests_failing_at_handback`: results that recorded a failing test run.
 */
export const InsightsFiguresSchema = z.object({
  written: count,
  picked_up: count,
  pending: count,
  accepted: count,
  in_progress: count,
  completed: count,
  blocked: count,
  partial: count,
  pending_too_long: count,
  unanswered_too_long: count,
  median_pickup_ms: ms,
  median_complete_ms: ms,
  handbacks: count,
  retries: count,
  tests_failing_at_handback: count,
});
export type InsightsFigures = z.infer<typeof InsightsFiguresSchema>;

/** A result counts for the specialist who wrote it. */
export const SpecialistInsightsSchema = InsightsFiguresSchema.extend({ specialist: z.string().min(1) });
export type SpecialistInsights = z.infer<typeof SpecialistInsightsSchema>;

/**
 * Chains by `root_id`. `by_length`: chains per number of handoffs (results are not hops); `reached_depth_limit`: a further
 * hop needs a confirmation; `past_depth_limit`: a handoff was written past the limit on a confirmation.
 */
export const ChainInsightsSchema = z.object({
  total: count,
  by_length: z.array(z.object({ hops: count, chains: count })),
  reached_depth_limit: count,
  past_depth_limit: count,
  max_depth: z.number().int().positive(),
});
export type ChainInsights = z.infer<typeof ChainInsightsSchema>;

/** `since`: when it started waiting (`created`, or when accepted); `age_ms` until `generated_at`. */
export const WaitingHandoffSchema = z.object({
  id: z.string().min(1),
  specialist: z.string().min(1),
  from: z.string().min(1),
  topic: z.string(),
  waiting: z.enum(['pickup', 'answer']),
  since: z.string().min(1),
  age_ms: count,
});
export type WaitingHandoff = z.infer<typeof WaitingHandoffSchema>;

/** Oldest first; the rest are counted in `waiting_omitted`. */
export const MAX_WAITING_LISTED = 100;

/** `pending_warn_after_ms` 0: no warnings; `files_unreadable` are not counted. */
export const InsightsSchema = z.object({
  schema: z.literal(1),
  period: z.object({ since: z.string().nullable(), until: z.string() }),
  generated_at: z.string(),
  pending_warn_after_ms: count,
  overall: InsightsFiguresSchema,
  specialists: z.array(SpecialistInsightsSchema),
  chains: ChainInsightsSchema,
  waiting: z.array(WaitingHandoffSchema),
  waiting_omitted: count,
  files_read: count,
  files_unreadable: count,
});
export type Insights = z.infer<typeof InsightsSchema>;

/** Frontmatter scalars with the status events applied; `depth` is the larger of `hop` and the chain's length. */
export interface InsightsEntry {
  readonly id: string;
  readonly kind: 'handoff' | 'result';
  readonly specialist: string;
  readonly from: string;
  readonly topic: string;
  readonly created: string;
  readonly status: HandoffStatus;
  readonly status_history: readonly StatusChange[];
  readonly root_id: string;
  readonly parent_id: string | null;
  readonly depth: number;
  readonly hop_guard_depth: boolean;
  readonly tests_failed_count: number;
  readonly partial: boolean;
}

/** `now` in ms since the epoch; `since` undefined: all time. */
export interface InsightsOptions {
  readonly now: number;
  readonly since?: number;
  readonly pendingWarnAfterMs: number;
  readonly maxDepth: number;
  readonly filesUnreadable?: number;
}

const PICKED_UP: ReadonlySet<HandoffStatus> = new Set(['accepted', 'in_progress', 'complete', 'blocked']);

/** The status a result was written with: the `from` of its first change, or its status when it has none. */
export function writtenStatus(e: Pick<InsightsEntry, 'status' | 'status_history'>): HandoffStatus {
  return e.status_history[0]?.from ?? e.status;
}

/** In whole ms, the mean of the two middle ones rounded for an even count. */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return Math.round(s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2);
}

function elapsed(from: number, to: string): number | undefined {
  const b = Date.parse(to);
  return Number.isFinite(b) ? Math.max(0, b - from) : undefined;
}

function emptyFigures(): InsightsFigures {
  return {
    written: 0,
    picked_up: 0,
    pending: 0,
    accepted: 0,
    in_progress: 0,
    completed: 0,
    blocked: 0,
    partial: 0,
    pending_too_long: 0,
    unanswered_too_long: 0,
    median_pickup_ms: null,
    median_complete_ms: null,
    handbacks: 0,
    retries: 0,
    tests_failing_at_handback: 0,
  };
}

interface Tally {
  figures: InsightsFigures;
  pickup: number[];
  complete: number[];
}

/** A repeated id counts once; entries whose `created` is before `since`, or no time, are outside the period. */
export function computeInsights(all: readonly InsightsEntry[], options: InsightsOptions): Insights {
  const since = options.since;
  const seen = new Set<string>();
  // The entries of the period, and each one's `created` in ms (parsed once: the filter, then the medians use it).
  const entries: InsightsEntry[] = [];
  const createdMs: number[] = [];
  for (const e of all) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const t = Date.parse(e.created);
    if (Number.isFinite(t) && (since === undefined || t >= since)) {
      entries.push(e);
      createdMs.push(t);
    }
  }
  const results = new Map<string, InsightsEntry[]>();
  for (const e of all) {
    if (e.kind !== 'result' || !e.parent_id) continue;
    const list = results.get(e.parent_id);
    if (list) list.push(e);
    else results.set(e.parent_id, [e]);
  }
  const overall: Tally = { figures: emptyFigures(), pickup: [], complete: [] };
  const bySpecialist = new Map<string, Tally>();
  const tallyOf = (id: string): Tally => {
    let t = bySpecialist.get(id);
    if (!t) bySpecialist.set(id, (t = { figures: emptyFigures(), pickup: [], complete: [] }));
    return t;
  };
  const waiting: WaitingHandoff[] = [];
  for (const [k, e] of entries.entries()) {
    const tallies = [overall, tallyOf(e.specialist)];
    if (e.kind === 'result') {
      for (const t of tallies) {
        t.figures.handbacks++;
        if (e.tests_failed_count > 0) t.figures.tests_failing_at_handback++;
      }
      continue;
    }
    const answers = results.get(e.id) ?? [];
    const w = waitingOf(
      { kind: e.kind, created: e.created, status: e.status, status_at: e.status_history.at(-1)?.at, partial: e.partial },
      answers.length > 0,
      options.now,
      options.pendingWarnAfterMs,
    );
    if (w) waiting.push({ id: e.id, specialist: e.specialist, from: e.from, topic: e.topic, waiting: w.waiting, since: w.since, age_ms: w.age_ms });
    const pick = e.status_history.find((c) => c.from === 'pending' && PICKED_UP.has(c.to));
    const done = e.status_history.find((c) => c.to === 'complete');
    const retried = answers.filter((r) => writtenStatus(r) === 'in_progress').length > 1;
    for (const t of tallies) {
      const f = t.figures;
      f.written++;
      if (e.partial || e.status === 'partial') f.partial++;
      else if (e.status === 'pending') f.pending++;
      else if (e.status === 'accepted') f.accepted++;
      else if (e.status === 'in_progress') f.in_progress++;
      else if (e.status === 'complete') f.completed++;
      else if (e.status === 'blocked') f.blocked++;
      if (pick) f.picked_up++;
      if (w?.waiting === 'pickup') f.pending_too_long++;
      if (w?.waiting === 'answer') f.unanswered_too_long++;
      if (retried) f.retries++;
      const p = pick && elapsed(createdMs[k], pick.at);
      if (p !== undefined) t.pickup.push(p);
      const c = done && elapsed(createdMs[k], done.at);
      if (c !== undefined) t.complete.push(c);
    }
  }
  const finish = (t: Tally): InsightsFigures => ({ ...t.figures, median_pickup_ms: median(t.pickup), median_complete_ms: median(t.complete) });
  waiting.sort((a, b) => b.age_ms - a.age_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const nowIso = new Date(options.now).toISOString();
  return {
    schema: 1,
    period: { since: since === undefined ? null : new Date(since).toISOString(), until: nowIso },
    generated_at: nowIso,
    pending_warn_after_ms: options.pendingWarnAfterMs,
    overall: finish(overall),
    specialists: [...bySpecialist.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([specialist, t]) => ({ specialist, ...finish(t) })),
    chains: chainInsights(entries, options.maxDepth),
    waiting: waiting.slice(0, MAX_WAITING_LISTED),
    waiting_omitted: Math.max(0, waiting.length - MAX_WAITING_LISTED),
    files_read: all.length,
    files_unreadable: options.filesUnreadable ?? 0,
  };
}

function chainInsights(entries: readonly InsightsEntry[], maxDepth: number): ChainInsights {
  const chains = new Map<string, { hops: number; depth: number; past: boolean }>();
  for (const e of entries) {
    let c = chains.get(e.root_id);
    if (!c) chains.set(e.root_id, (c = { hops: 0, depth: 0, past: false }));
    if (e.kind !== 'handoff') continue;
    c.hops++;
    c.depth = Math.max(c.depth, e.depth);
    if (e.hop_guard_depth) c.past = true;
  }
  const byLength = new Map<number, number>();
  let reached = 0;
  let past = 0;
  for (const c of chains.values()) {
    byLength.set(c.hops, (byLength.get(c.hops) ?? 0) + 1);
    if (c.hops > 0 && c.depth >= maxDepth) reached++;
    if (c.past) past++;
  }
  return {
    total: chains.size,
    by_length: [...byLength.entries()].sort(([a], [b]) => a - b).map(([hops, n]) => ({ hops, chains: n })),
    reached_depth_limit: reached,
    past_depth_limit: past,
    max_depth: maxDepth,
  };
}
