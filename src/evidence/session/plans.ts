// The agent's plan in the evidence: each transcript's latest snapshot, remembered per file so that a read of only
// the new lines still knows it, and the one plan the handoff drafts from.
import type { Provenance } from '../../core/handoff/draftFields';
import type { PlanItem, SessionEvent, SessionLogState, SessionPlan, SessionSource } from '../../core/session/events';
import { carryDoneSteps } from '../../core/session/planMerge';

export type RememberedPlan = NonNullable<SessionLogState['files'][string]['plan']>;

export interface EvidencePlan {
  readonly items: readonly PlanItem[];
  readonly tool: string;
  readonly explanation?: string;
  /** Items beyond the `MAX_PLAN_ITEMS` kept, for the loss report. */
  readonly items_omitted?: number;
  readonly provenance: Provenance;
}

/**
 * The newest `plan` event, else, after a resumed read (from an offset, or by time), the remembered plan. A resumed
 * read's newest snapshot keeps the remembered done steps it no longer names.
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

export interface PlanCandidate {
  readonly plan: RememberedPlan;
  readonly source: SessionSource;
  readonly file: string;
  /** Used when the plan has no time. */
  readonly mtimeMs: number;
}

/** The newest snapshot by plan time, else transcript mtime; on a tie the later candidate. */
/** @param preferred the source that wins a tie (the host's own agent) */
export function newestPlan(candidates: readonly PlanCandidate[], preferred?: SessionSource): EvidencePlan | undefined {
  let best: PlanCandidate | undefined;
  let bestAt = -Infinity;
  for (const c of candidates) {
    const t = c.plan.time ? Date.parse(c.plan.time) : Number.NaN;
    const at = Number.isFinite(t) ? t : c.mtimeMs;
    if (!best || at > bestAt || (at === bestAt && (c.source === preferred || best.source !== preferred))) {
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
