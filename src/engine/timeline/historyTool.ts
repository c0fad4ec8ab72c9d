/** The agent tool `request_full_history`. Read-only. */
import * as z from 'zod';
import { toolInputErrorText } from '../../core/handoff/issues';
import { formatCount } from '../../core/handoff/limits';
import { plural } from '../../core/handoff/text';
import { HANDOVER_TOOL_NAME, resolveProjectRoot, type ToolContext } from '../agents/agentTool';
import { DEFAULT_HISTORY_MAX_TOKENS, MIN_HISTORY_MAX_TOKENS, fullHistory, type FullHistoryOk } from './history';

export const HISTORY_TOOL_NAME = 'request_full_history';

/** Offered as language model tools; VS Code's MCP server definition omits them (`--omit-tool`) so the chat lists each once. */
export const LANGUAGE_MODEL_TOOL_NAMES: readonly string[] = Object.freeze([HANDOVER_TOOL_NAME, HISTORY_TOOL_NAME]);

export const HISTORY_TOOL_DESCRIPTION =
  "Returns the session behind a handoff when the handoff itself is not enough: the turns, commands and their results of the transcripts it was written from, from the session's base (the previous handoff) to the handoff, secrets redacted, " +
  `at most ${formatCount(DEFAULT_HISTORY_MAX_TOKENS)} tokens — tool output is dropped first (oldest first), then the middle is elided with a marker naming the turns and commands left out; the first and the latest turns are kept whole. ` +
  'Default: the newest handoff. Returns the history as Markdown (the structured result adds its tokens, what was elided and the transcripts read) or an "ERROR: …" text.';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const HistoryToolInputSchema = z
  .object({
    handoff: z
      .string({ error: 'handoff must be text: a handoff id, its file name or "latest"' })
      .trim()
      .min(1, 'handoff must not be empty')
      .max(300, 'handoff must be at most 300 characters')
      .refine((v) => !CONTROL_CHARS.test(v), 'handoff must be one line without control characters (a handoff id, its file name or "latest")')
      .optional()
      .describe('The handoff whose session to return: its id, its file name or "latest" (default: the newest handoff).'),
    max_tokens: z
      .number({ error: 'max_tokens must be a number' })
      .int('max_tokens must be a whole number')
      .min(MIN_HISTORY_MAX_TOKENS, `max_tokens must be at least ${formatCount(MIN_HISTORY_MAX_TOKENS)}`)
      .max(DEFAULT_HISTORY_MAX_TOKENS, `max_tokens must be at most ${formatCount(DEFAULT_HISTORY_MAX_TOKENS)}`)
      .optional()
      .describe(`Token cap of the history (default and at most ${formatCount(DEFAULT_HISTORY_MAX_TOKENS)}).`),
    project_root: z
      .string({ error: 'project_root must be a string' })
      .max(4096, 'project_root must be at most 4,096 characters')
      .refine((v) => !CONTROL_CHARS.test(v), 'project_root must be one line without control characters (such as an absolute folder path)')
      .optional()
      .describe('Absolute path of the project folder (default: the folder the server or the workspace serves).'),
  })
  .strict();

export type HistoryToolInput = z.infer<typeof HistoryToolInputSchema>;

/** As a client sends it (`io: input`), without `$schema`. */
export function historyToolJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(HistoryToolInputSchema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** The history, then a line of figures and the `WARNING:` lines. */
export function historyToolText(r: FullHistoryOk): string {
  const e = r.elided;
  const left = [
    e.outputs ? `output of ${plural(e.outputs, 'command')} dropped` : '',
    e.turns || e.commands ? `${plural(e.turns, 'turn')} and ${plural(e.commands, 'command')} elided` : '',
    e.cut_turns ? `${plural(e.cut_turns, 'turn')} cut` : '',
  ].filter(Boolean);
  const figures = `(${formatCount(r.tokens)} of at most ${formatCount(r.max_tokens)} tokens; ${plural(r.total.turns, 'turn')}, ${plural(r.total.commands, 'command')}${left.length ? `; ${left.join(', ')}` : ''})`;
  return [r.text.trimEnd(), '', figures, ...r.warnings].join('\n');
}

/** Absent input is `{}`. */
export function parseHistoryInput(input: unknown): { ok: true; data: HistoryToolInput } | { ok: false; text: string } {
  const value = input ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, text: "ERROR: the input must be an object of the tool's fields (handoff, max_tokens, project_root), or empty" };
  }
  const r = HistoryToolInputSchema.safeParse(value);
  return r.success ? { ok: true, data: r.data } : { ok: false, text: toolInputErrorText(r.error, value, Object.keys(HistoryToolInputSchema.shape)) };
}

/** `project_root` must be an allowed root, as for the handover tool. Never throws. */
export async function runHistoryTool(
  input: unknown,
  ctx: Pick<ToolContext, 'defaultRoot' | 'allowedRoots' | 'environment'>,
): Promise<{ ok: true; result: FullHistoryOk; text: string } | { ok: false; text: string }> {
  const parsed = parseHistoryInput(input);
  if (!parsed.ok) return parsed;
  const root = await resolveProjectRoot(parsed.data.project_root, ctx);
  if (!root.ok) return { ok: false, text: root.text };
  const env = await ctx.environment(root.root);
  const outcome = await fullHistory({ handoff: parsed.data.handoff, maxTokens: parsed.data.max_tokens }, env);
  if (outcome.status === 'error') return { ok: false, text: outcome.message };
  return { ok: true, result: outcome, text: historyToolText(outcome) };
}
