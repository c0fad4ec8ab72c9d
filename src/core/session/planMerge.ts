/** A step done stays done unless a later call lists it again as not done: agents drop finished steps from later plan calls. */
import type { PlanItem, SessionPlan } from './events';

export const MAX_PLAN_ITEMS = 200;

/** Claude Code's task tools change one item of a list the reader keeps, and its task list on disk (TaskList) is read whole: their snapshot is already the whole list. */
const ITEM_TOOLS: ReadonlySet<string> = new Set(['TaskCreate', 'TaskUpdate', 'TaskList']);

/** An item's text as compared between snapshots: case and runs of white space do not make another step. */
const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Carried steps come first; beyond {@link MAX_PLAN_ITEMS} the oldest carried are dropped and counted in `omitted`. */
export function carryDoneSteps(previous: SessionPlan | undefined, next: SessionPlan): SessionPlan {
  if (!previous || ITEM_TOOLS.has(next.tool)) return next;
  const named = new Set(next.items.map((it) => key(it.text)));
  const carried: PlanItem[] = previous.items
    .filter((it) => it.status === 'completed' && !named.has(key(it.text)))
    .map(({ text, status }) => ({ text, status }));
  if (!carried.length) return next;
  const room = Math.max(0, MAX_PLAN_ITEMS - next.items.length);
  const kept = carried.slice(Math.max(0, carried.length - room));
  const dropped = carried.length - kept.length;
  return { ...next, items: [...kept, ...next.items], ...(dropped || next.omitted ? { omitted: (next.omitted ?? 0) + dropped } : {}) };
}
