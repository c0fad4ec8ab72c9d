/**
 * The agent's plan in the session-log evidence: each transcript's latest plan
 * snapshot (its readers' `plan` events, ./readers/planTools.ts), remembered per file in the
 * session-log state so that a read of only the new lines still knows the plan, and the one plan
 * the handoff drafts from — the latest snapshot of the newest transcript that has one.
 */
import type { Provenance } from '../../core/handoff/draftFields';
import type { PlanItem, SessionEvent, SessionLogState, SessionPlan, SessionSource } from '../../core/session/events';
import { carryDoneSteps } from '../../core/session/planMerge';

/** A plan snapshot as the session-log state keeps it per file (`FileStateSchema.plan`). */
export type RememberedPlan = NonNullable<SessionLogState['files'][string]['plan']>;

/** The plan of `SessionLogEvidence`: items in the tool's order, the tool, Codex's explanation, where it came from. */
export interface EvidencePlan {
  readonly items: readonly PlanItem[];
  readonly tool: string;
  readonly explanation?: string;
  /** Items of the snapshot beyond the 200 kept (`MAX_PLAN_ITEMS`), for the loss report; absent when none. */
  readonly items_omitted?: number;
  readonly provenance: Provenance;
}

/**
 * A transcript's plan after a read: its newest `plan` event, else — when the read skipped what
 * was read before (`resumed`: from an offset, or items not newer than the previous read) — the
 * plan remembered from the previous read. After a resumed read the newest snapshot keeps the
 * remembered plan's done steps it no longer names (core/session/planMerge.ts).
 */
export function planAfterRead(events: readonly SessionEvent[], remembered: RememberedPlan | undefined, resumed: boolean): RememberedPlan | undefined {
  let latest: SessionPlan | undefined;
  for (const e of events) if (e.kind === 'plan') latest = e;
  if (latest && resumed && remembered) latest = carryDoneSteps({ kind: 'plan', ...remembered }, latest);
  if (latest) {
    return {
      tool: latest.tool,
      items: latest.items.map(({ text, status, id }) => ({ text, status, ...(id !== undefined ? { id } : {}) })),
      ...(latest.explanation ? { explanation: latest.explanation } : {}),
      ...(latest.omitted ? { omitted: latest.omitted } : {}),
      ...(latest.time ? { time: latest.time } : {}),
    };
  }
  return resumed ? remembered : undefined;
}

/** One transcript's plan, as a candidate for the handoff's. */
export interface PlanCandidate {
  readonly plan: RememberedPlan;
  readonly source: SessionSource;
  readonly file: string;
  /** The transcript's modification time (ms since epoch), used when the plan has no time. */
  readonly mtimeMs: number;
}

/**
 * The handoff's plan: the candidate whose snapshot is newest — by the plan call's time, else the
 * transcript's modification time; on a tie the later candidate (discovery order) — with its
 * provenance (reader, file, time). Undefined when no transcript has a plan.
 */
export function newestPlan(candidates: readonly PlanCandidate[]): EvidencePlan | undefined {
  let best: PlanCandidate | undefined;
  let bestAt = -Infinity;
  for (const c of candidates) {
    const t = c.plan.time ? Date.parse(c.plan.time) : Number.NaN;
    const at = Number.isFinite(t) ? t : c.mtimeMs;
    if (!best || at >= bestAt) {
      best = c;
      bestAt = at;
    }
  }
  if (!best) return undefined;
  const p = best.plan;
  return {
    items: p.items,
    tool: p.tool,
    ...(p.explanation ? { explanation: p.explanation } : {}),
    ...(p.omitted ? { items_omitted: p.omitted } : {}),
    provenance: { reader: best.source, file: best.file, time: p.time ?? null },
  };
}
