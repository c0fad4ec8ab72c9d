// The agents' todo / plan tools as SessionPlan snapshots, one parser per tool, with shapes from each agent's source.
// Every call replaces the whole list, so each parser returns the full list the call left. A call that leaves no item
// is no snapshot (the previous plan stands); items beyond MAX_PLAN_ITEMS are counted in `omitted` (docs/DESIGN.md §6).
import { MAX_PLAN_ITEMS, MAX_PLAN_ITEM_CHARS, type PlanItem, type PlanItemStatus, type SessionPlan } from '../../../core/session/events';
import { obj, str } from './common';

/**
 * `pending` / `not-started` / `[ ]`, `in_progress` / `in-progress` / `inProgress` / `[-]` / `[~]` / `[/]`, `completed` / `[x]`,
 * `cancelled` / `canceled`; any other word is `pending` (never reported as done), as Roo Code's `normalizeStatus` does.
 */
export function planStatus(raw: unknown): PlanItemStatus {
  const t = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (t === '-' || t === '~' || t === '/') return 'in_progress';
  const s = t.replace(/[\s-]+/g, '_');
  if (s === 'completed' || s === 'complete' || s === 'done' || s === 'x') return 'completed';
  if (s === 'in_progress' || s === 'inprogress') return 'in_progress';
  if (s === 'cancelled' || s === 'canceled') return 'cancelled';
  return 'pending';
}

/** Cut at the last whitespace in the second half, so a secret (one word) is never left half there for the redactor to miss. */
function bounded(text: string): string {
  if (text.length <= MAX_PLAN_ITEM_CHARS) return text;
  let head = text.slice(0, MAX_PLAN_ITEM_CHARS - 1);
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  const space = /\s/.test(text[head.length]) ? -1 : head.search(/\s\S*$/);
  return `${(space >= MAX_PLAN_ITEM_CHARS / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** Undefined when no item has text. @param tool the tool's own name (`TodoWrite`, `update_plan` …) */
export function planOf(
  tool: string,
  items: ReadonlyArray<{ text: string; status: PlanItemStatus }>,
  extra: { explanation?: string; time?: string } = {},
): SessionPlan | undefined {
  const kept: PlanItem[] = [];
  let omitted = 0;
  for (const it of items) {
    const text = it.text.trim();
    if (!text) continue;
    if (kept.length >= MAX_PLAN_ITEMS) {
      omitted++;
      continue;
    }
    kept.push({ text: bounded(text), status: it.status });
  }
  if (!kept.length) return undefined;
  const explanation = extra.explanation?.trim();
  return {
    kind: 'plan',
    tool,
    items: kept,
    ...(explanation ? { explanation: bounded(explanation) } : {}),
    ...(omitted ? { omitted } : {}),
    ...(extra.time ? { time: extra.time } : {}),
  };
}

/** Text from the first of `textKeys` that is a string. */
function objectItems(list: unknown, textKeys: readonly string[]): Array<{ text: string; status: PlanItemStatus }> {
  if (!Array.isArray(list)) return [];
  const out: Array<{ text: string; status: PlanItemStatus }> = [];
  for (const raw of list) {
    const o = obj(raw);
    if (!o) continue;
    const text = textKeys.map((k) => str(o[k])).find((t) => t !== undefined && t.trim() !== '');
    if (text !== undefined) out.push({ text, status: planStatus(o.status) });
  }
  return out;
}

/** Optional bullet (`-`, `*`, `+` or `1.`), `[ ]` / `[x]` / `[X]` / `[-]` / `[~]` / `[/]` (Antigravity's `task.md`), then the text. */
const CHECKBOX = /^\s*(?:[-*+]\s*|\d+[.)]\s*)?\[\s*([ xX~/-]?)\s*\]\s+(.+?)\s*$/;

/** Roo / Kilo `update_todo_list`, Cline `task_progress`, Antigravity's `task.md`: one item per checkbox line; indented items are items too. */
export function checklistItems(markdown: string): Array<{ text: string; status: PlanItemStatus }> {
  const out: Array<{ text: string; status: PlanItemStatus }> = [];
  for (const line of markdown.split(/\r?\n/)) {
    const m = CHECKBOX.exec(line);
    if (!m) continue;
    const mark = m[1].trim();
    out.push({ text: m[2], status: mark === '' ? 'pending' : planStatus(mark) });
  }
  return out;
}

export function checklistPlan(tool: string, markdown: unknown, time?: string): SessionPlan | undefined {
  if (typeof markdown !== 'string') return undefined;
  // The model sometimes sends a JSON array of {content, status} (Roo Code accepts it too).
  const trimmed = markdown.trim();
  if (trimmed.startsWith('[{')) {
    try {
      const items = objectItems(JSON.parse(trimmed), ['content', 'text', 'title']);
      if (items.length) return planOf(tool, items, { time });
    } catch {
      // not JSON: a checklist
    }
  }
  return planOf(tool, checklistItems(markdown), { time });
}

/** `{todos: [{content, status: pending|in_progress|completed, activeForm}]}` (the Agent SDK's TodoWrite schema). */
export function claudeTodoWritePlan(input: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('TodoWrite', objectItems(input.todos, ['content', 'activeForm']), { time });
}

/**
 * Claude Code's task tools (the default in place of `TodoWrite` since 2.1.16): `TaskCreate` `{subject, description,
 * activeForm?}` adds one, its id in the result ("Task #3 created successfully: …"); `TaskUpdate` `{taskId, status?:
 * pending|in_progress|completed|deleted, subject?}` changes one. Ids count from 1; the list starts from the remembered plan.
 */
export class ClaudeTaskList {
  private items: Array<{ id: string; text: string; status: PlanItemStatus }>;

  constructor(previous?: SessionPlan) {
    this.items = (previous?.items ?? []).map((it, i) => ({ id: it.id ?? String(i + 1), text: it.text, status: it.status }));
  }

  /** A `TodoWrite` replaced the list: task ids start again. */
  reset(plan: SessionPlan): void {
    this.items = plan.items.map((it, i) => ({ id: String(i + 1), text: it.text, status: it.status }));
  }

  /** One finished call; the created task's id is in `resultText`. Undefined when it changed nothing known. */
  apply(name: string, input: Record<string, unknown>, resultText: string | undefined, time?: string): SessionPlan | undefined {
    if (name === 'TaskCreate') {
      const text = str(input.subject) ?? str(input.description) ?? '';
      if (!text.trim()) return undefined;
      const fromResult = /\bTask #(\S+?) created\b/.exec(resultText ?? '')?.[1];
      const next = Math.max(0, ...this.items.map((it) => Number(it.id)).filter(Number.isFinite)) + 1;
      this.items.push({ id: fromResult ?? String(next), text, status: input.status === undefined ? 'pending' : planStatus(input.status) });
    } else if (name === 'TaskUpdate') {
      const id = typeof input.taskId === 'number' ? String(input.taskId) : str(input.taskId);
      const i = this.items.findIndex((it) => it.id === id);
      if (i < 0) return undefined;
      if (input.status === 'deleted') {
        this.items.splice(i, 1);
      } else {
        const subject = str(input.subject);
        this.items[i] = {
          ...this.items[i],
          ...(subject?.trim() ? { text: subject } : {}),
          ...(input.status !== undefined ? { status: planStatus(input.status) } : {}),
        };
      }
    } else {
      return undefined;
    }
    const plan = planOf(name, this.items, { time });
    if (!plan) return undefined;
    return { ...plan, items: plan.items.map((it, i) => ({ ...it, id: this.items[i].id })) };
  }
}

/**
 * `update_plan` `arguments` (parsed from their JSON string) `{explanation?, plan: [{step, status}]}`, or a `plan_update`
 * event's payload (openai/codex `UpdatePlanArgs`). `{set: [{index, status}]}` changes `previous`'s statuses by index.
 */
export function codexUpdatePlan(args: Record<string, unknown>, previous: SessionPlan | undefined, time?: string): SessionPlan | undefined {
  const explanation = str(args.explanation);
  if (Array.isArray(args.plan)) {
    return planOf('update_plan', objectItems(args.plan, ['step']), { explanation, time });
  }
  if (Array.isArray(args.set) && previous) {
    const items = previous.items.map((it) => ({ ...it }));
    for (const raw of args.set) {
      const s = obj(raw);
      const i = typeof s?.index === 'number' ? s.index : -1;
      if (s && Number.isInteger(i) && i >= 0 && i < items.length) items[i] = { ...items[i], status: planStatus(s.status) };
    }
    return planOf('update_plan', items, { explanation: explanation ?? previous.explanation, time });
  }
  return undefined;
}

/** `ask: tool` (not partial) or `say: user_edit_todos`, whose `text` is `{tool: "updateTodoList", todos: [{id, content, status}]}`. */
export function rooUiPlan(kind: string | undefined, message: Record<string, unknown>, time?: string): SessionPlan | undefined {
  if ((kind !== 'tool' && kind !== 'user_edit_todos') || message.partial === true) return undefined;
  const text = str(message.text) ?? '';
  if (!text.includes('updateTodoList')) return undefined;
  try {
    const t = obj(JSON.parse(text));
    if (t?.tool !== 'updateTodoList') return undefined;
    return planOf('update_todo_list', objectItems(t.todos, ['content', 'text']), { time });
  } catch {
    return undefined;
  }
}

/** Cline / Roo / Kilo API history: `update_todo_list`'s `todos`, or any tool's `task_progress` parameter. */
export function apiToolPlan(name: string, input: Record<string, unknown> | undefined, time?: string): SessionPlan | undefined {
  if (!input) return undefined;
  if (name === 'update_todo_list') return checklistPlan('update_todo_list', input.todos, time);
  return typeof input.task_progress === 'string' ? checklistPlan('task_progress', input.task_progress, time) : undefined;
}

/** XML-style tool use in assistant text (`<update_todo_list><todos>…</todos>`, `<task_progress>…</task_progress>`); the last wins. */
export function xmlTextPlan(text: string, time?: string): SessionPlan | undefined {
  let plan: SessionPlan | undefined;
  for (const m of text.matchAll(
    /<update_todo_list>[\s\S]*?<todos>([\s\S]*?)<\/todos>[\s\S]*?<\/update_todo_list>|<task_progress>([\s\S]*?)<\/task_progress>/g,
  )) {
    plan = (m[1] !== undefined ? checklistPlan('update_todo_list', m[1], time) : checklistPlan('task_progress', m[2], time)) ?? plan;
  }
  return plan;
}

/** `manage_todo_list`, serialized as `toolSpecificData: {kind: "todoList", todoList: [{id, title, description?, status}]}`. */
export function copilotTodoListPlan(toolSpecificData: Record<string, unknown>, time?: string): SessionPlan | undefined {
  if (toolSpecificData.kind !== 'todoList') return undefined;
  return planOf('manage_todo_list', objectItems(toolSpecificData.todoList, ['title', 'description']), { time });
}

/** `write_todos` `{todos: [{description, status: pending|in_progress|completed|cancelled}]}`. */
export function geminiWriteTodosPlan(args: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('write_todos', objectItems(args.todos, ['description', 'content']), { time });
}

/** `todowrite` `{todos: [{content, status, priority, id}]}`. */
export function openCodeTodoWritePlan(input: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('todowrite', objectItems(input.todos, ['content']), { time });
}

/** `todo_write`'s `todos`, or the list the task tools display after each call (`resultDisplay: {type: "todo_list", todos}`). */
export function qwenTodoListPlan(tool: string, todos: unknown, time?: string): SessionPlan | undefined {
  return planOf(tool, objectItems(todos, ['content', 'description']), { time });
}

/** `1. [completed] text` (`[in_progress]`, `[pending]`, or a checkbox). */
const DROID_TODO = /^\s*(?:[-*+]\s*|\d+[.)]\s*)?\[\s*([a-zA-Z_ -]*|[xX~-]?)\s*\]\s+(.+?)\s*$/;

/** `todos`: numbered lines `N. [status] text`, or `{content, status}` objects. */
export function droidTodoWritePlan(input: Record<string, unknown>, time?: string): SessionPlan | undefined {
  if (Array.isArray(input.todos)) return planOf('TodoWrite', objectItems(input.todos, ['content', 'description', 'text']), { time });
  if (typeof input.todos !== 'string') return undefined;
  const items: Array<{ text: string; status: PlanItemStatus }> = [];
  for (const line of input.todos.split(/\r?\n/)) {
    const m = DROID_TODO.exec(line);
    if (m) items.push({ text: m[2], status: m[1].trim() === '' ? 'pending' : planStatus(m[1]) });
  }
  return planOf('TodoWrite', items, { time });
}

/** Amp's `todo_write` `{todos: [{id, content, status: todo|in-progress|completed, priority}]}`. */
export function ampTodoWritePlan(input: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('todo_write', objectItems(input.todos, ['content']), { time });
}
