/**
 * The agents' todo / plan tools as {@link SessionPlan} snapshots: one parser per tool,
 * each reading the tool's arguments as the agent's own source defines them. The readers call
 * these where they meet the tool call; every call replaces the whole list (the accumulator keeps
 * the latest), so each parser returns the full list the call left.
 *
 * Shapes, from each agent's source:
 * - Claude Code `TodoWrite`: `input.todos: [{content, status: pending|in_progress|completed,
 *   activeForm}]` (the Agent SDK's TodoWrite input schema; older versions also had `id`, `priority`);
 *   since 2.1.16 the task tools `TaskCreate` / `TaskUpdate` (see {@link ClaudeTaskList}).
 * - Codex CLI `update_plan`: `arguments` (a JSON string) `{explanation?, plan: [{step, status:
 *   pending|in_progress|completed}]}` (openai/codex `codex-rs/protocol/src/plan_tool.rs`
 *   `UpdatePlanArgs`); the same object as the `plan_update` event. Some builds also accept
 *   `{set: [{index, status}]}`, a status change of the current plan's steps.
 * - Roo Code / Kilo Code `update_todo_list`: `todos`, a Markdown checklist, one item a line,
 *   `[ ]` pending, `[x]` completed, `[-]` (or `[~]`) in progress, optionally after `- `
 *   (RooCodeInc/Roo-Code `src/core/tools/UpdateTodoListTool.ts` `parseMarkdownChecklist`); in
 *   `ui_messages.json` the tool ask is `{"tool":"updateTodoList","todos":[{id, content, status}]}`
 *   and a list the user edited is `say: user_edit_todos` with the same JSON.
 * - Cline's task progress: the `task_progress` parameter of any tool call, a Markdown checklist
 *   `- [ ]` / `- [x]` (nested items indented); `ui_messages.json` has it as `say: task_progress`.
 * - Copilot Chat agent mode `manage_todo_list`: `todoList: [{id, title, description?, status:
 *   not-started|in-progress|completed}]`; the serialized tool invocation keeps it as
 *   `toolSpecificData: {kind: "todoList", sessionId, todoList}` (microsoft/vscode
 *   `chat/common/tools/builtinTools/manageTodoListTool.ts` `prepareToolInvocation`).
 * - Gemini CLI `write_todos`: `args.todos: [{description, status: pending|in_progress|completed|
 *   cancelled}]` (google-gemini/gemini-cli `docs/tools/todos.md`, `tools/write-todos.ts`).
 * - OpenCode `todowrite`: `input.todos: [{content, status, priority, id}]` (anomalyco/opencode
 *   `packages/opencode/src/tool/todo.ts` `TodoInfo`; status pending|in_progress|completed|cancelled).
 *
 * Bounds (docs/DESIGN.md §6, "nothing dropped silently"): at most {@link MAX_PLAN_ITEMS} items,
 * the rest counted in `omitted`; each text at most {@link MAX_PLAN_ITEM_CHARS} characters. A call
 * that leaves no item (an empty list, nothing parseable) is no snapshot: it says nothing of what is
 * done or next, so the previous plan stands.
 */
import { MAX_PLAN_ITEMS, MAX_PLAN_ITEM_CHARS, type PlanItem, type PlanItemStatus, type SessionPlan } from '../../../core/session/events';
import { obj, str } from './common';

/**
 * A tool's status word as a {@link PlanItemStatus}: `pending` / `not-started` / `[ ]`,
 * `in_progress` / `in-progress` / `inProgress` / `[-]` / `[~]`, `completed` / `[x]`,
 * `cancelled` / `canceled`. Any other word is `pending` (still open: never reported as done),
 * as Roo Code's own `normalizeStatus` does.
 */
export function planStatus(raw: unknown): PlanItemStatus {
  const t = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (t === '-' || t === '~') return 'in_progress';
  const s = t.replace(/[\s-]+/g, '_');
  if (s === 'completed' || s === 'complete' || s === 'done' || s === 'x') return 'completed';
  if (s === 'in_progress' || s === 'inprogress') return 'in_progress';
  if (s === 'cancelled' || s === 'canceled') return 'cancelled';
  return 'pending';
}

/**
 * A text cut to {@link MAX_PLAN_ITEM_CHARS} characters (an ellipsis marks the cut), at the last
 * whitespace when that is in the second half: a secret (one word) is never left half there for
 * the redactor to miss. A surrogate pair is never split.
 */
function bounded(text: string): string {
  if (text.length <= MAX_PLAN_ITEM_CHARS) return text;
  let head = text.slice(0, MAX_PLAN_ITEM_CHARS - 1);
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  const space = /\s/.test(text[head.length]) ? -1 : head.search(/\s\S*$/);
  return `${(space >= MAX_PLAN_ITEM_CHARS / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/**
 * A plan snapshot from items in the tool's order, bounded; undefined when no item has text.
 * @param tool the tool's own name (`TodoWrite`, `update_plan` …)
 */
export function planOf(tool: string, items: ReadonlyArray<{ text: string; status: PlanItemStatus }>, extra: { explanation?: string; time?: string } = {}): SessionPlan | undefined {
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

/** Items of an array of objects: the text from the first of `textKeys` that is a string, the status from `status`. */
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

/** A checkbox line: optional bullet (`-`, `*`, `+` or `1.`), `[ ]` / `[x]` / `[X]` / `[-]` / `[~]`, then the text. */
const CHECKBOX = /^\s*(?:[-*+]\s*|\d+[.)]\s*)?\[\s*([ xX~-]?)\s*\]\s+(.+?)\s*$/;

/**
 * The items of a Markdown checklist, one per checkbox line in order (Roo / Kilo `update_todo_list`,
 * Cline `task_progress`); nested items (indented) are items of their own, their text as written.
 * Lines without a checkbox (headings, notes) are not items.
 */
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

/** A Markdown checklist tool call as a plan (`tool`: `update_todo_list` or `task_progress`). */
export function checklistPlan(tool: string, markdown: unknown, time?: string): SessionPlan | undefined {
  if (typeof markdown !== 'string') return undefined;
  // The model sometimes sends the list as a JSON array of {content, status} (Roo Code accepts it too).
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

/** Claude Code `TodoWrite` input (`{todos: [{content, status, activeForm}]}`) as a plan. */
export function claudeTodoWritePlan(input: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('TodoWrite', objectItems(input.todos, ['content', 'activeForm']), { time });
}

/**
 * Claude Code's task tools (since Claude Code 2.1.16 the default in place of `TodoWrite`):
 * `TaskCreate` `{subject, description, activeForm?}` adds one task, its id in the result
 * ("Task #3 created successfully: …", `toolUseResult.task.id`); `TaskUpdate` `{taskId, status?:
 * pending|in_progress|completed|deleted, subject?}` changes one (`deleted` removes it). Ids are
 * numbered from 1 per list. The list starts from the plan remembered from the previous read.
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

  /**
   * Applies one finished `TaskCreate` / `TaskUpdate` call.
   * @param resultText the tool result's text (the created task's id is in it)
   * @returns the list after the call, or undefined when the call changed nothing known
   */
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
        this.items[i] = { ...this.items[i], ...(subject?.trim() ? { text: subject } : {}), ...(input.status !== undefined ? { status: planStatus(input.status) } : {}) };
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
 * Codex `update_plan` arguments (already parsed from their JSON string) or a `plan_update`
 * event payload as a plan. A `{set: [{index, status}]}` call changes the statuses of
 * `previous` (the reader's latest plan) by step index.
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

/**
 * A Roo Code / Kilo Code `ui_messages.json` element's plan: the `updateTodoList` tool ask
 * (`ask: tool`, not partial) or the user's edit of it (`say: user_edit_todos`), their `text`
 * the JSON `{tool: "updateTodoList", todos: [{id, content, status}]}`.
 */
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

/** A tool call's plan in an API conversation history (Cline, Roo, Kilo): `update_todo_list`'s `todos`, or any tool's `task_progress`. */
export function apiToolPlan(name: string, input: Record<string, unknown> | undefined, time?: string): SessionPlan | undefined {
  if (!input) return undefined;
  if (name === 'update_todo_list') return checklistPlan('update_todo_list', input.todos, time);
  return typeof input.task_progress === 'string' ? checklistPlan('task_progress', input.task_progress, time) : undefined;
}

/** The plan tool blocks inside an assistant text (XML-style tool use: `<update_todo_list><todos>…</todos>`, `<task_progress>…</task_progress>`); the last one wins. */
export function xmlTextPlan(text: string, time?: string): SessionPlan | undefined {
  let plan: SessionPlan | undefined;
  for (const m of text.matchAll(/<update_todo_list>[\s\S]*?<todos>([\s\S]*?)<\/todos>[\s\S]*?<\/update_todo_list>|<task_progress>([\s\S]*?)<\/task_progress>/g)) {
    plan = (m[1] !== undefined ? checklistPlan('update_todo_list', m[1], time) : checklistPlan('task_progress', m[2], time)) ?? plan;
  }
  return plan;
}

/** Copilot Chat's `manage_todo_list` serialized invocation (`toolSpecificData.kind: "todoList"`, `todoList: [{id, title, description, status}]`) as a plan. */
export function copilotTodoListPlan(toolSpecificData: Record<string, unknown>, time?: string): SessionPlan | undefined {
  if (toolSpecificData.kind !== 'todoList') return undefined;
  return planOf('manage_todo_list', objectItems(toolSpecificData.todoList, ['title', 'description']), { time });
}

/** Gemini CLI `write_todos` args (`{todos: [{description, status}]}`) as a plan. */
export function geminiWriteTodosPlan(args: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('write_todos', objectItems(args.todos, ['description', 'content']), { time });
}

/** OpenCode `todowrite` input (`{todos: [{content, status, priority, id}]}`) as a plan. */
export function openCodeTodoWritePlan(input: Record<string, unknown>, time?: string): SessionPlan | undefined {
  return planOf('todowrite', objectItems(input.todos, ['content']), { time });
}

/**
 * A Qwen Code todo list as a plan: `todo_write`'s `todos` argument, or the whole list its task tools
 * (`task_create`, `task_update`, …) display after each call (`resultDisplay: {type: "todo_list",
 * todos: [{id, content, status}]}`, QwenLM/qwen-code `tools/task-update.ts`).
 */
export function qwenTodoListPlan(tool: string, todos: unknown, time?: string): SessionPlan | undefined {
  return planOf(tool, objectItems(todos, ['content', 'description']), { time });
}

/** A Factory Droid todo line: `1. [completed] text` (`[in_progress]`, `[pending]`, or a checkbox). */
const DROID_TODO = /^\s*(?:[-*+]\s*|\d+[.)]\s*)?\[\s*([a-zA-Z_ -]*|[xX~-]?)\s*\]\s+(.+?)\s*$/;

/**
 * Factory Droid `TodoWrite` input as a plan: `todos` a text of numbered lines `N. [status] text`
 * (status `pending` / `in_progress` / `completed`), or a list of `{content, status}` objects.
 */
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
