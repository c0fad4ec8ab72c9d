// Claude Code's hook input and the safety-net handoff written from it. Pure: git, the transcript and stdin are read by the engine and the CLI.
import path from 'node:path';
import * as z from 'zod';
import { clipText } from '../handoff/text';
import { formatCount } from '../handoff/limits';
import { stripInvisible } from '../safety/invisible';

/** Session ids this project records (the CLI's session-state rule): 1–200 of `A–Z a–z 0–9 . _ : -`. */
export const HOOK_SESSION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

/** Events a safety net is written for; any other is skipped and said so. */
export const SAFETY_NET_EVENTS: readonly string[] = Object.freeze(['SessionEnd', 'PreCompact']);

export const DEFAULT_HOOK_SPECIALIST = 'implementation_engineer';

const MISSING = 'is missing';

/** A required text field; messages name no field (the parser puts "the hook input's <field>" before them). */
const field = (max: number) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? MISSING : 'must be a string') })
    .trim()
    .min(1, 'is empty')
    .max(max, `must be at most ${formatCount(max)} characters`);

/** Labels land in one-line text (reason, summary, stderr): cleaned rather than refused, so an odd value never costs the safety net. */
function hookLabel(value: string): string {
  return stripInvisible(value).text.replace(/\s+/g, ' ').trim();
}

/** `SessionEnd` adds `reason`, `PreCompact` adds `trigger` and `custom_instructions`; unknown fields pass, so a newer Claude Code does not break the hook. */
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

export type ClaudeHookInput = z.infer<typeof ClaudeHookInputSchema>;

const FIX = 'run this from a Claude Code hook (SessionEnd or PreCompact), which pipes its JSON input in';

/** @returns the input, or an `ERROR: …` line naming the problem and the fix. */
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

export function shortSessionId(sessionId: string): string {
  return sessionId.slice(0, 8);
}

/** The branch, so a branch's safety nets share one briefing; else `session <short id>`. */
export function defaultHookTopic(branch: string | null, sessionId: string): string {
  return branch?.trim() ? branch.trim() : `session ${shortSessionId(sessionId)}`;
}

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

export function hookHandoverReason(input: Pick<ClaudeHookInput, 'hook_event_name' | 'reason' | 'trigger'>): string {
  return `Safety net written by the Claude Code ${describeHookEvent(input)} hook`;
}

/** The hook's one-line tally: `2 files, 0 test runs, 0 turns`, then the transcript note and any warnings; `refused` says what the refused transcript path is. */
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
