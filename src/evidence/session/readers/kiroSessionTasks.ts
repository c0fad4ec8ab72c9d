// The task list of Kiro CLI's agent (`crates/agent/src/agent/tools/task/task_tool.rs`, tool `task`, aliases `todo_list`
// / `todo`): `create {tasks: [{task_description}]}` starts a new list numbered from 1, `add {new_tasks}` numbers on,
// `complete {completed_task_ids}` / `remove {remove_task_ids}` act by id. Every successful call answers with the whole
// list, `{tasks: [{id, task_description, completed}]}`, which is taken as it is; when the last task is completed the
// store is emptied before that answer, so an empty answer to `complete` leaves the list all done. Conversations
// exported from Kiro CLI's older store keep its `todo_list` calls, which act by index (`completed_indices`,
// `insert_indices`, `remove_indices`). The list starts from the remembered plan.
import * as z from 'zod';
import type { PlanItemStatus, SessionPlan } from '../../../core/session/events';
import { planOf } from './planTools';

export const KIRO_TASK_TOOLS: ReadonlySet<string> = new Set(['task', 'todo_list', 'todo']);

const TaskInputSchema = z.looseObject({ task_description: z.string() });
/** `format_full_state`'s answer. */
export const KiroTaskStateSchema = z.looseObject({
  tasks: z.array(z.looseObject({ id: z.union([z.string(), z.number()]), task_description: z.string(), completed: z.boolean().catch(false) })),
});

interface Item {
  id: string;
  text: string;
  status: PlanItemStatus;
}

function inputs(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((t) => {
    const p = TaskInputSchema.safeParse(t);
    return p.success ? [p.data.task_description] : [];
  });
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map(String) : [];
}

function indices(v: unknown): number[] {
  return Array.isArray(v) ? v.filter((i): i is number => Number.isInteger(i)) : [];
}

export class KiroTaskList {
  private items: Item[] = [];
  private nextId = 1;

  constructor(previous?: SessionPlan) {
    previous?.items.forEach((it, i) => this.items.push({ id: it.id ?? String(i + 1), text: it.text, status: it.status }));
    this.nextId = this.items.reduce((n, it) => Math.max(n, Number(it.id) + 1 || n), 1);
  }

  /** The list after one successful call (`input` its arguments, `answer` the tool's JSON), or undefined when unchanged. */
  apply(input: Record<string, unknown>, answer: unknown, time?: string): SessionPlan | undefined {
    const before = JSON.stringify(this.items);
    this.byArguments(input);
    const state = KiroTaskStateSchema.safeParse(answer);
    if (state.success && state.data.tasks.length) {
      this.items = state.data.tasks.map((t) => ({ id: String(t.id), text: t.task_description, status: t.completed ? 'completed' : 'pending' }));
      this.nextId = this.items.reduce((n, it) => Math.max(n, Number(it.id) + 1 || n), this.nextId);
    }
    if (JSON.stringify(this.items) === before) return undefined;
    // Ids kept on the items, so a later read of only new lines can complete them by id.
    const named = this.items.filter((it) => it.text.trim());
    const plan = planOf('task', named, time ? { time } : {});
    return plan && { ...plan, items: plan.items.map((it, i) => ({ ...it, id: named[i].id })) };
  }

  private add(texts: readonly string[]): void {
    for (const text of texts) this.items.push({ id: String(this.nextId++), text, status: 'pending' });
  }

  private byArguments(input: Record<string, unknown>): void {
    switch (input.command) {
      case 'create':
        this.items = [];
        this.nextId = 1;
        this.add(inputs(input.tasks));
        return;
      case 'add': {
        const at = indices(input.insert_indices);
        if (!at.length) return this.add(inputs(input.new_tasks));
        inputs(input.new_tasks).forEach((text, k) =>
          this.items.splice(Math.min(at[k] ?? this.items.length, this.items.length), 0, { id: String(this.nextId++), text, status: 'pending' }),
        );
        return;
      }
      case 'complete': {
        const ids = new Set(strings(input.completed_task_ids));
        const at = new Set(indices(input.completed_indices));
        this.items = this.items.map((it, i) => (ids.has(it.id) || at.has(i) ? { ...it, status: 'completed' } : it));
        return;
      }
      case 'remove': {
        const ids = new Set(strings(input.remove_task_ids));
        const at = new Set(indices(input.remove_indices));
        this.items = this.items.filter((it, i) => !ids.has(it.id) && !at.has(i));
        return;
      }
    }
  }
}
