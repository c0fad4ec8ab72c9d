// Claude Code's task list on disk: `<config folder>/tasks/<list id>/<id>.json`, one file per task, beside the
// `projects` folder that holds the transcripts. The list id is `CLAUDE_CODE_TASK_LIST_ID` when set (the process's own
// environment, or the `env` of the workspace's `.claude/settings.local.json` / `.claude/settings.json`), else the
// session id (the transcript's file name), with every character other than `[A-Za-z0-9_-]` written as `-`. The folder
// also holds `.lock` and `.highwatermark`. A task file Claude Code's own schema rejects is not in its list, nor is one
// whose `metadata._internal` is set (TaskList leaves those out); a deleted task's file is removed.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import type { PlanItemStatus } from '../../core/session/events';
import { planOf } from './readers/planTools';
import type { RememberedPlan } from './plans';

/** Claude Code's task record (its `TaskCreate` writes `{id, ...}` with these fields, two-space JSON). */
export const ClaudeTaskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  activeForm: z.optional(z.string()),
  owner: z.optional(z.string()),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
});
export type ClaudeTask = z.infer<typeof ClaudeTaskSchema>;

const SettingsEnvSchema = z.object({ env: z.optional(z.record(z.string(), z.unknown())) });

/** Task files read at most per list; a list is a handful of items, this bounds a folder filled by something else. */
const MAX_TASK_FILES = 1000;
/** A task file above this is not one Claude Code wrote. */
const MAX_TASK_FILE_BYTES = 256 * 1024;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ClaudeTaskListPlan {
  readonly plan: RememberedPlan;
  /** The list's folder. */
  readonly folder: string;
  /** The last change to the list (its newest task file, or the folder itself when a task was removed), ms since epoch. */
  readonly changedMs: number;
}

/** Claude Code's own rule for a list id as a folder name. */
export function taskListFolderName(listId: string): string {
  return listId.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/** The list in `folder` in id order, or undefined when it holds no task (or cannot be read). Never throws. */
export async function readClaudeTaskList(folder: string): Promise<ClaudeTaskListPlan | undefined> {
  let names: string[];
  let changedMs: number;
  try {
    const st = await stat(folder);
    if (!st.isDirectory()) return undefined;
    changedMs = st.mtimeMs;
    names = (await readdir(folder)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return undefined;
  }
  const tasks: ClaudeTask[] = [];
  for (const name of names.sort(byId).slice(0, MAX_TASK_FILES)) {
    const file = path.join(folder, name);
    try {
      const st = await stat(file);
      if (!st.isFile() || st.size > MAX_TASK_FILE_BYTES) continue;
      const parsed = ClaudeTaskSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (!parsed.success || parsed.data.metadata?._internal) continue;
      tasks.push(parsed.data);
      changedMs = Math.max(changedMs, st.mtimeMs);
    } catch {
      // Removed while listed, or being written: not in the list now.
    }
  }
  tasks.sort((a, b) => byId(a.id, b.id));
  const time = new Date(changedMs).toISOString();
  const items: Array<{ text: string; status: PlanItemStatus }> = tasks.map((t) => ({ text: t.subject, status: t.status }));
  const plan = planOf('TaskList', items, { time });
  if (!plan) return undefined;
  const ids = tasks.filter((t) => t.subject.trim()).map((t) => t.id);
  return {
    plan: {
      tool: plan.tool,
      items: plan.items.map((it, i) => ({ ...it, id: ids[i] })),
      ...(plan.omitted ? { omitted: plan.omitted } : {}),
      time,
    },
    folder,
    changedMs,
  };
}

/** Numeric ids (`2.json` before `10.json`) in number order, others after them by name. */
function byId(a: string, b: string): number {
  const na = Number.parseInt(a, 10);
  const nb = Number.parseInt(b, 10);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  if (Number.isFinite(na) !== Number.isFinite(nb)) return Number.isFinite(na) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `CLAUDE_CODE_TASK_LIST_ID` from the workspace's Claude Code settings (local first), else this process's environment. */
async function sharedListId(workspaceRoot: string): Promise<string | undefined> {
  for (const f of ['settings.local.json', 'settings.json']) {
    try {
      const parsed = SettingsEnvSchema.safeParse(JSON.parse(await readFile(path.join(workspaceRoot, '.claude', f), 'utf8')));
      const id = parsed.success ? parsed.data.env?.CLAUDE_CODE_TASK_LIST_ID : undefined;
      if (typeof id === 'string' && id.trim()) return id.trim();
    } catch {
      // No settings file, or not JSON: Claude Code would not take a list id from it either.
    }
  }
  const env = process.env.CLAUDE_CODE_TASK_LIST_ID?.trim();
  return env || undefined;
}

/**
 * The task list of the Claude Code session whose transcript is `transcript` (`<config>/projects/<project>/<session
 * id>.jsonl`): the shared list when a list id is set, else the session's own; undefined when the file is not named by a
 * session id or no list with a task is there. Never throws.
 */
export async function claudeSessionTaskList(transcript: string, workspaceRoot: string): Promise<ClaudeTaskListPlan | undefined> {
  const sessionId = path.basename(transcript, '.jsonl');
  if (!transcript.endsWith('.jsonl') || !SESSION_ID.test(sessionId)) return undefined;
  const tasksRoot = path.join(path.dirname(path.dirname(path.dirname(transcript))), 'tasks');
  const shared = await sharedListId(workspaceRoot).catch(() => undefined);
  const lists = await Promise.all(
    [...new Set([shared, sessionId].filter((id): id is string => !!id))].map((id) => readClaudeTaskList(path.join(tasksRoot, taskListFolderName(id)))),
  );
  let newest: ClaudeTaskListPlan | undefined;
  for (const l of lists) if (l && (!newest || l.changedMs > newest.changedMs)) newest = l;
  return newest;
}

/**
 * A Claude Code session's plan: its task list on disk when one is there and changed no earlier than the transcript's
 * own latest plan (the list is what the session's TaskCreate / TaskUpdate calls, or another session sharing the list,
 * left; the transcript may have been read only in part), else the transcript's. `from` is the file or folder it came
 * from. Never throws.
 */
export async function sessionPlan(
  t: { readonly source: string; readonly file: string },
  plan: RememberedPlan | undefined,
  workspaceRoot: string,
): Promise<{ readonly plan: RememberedPlan | undefined; readonly from: string }> {
  if (t.source !== 'claude-code') return { plan, from: t.file };
  const list = await claudeSessionTaskList(t.file, workspaceRoot);
  const planAt = plan?.time ? Date.parse(plan.time) : Number.NaN;
  if (list && !(planAt > list.changedMs)) return { plan: list.plan, from: list.folder };
  return { plan, from: t.file };
}
