// Cursor's agent transcripts: `~/.cursor/projects/<project key>/agent-transcripts/<id>/<id>.jsonl`, written by the
// Cursor IDE's agent and the Cursor Agent CLI. Cursor is closed source; these are the shapes open-source readers of
// those files document from real sessions: `{role, message: {content: [blocks]}}` with `text` and `tool_use {name,
// input}` blocks only, and `{type: "turn_ended", status, error?}` markers. No record carries an id, a time, a cwd or a
// tool's result, so a command's exit code and output are never known here (docs/DESIGN.md §6).
import * as z from 'zod';
import { claimedTestResult } from '../../../core/session/claimedResult';
import { cleanTurnText, type SessionAccumulator, type SessionCommand, type SessionPlan, type TranscriptRead } from '../../../core/session/events';
import { testRunner } from '../../../core/session/testDetection';
import { forEachJsonLine } from '../lines';
import { patchPaths } from './codex';
import { accumulator, relativePath, str, transcriptRead, unreadable, type ReaderOptions } from './common';
import { planOf, planStatus } from './planTools';

export const CursorTextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
/** `input` is an object, or the patch text itself for `ApplyPatch`. */
export const CursorToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  name: z.string(),
  input: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});
export const CursorMessageRecordSchema = z.object({
  role: z.enum(['user', 'assistant']),
  message: z.object({ content: z.union([z.string(), z.array(z.unknown())]) }),
});
export const CursorTurnEndedSchema = z.object({ type: z.literal('turn_ended'), status: z.string(), error: z.string().optional() });
/** `TodoWrite`: with `merge`, only the items named by `id` change and new ones are added. */
export const CursorTodoWriteSchema = z.object({
  merge: z.boolean().optional(),
  todos: z.array(z.object({ id: z.union([z.string(), z.number()]).optional(), content: z.string().optional(), status: z.string().optional() })),
});

/** Tools that name the one file they write, and the key holding it (current names, then the older snake_case ones). */
const PATH_EDIT_TOOLS: Record<string, readonly string[]> = {
  Write: ['path', 'file_path'],
  StrReplace: ['path', 'file_path'],
  Edit: ['path', 'file_path'],
  MultiEdit: ['path', 'file_path'],
  Delete: ['path', 'file_path'],
  EditNotebook: ['target_notebook', 'path'],
  edit_file: ['target_file', 'path'],
  search_replace: ['file_path', 'target_file', 'path'],
  write: ['file_path', 'path'],
  delete_file: ['target_file', 'path'],
  edit_notebook: ['target_notebook'],
  // The IDE's own store (./cursorDb.ts) names them in `toolFormerData`: `params` holds Cursor's path.
  edit_file_v2: ['relativeWorkspacePath', 'target_file', 'file_path'],
};
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['Shell', 'run_terminal_cmd', 'run_terminal_command_v2']);
/** The agent's texts after a test run kept for its claimed result: its next words, not the whole turn. */
const MAX_CLAIM_TEXTS = 8;
export const TODO_TOOLS: ReadonlySet<string> = new Set(['TodoWrite', 'todo_write']);
/** Cursor's own continuations, written as a user query after a sub-agent's or a background task's result (`<system_notification>`). */
const INJECTED = /^(?:The (?:beginning of the )?above subagent result is already visible to the user\b|Briefly inform the user about the task result\b)/;

/**
 * The user's words: what `<user_query>` holds. What comes before it (`<timestamp>`, `<image_files>`, a
 * `<system_notification>`) is Cursor's. One query runs to the last `</user_query>` (pasted text may hold the tag);
 * a record joining several notifications has one query after each, and `injected` says all of them are Cursor's.
 */
export function cursorUserQuery(text: string): { text: string; injected: boolean } | undefined {
  const OPEN = '<user_query>';
  const first = text.indexOf(OPEN);
  if (first < 0) return undefined;
  if (text.indexOf(OPEN, first + OPEN.length) < 0) {
    const close = text.lastIndexOf('</user_query>');
    const body = text.slice(first + OPEN.length, close > first ? close : undefined).trim();
    return { text: body, injected: INJECTED.test(body) };
  }
  const bodies = [...text.matchAll(/<user_query>([\s\S]*?)(?:<\/user_query>|$)/g)].map((m) => m[1].trim()).filter(Boolean);
  const typed = bodies.filter((b) => !INJECTED.test(b));
  return typed.length ? { text: typed.join('\n\n'), injected: false } : { text: bodies.join('\n\n'), injected: true };
}

/** The todo list as the calls left it, merged by `id`; a read of only new lines starts from the remembered plan. */
export class CursorTodos {
  private items: Array<{ id?: string; text: string; status: string }>;

  constructor(previous?: SessionPlan) {
    this.items = previous && TODO_TOOLS.has(previous.tool) ? previous.items.map((it) => ({ id: it.id, text: it.text, status: it.status })) : [];
  }

  apply(input: unknown): boolean {
    const parsed = CursorTodoWriteSchema.safeParse(input);
    if (!parsed.success) return false;
    if (!parsed.data.merge) this.items = [];
    for (const t of parsed.data.todos) {
      const id = t.id === undefined ? undefined : String(t.id);
      const old = id === undefined ? undefined : this.items.find((i) => i.id === id);
      if (old) {
        if (t.content) old.text = t.content;
        if (t.status) old.status = t.status;
      } else if (t.content) this.items.push({ id, text: t.content, status: t.status ?? 'pending' });
    }
    return true;
  }

  plan(tool: string): SessionPlan | undefined {
    const plan = planOf(
      tool,
      this.items.map((i) => ({ text: i.text, status: planStatus(i.status) })),
    );
    return plan && { ...plan, items: plan.items.map((it, i) => ({ ...it, ...(this.items[i].id !== undefined ? { id: this.items[i].id } : {}) })) };
  }
}

export function editPaths(name: string, input: Record<string, unknown> | string | undefined): string[] {
  if (name === 'ApplyPatch' || name === 'apply_patch') {
    const patch = typeof input === 'string' ? input : (str(input?.patch) ?? str(input?.input) ?? '');
    return patchPaths(patch);
  }
  const keys = PATH_EDIT_TOOLS[name];
  if (!keys || typeof input !== 'object') return [];
  const p = keys.map((k) => str(input[k])).find(Boolean);
  return p ? [p] : [];
}

/** From `opts.fromOffset`. Never throws. */
export async function readCursor(file: string, opts: ReaderOptions = {}): Promise<TranscriptRead> {
  const acc = accumulator(opts);
  const todos = new CursorTodos(opts.plan);
  // A test run waits for the agent's next words: with no result recorded, they are all there is (basis: claim).
  let held: SessionCommand | undefined;
  let words: string[] = [];
  const flush = () => {
    if (!held) return;
    const claimed = claimedTestResult(words.join('\n'));
    acc.add(claimed ? { ...held, claimed } : held);
    held = undefined;
    words = [];
  };
  try {
    const { endOffset, stats } = await forEachJsonLine(file, opts.fromOffset ?? 0, (r) => {
      const record = CursorMessageRecordSchema.safeParse(r);
      if (!record.success) return;
      const { role } = record.data;
      const content = record.data.message.content;
      const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
      if (role === 'user') flush();
      const texts: string[] = [];
      for (const raw of blocks) {
        const text = CursorTextBlockSchema.safeParse(raw);
        if (text.success) {
          texts.push(text.data.text);
          continue;
        }
        const tool = CursorToolUseBlockSchema.safeParse(raw);
        if (!tool.success || role !== 'assistant') continue;
        if (texts.length) {
          const said = texts.splice(0).join('\n');
          if (held && words.length < MAX_CLAIM_TEXTS) words.push(said);
          addTurn(acc, role, said);
        }
        flush();
        addTool(acc, tool.data.name, tool.data.input, todos, opts, (c) => {
          if (testRunner(c.command)) held = c;
          else acc.add(c);
        });
      }
      if (texts.length) {
        const said = texts.join('\n');
        if (role === 'assistant' && held && words.length < MAX_CLAIM_TEXTS) words.push(said);
        addTurn(acc, role, said);
      }
    });
    flush();
    return transcriptRead('cursor', file, acc, stats, endOffset);
  } catch (err) {
    return unreadable('cursor', file, err);
  }
}

export function addTurn(acc: SessionAccumulator, role: 'user' | 'assistant', raw: string): void {
  if (role === 'assistant') {
    const text = cleanTurnText(raw);
    if (text) acc.add({ kind: 'turn', role, text });
    return;
  }
  const query = cursorUserQuery(raw);
  // Without `<user_query>` a user record is Cursor's (`<system_reminder>`), or a plain request from a writer that does not wrap it.
  if (query === undefined && raw.trimStart().startsWith('<')) return;
  const text = cleanTurnText(query?.text ?? raw);
  if (text) acc.add({ kind: 'turn', role, text, ...(query?.injected ? { injected: true } : {}) });
}

export function addTool(
  acc: SessionAccumulator,
  name: string,
  input: Record<string, unknown> | string | undefined,
  todos: CursorTodos,
  opts: ReaderOptions,
  command: (c: SessionCommand) => void,
): void {
  if (SHELL_TOOLS.has(name)) {
    const cmd = typeof input === 'object' ? str(input.command) : undefined;
    if (!cmd) return;
    const cwd = typeof input === 'object' ? (str(input.working_directory) ?? str(input.cwd)) : undefined;
    // Cursor records no result: the exit code is unknown and a command the user skipped cannot be told apart.
    command({ kind: 'command', command: cmd, cwd: cwd ?? null, exit_code: null, ran: true });
    return;
  }
  if (TODO_TOOLS.has(name)) {
    if (todos.apply(input)) {
      const plan = todos.plan(name);
      if (plan) acc.add(plan);
    }
    return;
  }
  for (const p of editPaths(name, input)) acc.add({ kind: 'file_edit', path: relativePath(p, opts.workspaceRoot), tool: name });
}
