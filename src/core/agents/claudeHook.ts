/**
 * The Claude Code hook of `specialist-handoff hook`: the JSON Claude Code pipes to a
 * command hook on standard input, and the safety-net handoff written from it.
 *
 * Claude Code's hook input (Claude Code hooks reference): every event carries
 * `session_id`, `transcript_path` (the session's JSONL transcript), `cwd` and
 * `hook_event_name`; `SessionEnd` adds `reason` (`clear`, `logout`,
 * `prompt_input_exit`, `other` …) and `PreCompact` adds `trigger` (`manual` | `auto`)
 * and `custom_instructions`. Other fields (`permission_mode` …) are accepted and ignored,
 * so a newer Claude Code that sends more does not break the hook.
 *
 * Pure: no I/O. Reading git and the transcript is the engine's job (src/engine/hook.ts),
 * reading standard input the CLI's (src/cli/hook.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import { clipText, formatCount } from '../handoff/render';
import { stripInvisible } from '../safety/invisible';

/** Session ids this project records (the CLI's session-state rule): 1–200 of `A–Z a–z 0–9 . _ : -`. */
export const HOOK_SESSION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

/** Most bytes of hook input read from standard input: 1 MiB (Claude Code sends well under 1 KB). */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

/**
 * The hook events a safety net is written for (Claude Code hooks reference: `SessionEnd`
 * when a session ends, `PreCompact` before its conversation is compacted; docs/AGENTS.md).
 * Any other event (`Stop`, `PostToolUse` …) is skipped and said so.
 */
export const SAFETY_NET_EVENTS: readonly string[] = Object.freeze(['SessionEnd', 'PreCompact']);

/** Specialist a safety net hands to when none is named: the work is simply continued. */
export const DEFAULT_HOOK_SPECIALIST = 'implementation_engineer';

const MISSING = 'is missing';

/** A required text field; messages name no field (the parser puts "the hook input's <field>" before them). */
const field = (max: number) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? MISSING : 'must be a string') })
    .trim()
    .min(1, 'is empty')
    .max(max, `must be at most ${formatCount(max)} characters`);

/**
 * A label from the hook input (event name, reason, trigger) as one line of visible text:
 * they end up in the handoff's reason and summary and in the stderr line, so line breaks
 * and control characters become one space and invisible characters go (docs/DESIGN.md §7) —
 * cleaned rather than refused, so an odd value never costs the safety net.
 */
function hookLabel(value: string): string {
  return stripInvisible(value).text.replace(/\s+/g, ' ').trim();
}

/**
 * Claude Code's hook input, as `specialist-handoff hook` needs it (zod). Required:
 * `session_id` (matching {@link HOOK_SESSION_ID_PATTERN}), `transcript_path` and `cwd`
 * (paths; `cwd` absolute), `hook_event_name` (any event; documented for `SessionEnd` and
 * `PreCompact`). Optional: `reason` (SessionEnd), `trigger` and `custom_instructions`
 * (PreCompact). The event name, reason and trigger come out as one line of visible text
 * ({@link hookLabel}). Unknown fields pass through unchecked.
 */
export const ClaudeHookInputSchema = z
  .object({
    session_id: field(200).regex(HOOK_SESSION_ID_PATTERN, 'must be 1–200 characters of letters, digits, ".", "_", ":" or "-"'),
    transcript_path: field(4096),
    cwd: field(4096).refine((p) => path.isAbsolute(p), 'must be an absolute path'),
    hook_event_name: field(100).transform(hookLabel).pipe(z.string().min(1, 'is empty')),
    reason: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').transform(hookLabel).optional(),
    trigger: z.string({ error: 'must be a string' }).max(100, 'must be at most 100 characters').transform(hookLabel).optional(),
    custom_instructions: z.string({ error: 'must be a string' }).optional(),
  })
  .loose();

/** Claude Code's hook input after validation. */
export type ClaudeHookInput = z.infer<typeof ClaudeHookInputSchema>;

const FIX = 'run this from a Claude Code hook (SessionEnd or PreCompact), which pipes its JSON input in';

/**
 * Parses the text Claude Code wrote on standard input.
 * @returns the validated input, or an `ERROR: …` line naming the problem (empty input,
 *   not JSON, not an object, a missing or malformed field) and the fix
 */
export function parseClaudeHookInput(text: string): { ok: true; input: ClaudeHookInput } | { ok: false; message: string } {
  if (!text.trim()) {
    return { ok: false, message: `ERROR: no hook input on standard input — ${FIX}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // The parser quotes the input, line breaks and all: one line, so the message stays one line.
    const why = clipText(String((err as Error)?.message ?? err).replace(/\s+/g, ' '), 200);
    return { ok: false, message: `ERROR: the hook input on standard input is not JSON (${why}) — ${FIX}` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, message: `ERROR: the hook input must be a JSON object with session_id, transcript_path, cwd and hook_event_name — ${FIX}` };
  }
  const r = ClaudeHookInputSchema.safeParse(json);
  if (r.success) {
    return { ok: true, input: r.data };
  }
  const issue = r.error.issues[0];
  const message = issue?.message ?? 'is invalid';
  const where = issue?.path.map(String).join('.') || 'object';
  const what = message === MISSING ? `the hook input has no ${where}` : `the hook input's ${where} ${message}`;
  return { ok: false, message: `ERROR: ${what} — Claude Code sends session_id, transcript_path, cwd and hook_event_name; ${FIX}` };
}

/** What the event was, in words: `SessionEnd (reason: clear)`, `PreCompact (trigger: auto)`, or the bare event name. */
export function describeHookEvent(input: Pick<ClaudeHookInput, 'hook_event_name' | 'reason' | 'trigger'>): string {
  const detail = input.reason?.trim() ? `reason: ${input.reason.trim()}` : input.trigger?.trim() ? `trigger: ${input.trigger.trim()}` : '';
  return `${input.hook_event_name}${detail ? ` (${detail})` : ''}`;
}

/** First 8 characters of a session id, for topics and messages ("session 3f2a9c1b"). */
export function shortSessionId(sessionId: string): string {
  return sessionId.slice(0, 8);
}

/**
 * The topic of a safety-net handoff when none is given: the git branch (the work usually
 * lives on it, so each day's safety nets of a branch share one briefing), else
 * `session <short id>` (detached HEAD, no repository).
 */
export function defaultHookTopic(branch: string | null, sessionId: string): string {
  return branch?.trim() ? branch.trim() : `session ${shortSessionId(sessionId)}`;
}

/**
 * The summary of a safety-net handoff: who wrote it (the hook, not an agent), on which
 * event and why, and where its evidence comes from.
 */
export function hookSummary(input: Pick<ClaudeHookInput, 'hook_event_name' | 'reason' | 'trigger' | 'session_id'>, transcriptRead: boolean): string {
  const when =
    input.hook_event_name === 'SessionEnd'
      ? 'when the session ended'
      : input.hook_event_name === 'PreCompact'
        ? 'before the conversation was compacted'
        : 'when the hook ran';
  const source = transcriptRead ? 'git and the session transcript' : 'git only (the session transcript could not be read)';
  return [
    `Written automatically by the Claude Code ${describeHookEvent(input)} hook ${when} (session ${input.session_id}), as a safety net: no agent curated it.`,
    `The touched files, commits, tests run and recent turns below come from ${source}; read them to see where the session stopped before continuing.`,
  ].join(' ');
}

/** Why the work was handed over, for the briefing: `Claude Code SessionEnd hook (reason: clear)`. */
export function hookHandoverReason(input: Pick<ClaudeHookInput, 'hook_event_name' | 'reason' | 'trigger'>): string {
  return `Safety net written by the Claude Code ${describeHookEvent(input)} hook`;
}

/**
 * What a written safety net holds, for the hook's one line: `2 files, 0 test runs, 0 turns`,
 * then `transcript not found: git only` when the transcript was missing (or, with `refused`,
 * `transcript_path /dev/zero is a character device, not a transcript file: not read, git only`)
 * and the number of warnings when there were any.
 * @param refused what the transcript path is when it was refused (`/dev/zero is a character device`)
 */
export function safetyNetNotes(
  counts: { readonly files: number; readonly testRuns: number; readonly turns: number; readonly warnings: number },
  transcriptFound: boolean,
  refused?: string,
): string[] {
  const { files, testRuns, turns, warnings } = counts;
  return [
    `${formatCount(files)} file${files === 1 ? '' : 's'}`,
    `${formatCount(testRuns)} test run${testRuns === 1 ? '' : 's'}`,
    `${formatCount(turns)} turn${turns === 1 ? '' : 's'}`,
    ...(transcriptFound ? [] : [refused ? `transcript_path ${refused}, not a transcript file: not read, git only` : 'transcript not found: git only']),
    ...(warnings ? [`${warnings} warning${warnings === 1 ? '' : 's'}`] : []),
  ];
}
