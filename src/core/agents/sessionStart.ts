// Session-start hook answer: the handoffs waiting to be picked up, added to a starting agent's context. Pure.
// Claude Code, Codex CLI, Gemini CLI and VS Code send `SessionStart` (`hook_event_name`, `cwd`, `session_id`, `source`);
// Cline sends `TaskStart`/`TaskResume` (`hookName`, `workspaceRoots`) and blocks the task on a non-zero exit, so Cline always gets exit 0.
import path from 'node:path';
import * as z from 'zod';
import { clipText } from '../handoff/text';
import { formatCount } from '../handoff/limits';
import { stripInvisible } from '../safety/invisible';
import { ageInWords } from '../timeline/waiting';

/** UTF-16 units: Claude Code's bound (it saves longer context to a file, leaving a preview), the tightest of the agents'. */
export const SESSION_START_CONTEXT_LIMIT = 10_000;

export type HookDialect = 'claude' | 'cline';

export interface SessionStartInput {
  readonly dialect: HookDialect;
  /** One line of visible text: `SessionStart (startup)`, `TaskResume`. */
  readonly event: string;
  /** Absent when the agent sends none (then the hook's working folder is used). */
  readonly cwd?: string;
  /** False for a Cline event other than TaskStart and TaskResume: nothing to answer. */
  readonly startsSession: boolean;
}

/** `undefined` for an input of another event, which the safety-net hook reads. */
export type SessionStartRead =
  { readonly ok: true; readonly input: SessionStartInput } | { readonly ok: false; readonly dialect: HookDialect; readonly message: string } | undefined;

const CLINE_START_EVENTS: readonly string[] = ['TaskStart', 'TaskResume'];

function label(value: string): string {
  return clipText(stripInvisible(value).text.replace(/\s+/g, ' ').trim(), 100);
}

const optionalText = z.string().max(4096).optional().catch(undefined);

/** VS Code sends `hookEventName` in some versions, hence both. */
const ClaudeShapeSchema = z
  .object({
    hook_event_name: optionalText,
    hookEventName: optionalText,
    cwd: z.unknown().optional(),
    source: optionalText,
  })
  .loose();

const ClineShapeSchema = z
  .object({
    hookName: z.string().max(100),
    clineVersion: z.string().max(100).optional(),
    workspaceRoots: z.unknown().optional(),
  })
  .loose();

function folderOf(value: unknown, name: string, dialect: HookDialect): { ok: true; cwd?: string } | { ok: false; dialect: HookDialect; message: string } {
  if (value === undefined || value === null) return { ok: true };
  if (typeof value !== 'string' || !value.trim()) {
    return {
      ok: false,
      dialect,
      message: `ERROR: the hook input's ${name} must be a folder path — the agent's session-start hook sends the session's folder there`,
    };
  }
  if (!path.isAbsolute(value)) {
    return {
      ok: false,
      dialect,
      message: `ERROR: the hook input's ${name} must be an absolute path (got "${clipText(value, 120)}") — the agent's session-start hook sends the session's folder there`,
    };
  }
  return { ok: true, cwd: value };
}

/** `undefined` when the input is neither shape (Claude's `SessionStart`, or Cline's), so the safety-net hook words its own errors. */
export function readSessionStartInput(text: string): SessionStartRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const cline = ClineShapeSchema.safeParse(json);
  if (cline.success && (cline.data.clineVersion !== undefined || cline.data.workspaceRoots !== undefined)) {
    const roots = cline.data.workspaceRoots;
    const first = Array.isArray(roots) ? roots[0] : roots;
    const folder = folderOf(first, 'workspaceRoots[0]', 'cline');
    if (!folder.ok) return folder;
    const event = label(cline.data.hookName);
    return { ok: true, input: { dialect: 'cline', event, ...(folder.cwd ? { cwd: folder.cwd } : {}), startsSession: CLINE_START_EVENTS.includes(event) } };
  }
  const claude = ClaudeShapeSchema.safeParse(json);
  const name = claude.success ? (claude.data.hook_event_name ?? claude.data.hookEventName) : undefined;
  if (!claude.success || name === undefined || label(name) !== 'SessionStart') return undefined;
  const folder = folderOf(claude.data.cwd, 'cwd', 'claude');
  if (!folder.ok) return folder;
  const source = claude.data.source === undefined ? '' : label(claude.data.source);
  return {
    ok: true,
    input: { dialect: 'claude', event: `SessionStart${source ? ` (${source})` : ''}`, ...(folder.cwd ? { cwd: folder.cwd } : {}), startsSession: true },
  };
}

export interface PendingHandoff {
  readonly id: string;
  /** The frontmatter's `from`: `developer`, `claude-code`, a specialist … */
  readonly from: string;
  /** In words: `Quality reviewer [quality reviewer]`. */
  readonly to: string;
  readonly topic: string;
  /** ms since the epoch. */
  readonly created: number;
}

/** Prints the handoff's receiving prompt and marks it accepted. */
export function takeCommand(id: string): string {
  return `specialist-handoff prompt --handoff ${id}`;
}

function oneLine(text: string, max: number): string {
  return clipText(stripInvisible(text).text.replace(/\s+/g, ' ').trim(), max);
}

function ago(created: number, now: number): string {
  return Number.isFinite(created) ? `${ageInWords(Math.max(0, now - created))} ago` : 'at an unknown time';
}

/** `developer → Quality reviewer [quality reviewer] · "Auth refactor" · 3 hours ago` */
function describe(h: PendingHandoff, now: number): string {
  return `${oneLine(h.from, 80)} → ${oneLine(h.to, 120)} · "${oneLine(h.topic, 160)}" · ${ago(h.created, now)}`;
}

export interface SessionStartFacts {
  readonly pending: readonly PendingHandoff[];
  /** Receiving prompt of `pending[0]` (built without taking it); undefined when it could not be built. */
  readonly prompt: string | undefined;
  /** Relative to the workspace (`.handoff/handoffs`), named for handoffs the list leaves out. */
  readonly folder: string;
  readonly now: number;
  readonly limit?: number;
}

export interface SessionStartContext {
  readonly text: string;
  readonly form: 'prompt' | 'list';
  /** Pending handoffs named with their command (1 in the `prompt` form). */
  readonly listed: number;
}

/** The newest handoff's receiving prompt when it fits in `limit`, else a list of pending handoffs cut to fit; undefined when none is pending. */
export function sessionStartContext(facts: SessionStartFacts): SessionStartContext | undefined {
  const { pending, prompt, now, folder } = facts;
  const limit = facts.limit ?? SESSION_START_CONTEXT_LIMIT;
  const newest = pending[0];
  if (!newest) return undefined;
  const older = pending.length - 1;
  if (prompt !== undefined) {
    const also = older ? ` ${formatCount(older)} older handoff${older === 1 ? ' waits' : 's wait'} too (files in ${folder}/).` : '';
    const heading = [
      '# Specialist Handoff: a handoff waits to be picked up',
      '',
      `${describe(newest, now)} (handoff ${newest.id}). Its receiving prompt follows. It is not marked picked up: to take it, run \`${takeCommand(newest.id)}\` (marks it accepted) and work from the prompt below.${also}`,
      '',
      '---',
      '',
      '',
    ].join('\n');
    const text = `${heading}${prompt.trim()}\n`;
    if (text.length <= limit) return { text, form: 'prompt', listed: 1 };
  }
  const why =
    prompt === undefined
      ? "The newest one's receiving prompt could not be built here."
      : `The newest one's receiving prompt (${formatCount(prompt.trim().length)} characters) is longer than a session start may add (${formatCount(limit)}).`;
  const head = [
    `# Specialist Handoff: ${pending.length === 1 ? 'a handoff waits' : `${formatCount(pending.length)} handoffs wait`} to be picked up`,
    '',
    `${why} None is marked picked up. To take one, run the command after it: it prints the handoff's receiving prompt and marks it accepted.`,
    '',
  ];
  const moreLine = (n: number) => `- … and ${formatCount(n)} older (files in ${folder}/)`;
  const lines: string[] = [];
  let size = head.join('\n').length + 1;
  for (const [i, h] of pending.entries()) {
    const line = `- ${describe(h, now)} — \`${takeCommand(h.id)}\``;
    const after = pending.length - i - 1;
    // This line, and the line counting the rest when more follow, must fit.
    if (lines.length && size + line.length + 1 + (after ? moreLine(after).length + 1 : 0) > limit) {
      lines.push(moreLine(pending.length - i));
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  const listed = lines.filter((l) => l.includes(takeCommand(''))).length;
  return { text: `${[...head, ...lines].join('\n')}\n`, form: 'list', listed };
}

/** Claude's `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"…"}}` (or `{}`; Codex refuses unknown keys), or Cline's `{"cancel":false,"contextModification":"…"}`. */
export function sessionStartOutput(dialect: HookDialect, context: string | undefined): string {
  if (dialect === 'cline') return JSON.stringify({ cancel: false, ...(context ? { contextModification: context } : {}) });
  return JSON.stringify(context ? { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } } : {});
}
