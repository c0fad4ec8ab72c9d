/**
 * A plan snapshot after the one before it. Most plan tools send the whole list each call (Claude
 * Code `TodoWrite`, Codex `update_plan`, Roo / Kilo `update_todo_list`, Cline `task_progress`,
 * Copilot `manage_todo_list`, Gemini CLI `write_todos`, OpenCode `todowrite`), and agents drop
 * finished steps from later calls. A step done stays done unless a later call lists it again as
 * not done (the agent reopened it): the done steps of the previous snapshot that the new one no
 * longer names are carried, before the new list's items. Pure.
 */
import type { PlanItem, SessionPlan } from './events';

/** Items kept of one plan snapshot (in the tool's order): 200, far above any real todo list. */
export const MAX_PLAN_ITEMS = 200;

/** Tools whose call changes one item of a list kept by the reader (Claude Code's task tools): their snapshot is already the whole list. */
const ITEM_TOOLS: ReadonlySet<string> = new Set(['TaskCreate', 'TaskUpdate']);

/** An item's text as compared between snapshots: case and runs of white space do not make another step. */
const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * `next` with the completed items of `previous` it no longer names, those first, in their order;
 * `next` itself when it came from an item tool, or when nothing is carried. Items beyond
 * {@link MAX_PLAN_ITEMS} are not kept (the oldest carried first) and are counted in `omitted`.
 */
export function carryDoneSteps(previous: SessionPlan | undefined, next: SessionPlan): SessionPlan {
  if (!previous || ITEM_TOOLS.has(next.tool)) return next;
  const named = new Set(next.items.map((it) => key(it.text)));
  const carried: PlanItem[] = previous.items.filter((it) => it.status === 'completed' && !named.has(key(it.text))).map(({ text, status }) => ({ text, status }));
  if (!carried.length) return next;
  const room = Math.max(0, MAX_PLAN_ITEMS - next.items.length);
  const kept = carried.slice(Math.max(0, carried.length - room));
  const dropped = carried.length - kept.length;
  return { ...next, items: [...kept, ...next.items], ...(dropped || next.omitted ? { omitted: (next.omitted ?? 0) + dropped } : {}) };
}
