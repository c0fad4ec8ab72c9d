/**
 * The session-start answer of `specialist-handoff hook`: an agent starting a session in a
 * workspace learns of the handoffs there that wait to be picked up. Pure: the hook inputs
 * of the agents' session-start events, the text added to the new session's context, and
 * the JSON each agent reads back. Finding the workspace, reading the handoffs and building
 * the receiving prompt is the engine's (src/engine/sessionStart.ts); standard input and
 * output the CLI's (src/cli/hook.ts).
 *
 * The agents whose hooks offer a session-start event that adds context (docs/AGENTS.md,
 * "The next session picks the handoff up"), from their own documentation and source:
 * - Claude Code `SessionStart` (hooks reference; `source`: `startup`, `resume`, `clear`,
 *   `compact`): `hookSpecificOutput.additionalContext` on standard output. Claude Code 2.1
 *   keeps an `additionalContext` of up to 10,000 characters (string length) in the context
 *   and saves a longer one to a file, putting a preview in its place.
 * - Codex CLI `SessionStart` (codex-rs/hooks: `startup`, `resume`, `clear`, `compact`), Gemini
 *   CLI `SessionStart` (docs/hooks/reference.md: `startup`, `resume`, `clear`) and VS Code's
 *   agent hooks `SessionStart` (Preview; `source` `new`; it also runs the hooks of
 *   `.claude/settings.json`): the same input fields (`hook_event_name`, `cwd`, `session_id`,
 *   `source`) and the same output. Codex refuses keys it does not know in that output, so it
 *   holds nothing else.
 * - Cline `TaskStart` and `TaskResume` (hook reference: an executable named after the event
 *   in `.clinerules/hooks/`): input `hookName` and `workspaceRoots`; output
 *   `{"cancel": false, "contextModification": "…"}`. Cline blocks the task when a hook exits
 *   with anything but 0, so this answer always exits 0 for Cline.
 */
import path from 'node:path';
import { z } from 'zod';
import { clipText, formatCount } from '../handoff/render';
import { stripInvisible } from '../safety/invisible';
import { ageInWords } from '../timeline/waiting';

/** Most characters (UTF-16 code units, JavaScript string length) of context a session-start answer adds: Claude Code's bound, the tightest of the agents'. */
export const SESSION_START_CONTEXT_LIMIT = 10_000;

/** How an agent's session-start hook speaks: Claude Code's shape (also Codex CLI, Gemini CLI, VS Code), or Cline's. */
export type HookDialect = 'claude' | 'cline';

/** The session-start event of a hook input, read by {@link readSessionStartInput}. */
export interface SessionStartInput {
  readonly dialect: HookDialect;
  /** The event in words, one line of visible text: `SessionStart (startup)`, `TaskResume`. */
  readonly event: string;
  /** The session's folder (absolute) as the input names it; absent when the agent sends none (then the hook's working folder). */
  readonly cwd?: string;
  /** Whether the event starts a session (false for a Cline event other than TaskStart and TaskResume: nothing to answer). */
  readonly startsSession: boolean;
}

/** Outcome of {@link readSessionStartInput}: a session-start input, an input of another event (`undefined`: the safety net reads it), or what is wrong with a session-start input. */
export type SessionStartRead = { readonly ok: true; readonly input: SessionStartInput } | { readonly ok: false; readonly dialect: HookDialect; readonly message: string } | undefined;

/** Cline's task events that start or resume work, where context helps. */
const CLINE_START_EVENTS: readonly string[] = ['TaskStart', 'TaskResume'];

/** A label from the input as one line of visible text (event names, sources). */
function label(value: string): string {
  return clipText(stripInvisible(value).text.replace(/\s+/g, ' ').trim(), 100);
}

const optionalText = z.string().max(4096).optional().catch(undefined);

/** Claude Code's shape; VS Code sends `hookEventName` in some versions, hence both. */
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

/** The folder an input names: absent, or an absolute path. */
function folderOf(value: unknown, name: string, dialect: HookDialect): { ok: true; cwd?: string } | { ok: false; dialect: HookDialect; message: string } {
  if (value === undefined || value === null) return { ok: true };
  if (typeof value !== 'string' || !value.trim()) {
    return { ok: false, dialect, message: `ERROR: the hook input's ${name} must be a folder path — the agent's session-start hook sends the session's folder there` };
  }
  if (!path.isAbsolute(value)) {
    return { ok: false, dialect, message: `ERROR: the hook input's ${name} must be an absolute path (got "${clipText(value, 120)}") — the agent's session-start hook sends the session's folder there` };
  }
  return { ok: true, cwd: value };
}

/**
 * Reads the hook input as a session-start event: Claude Code's shape with
 * `hook_event_name` (or `hookEventName`) `SessionStart`, or Cline's (`hookName` with
 * `clineVersion` or `workspaceRoots`), any Cline event (only `TaskStart` and `TaskResume`
 * start a session).
 * @param text the hook input as read from standard input
 * @returns the input; `undefined` when it is not JSON of one of these shapes (the safety-net
 *   hook reads it and words its own errors); or an error naming the field at fault
 */
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
  return { ok: true, input: { dialect: 'claude', event: `SessionStart${source ? ` (${source})` : ''}`, ...(folder.cwd ? { cwd: folder.cwd } : {}), startsSession: true } };
}

/** A handoff waiting to be picked up, as the answer names it. */
export interface PendingHandoff {
  readonly id: string;
  /** Who handed over (the frontmatter's `from`: `developer`, `claude-code`, a specialist …). */
  readonly from: string;
  /** Who receives it, in words: `Quality reviewer [quality reviewer]`. */
  readonly to: string;
  readonly topic: string;
  /** When it was written, ms since the epoch. */
  readonly created: number;
}

/** The command that takes a handoff up: prints its receiving prompt and marks it accepted. */
export function takeCommand(id: string): string {
  return `specialist-handoff prompt --handoff ${id}`;
}

/** One line of visible text from a handoff's own words (its topic, who handed over). */
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

/** What {@link sessionStartContext} is given: the pending handoffs, newest first, and the newest one's receiving prompt. */
export interface SessionStartFacts {
  readonly pending: readonly PendingHandoff[];
  /** The receiving prompt of `pending[0]` (built without taking it), or undefined when it could not be built. */
  readonly prompt: string | undefined;
  /** The folder of the handoff files, relative to the workspace, for a handoff the answer does not name: `.handoff/handoffs`. */
  readonly folder: string;
  /** The clock, ms since the epoch. */
  readonly now: number;
  /** Most characters of the answer; default {@link SESSION_START_CONTEXT_LIMIT}. */
  readonly limit?: number;
}

/** The context a session-start answer adds: the newest pending handoff's receiving prompt (`prompt`), or the short list of them (`list`). */
export interface SessionStartContext {
  readonly text: string;
  readonly form: 'prompt' | 'list';
  /** How many pending handoffs the answer names with their command (the `prompt` form: 1). */
  readonly listed: number;
}

/**
 * The text added to a new session's context: when the newest pending handoff's receiving
 * prompt fits within `limit` characters with its heading, that heading (who → whom, topic,
 * age, that nothing is marked picked up, how to take it) and the prompt; else a short list
 * of the pending handoffs, newest first, each with how to take it, cut to the limit with a
 * line saying how many more there are (the first one is always listed).
 * @returns the context, or undefined when nothing is pending
 */
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

/**
 * The JSON an agent reads on standard output: Claude Code's shape
 * (`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"…"}}`, or
 * `{}` with nothing to add) or Cline's (`{"cancel":false,"contextModification":"…"}`).
 */
export function sessionStartOutput(dialect: HookDialect, context: string | undefined): string {
  if (dialect === 'cline') return JSON.stringify({ cancel: false, ...(context ? { contextModification: context } : {}) });
  return JSON.stringify(context ? { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } } : {});
}
