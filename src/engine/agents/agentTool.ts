/**
 * `handover_to_specialist`, the tool agents call. Its input follows Agent Zero's signature plus our own optional
 * fields; the evidence is collected by the engine, never taken from the model, and fields left empty are drafted.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { toolInputErrorText } from '../../core/handoff/issues';
import { fsCause, linkLoopProblem, loopingLink } from '../../core/handoff/fsErrors';
import { BUDGET_PRESETS, formatCount } from '../../core/handoff/limits';
import { BudgetPresetSchema, MAX_ITEM_CHARS, MAX_LIST_ITEMS, parseTurn } from '../../core/handoff/request';
import { ReasonKindSchema, type HandoverOk } from '../../core/handoff/schema';
import { handover, latestHandoff, type JobContext } from '../handover/handover';

export const HANDOVER_TOOL_NAME = 'handover_to_specialist';

export const HANDOVER_TOOL_DESCRIPTION =
  'Hand the current work over to a specialist (architect, implementer, reviewer, test/debug, security …): writes a token-bounded handoff file and appends a briefing ' +
  'in the workspace, with the touched files and test runs taken from git and the session log. Pass a curated summary, the decisions, and when the specialist should hand back; ' +
  "what you leave out (summary, next steps, done items, blockers) is drafted from the session log: your todo list, the user's own requests (carried verbatim) and the commands run. " +
  'Returns the result object (persona_marker, package, briefing, handoff_file, next_step) or an "ERROR: …" text.';

const text = (max: number, what: string) => z.string({ error: `${what} must be a string` }).max(max, `${what} must be at most ${formatCount(max)} characters`);
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** One line: the value is echoed in `ERROR:` texts, where a line break could forge a second line for the agent. */
const oneLineRef = (max: number, what: string, example: string) =>
  text(max, what).refine((v) => !CONTROL_CHARS.test(v), `${what} must be one line without control characters (such as ${example})`);
// The request's limits, so the tool refuses what the engine would.
const list = (what: string) =>
  z
    .array(z.string({ error: 'must be a string' }).max(MAX_ITEM_CHARS, `items must be at most ${formatCount(MAX_ITEM_CHARS)} characters`), {
      error: `${what} must be a list of strings`,
    })
    .max(MAX_LIST_ITEMS, `${what} must have at most ${formatCount(MAX_LIST_ITEMS)} items`);

/** `parent` defaults to `latest` while that handoff is open, so an agent's next handoff is a hop of its chain and the loop guard sees it. */
export const HandoverToolInputSchema = z
  .object({
    specialist_profile: z
      .string({ error: 'specialist_profile is required' })
      .trim()
      .min(1, 'specialist_profile is required')
      .max(200, 'specialist_profile must be at most 200 characters')
      .describe(
        'Who takes over: a specialist id such as quality_reviewer, solution_architect, implementation_engineer, test_debug_engineer, security_data_engineer (list_specialists names them all).',
      ),
    topic: z
      .string({ error: 'topic is required' })
      .trim()
      .min(1, 'topic is required')
      .max(200, 'topic must be at most 200 characters')
      .describe('A short topic; its slug names the briefing file.'),
    summary: text(200_000, 'summary').optional().describe('Your curated summary of the work so far (what was done, what is true now).'),
    recent_turns: list('recent_turns')
      .optional()
      .describe(
        'The last turns verbatim, oldest first, each as "ROLE: text" (user, assistant, system or tool; without a role: the assistant\'s); the newest include_recent_turns are kept.',
      ),
    decisions: list('decisions').optional().describe('Decisions made so far, one per item.'),
    artifacts: list('artifacts').optional().describe('Paths or references the specialist should look at.'),
    next_steps: list('next_steps').optional().describe('What the specialist should do next, in order.'),
    blockers: list('blockers').optional().describe('What blocks progress.'),
    failed_approaches: list('failed_approaches').optional().describe('Approaches tried that did not work, so they are not tried again.'),
    completed: list('completed')
      .optional()
      .describe('What is done, one item each (default: the completed items of your todo list or plan in the session log).'),
    return_condition: text(2000, 'return_condition')
      .optional()
      .describe("When the specialist should hand back (default: the specialist's own return condition)."),
    handover_reason: text(4000, 'handover_reason').optional().describe('Why you hand over now; logged in the briefing.'),
    reason_kind: z.optional(ReasonKindSchema).describe('capability_boundary, specialization, escalation, load_balancing or end_of_session.'),
    project_root: oneLineRef(4096, 'project_root', 'an absolute folder path')
      .optional()
      .describe('Absolute path of the project (a workspace folder); default: the workspace folder.'),
    // The bound first (as in HandoverRequestSchema): 1e300 is "too large", not "not a whole number".
    max_context_tokens: z
      .number({ error: 'max_context_tokens must be a number' })
      .max(10_000_000, 'max_context_tokens must be at most 10,000,000')
      .int('max_context_tokens must be a whole number')
      .positive('max_context_tokens must be positive')
      .optional()
      .describe('Token budget of the handoff (default 3000); over it, the handoff is fitted and a WARNING line says so.'),
    budget: BudgetPresetSchema.optional().describe(
      `A budget preset instead of max_context_tokens (not both): small (${formatCount(BUDGET_PRESETS.small)} tokens: every kind of fact, each short), default (${formatCount(BUDGET_PRESETS.default)}) or large (${formatCount(BUDGET_PRESETS.large)}: most of a long session whole).`,
    ),
    include_recent_turns: z
      .number({ error: 'include_recent_turns must be a number' })
      .max(1000, 'include_recent_turns must be at most 1,000')
      .int('include_recent_turns must be a whole number')
      .min(0, 'include_recent_turns must be 0 or more')
      .optional()
      .describe('How many recent turns to keep (default 5).'),
    parent: oneLineRef(300, 'parent', 'a handoff id, "latest" or "none"')
      .optional()
      .describe('The handoff this one continues: its id, "latest" or "none". Default: the latest handoff while it is still open.'),
  })
  .strict();

export type HandoverToolInput = z.infer<typeof HandoverToolInputSchema>;

/** Draft 2020-12, for `contributes.languageModelTools` and MCP. */
export function handoverToolJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(HandoverToolInputSchema, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export interface ToolContext {
  /** Undefined when no workspace folder is open. */
  readonly defaultRoot: string | undefined;
  /** Undefined allows any existing absolute folder: only for callers whose every input is trusted, never agent-facing ones. */
  readonly allowedRoots?: readonly string[];
  readonly from?: string;
  readonly tokenizerFor?: (root: string) => string | undefined;
  /** `caller` is set to `agent` by the tool. */
  readonly environment: (root: string) => JobContext | Promise<JobContext>;
}

export type ToolOutcome = { readonly ok: true; readonly result: HandoverOk; readonly text: string } | { readonly ok: false; readonly text: string };

/** The result object as JSON, then each warning on its own `WARNING:` line. */
export function toolResultText(result: HandoverOk): string {
  const warnings = result.warnings.filter((w) => w.startsWith('WARNING:'));
  return `${JSON.stringify(result, null, 2)}${warnings.length ? `\n${warnings.join('\n')}` : ''}`;
}

function fail(message: string): ToolOutcome {
  return { ok: false, text: message.startsWith('ERROR:') ? message : `ERROR: ${message}` };
}

export function parseToolInput(input: unknown): { ok: true; input: HandoverToolInput } | { ok: false; text: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, text: 'ERROR: the input must be an object with at least specialist_profile and topic' };
  }
  const r = HandoverToolInputSchema.safeParse(input);
  return r.success ? { ok: true, input: r.data } : { ok: false, text: toolInputErrorText(r.error, input, Object.keys(HandoverToolInputSchema.shape)) };
}

/** Links are resolved before comparing with `allowedRoots`, so a link cannot smuggle a write into another folder. */
export async function resolveProjectRoot(
  given: string | undefined,
  ctx: Pick<ToolContext, 'defaultRoot' | 'allowedRoots'>,
): Promise<{ ok: true; root: string } | { ok: false; text: string }> {
  if (given === undefined || given.trim() === '') {
    if (!ctx.defaultRoot)
      return { ok: false, text: 'ERROR: project_root is required: no workspace folder is open — open the project folder, or pass its absolute path' };
    return { ok: true, root: ctx.defaultRoot };
  }
  if (!path.isAbsolute(given)) {
    return { ok: false, text: `ERROR: project_root must be absolute (got "${given}") — pass the full path of the project folder` };
  }
  let real: string;
  try {
    real = await realpath(given);
    if (!(await stat(real)).isDirectory()) return { ok: false, text: `ERROR: project_root ${given} is not a folder` };
  } catch (err) {
    const cause = fsCause(err);
    if (cause.kind === 'missing') return { ok: false, text: `ERROR: project_root ${given} does not exist` };
    if (cause.kind === 'link-loop')
      return {
        ok: false,
        text: `ERROR: project_root ${linkLoopProblem(given, await loopingLink(given, realpath))} — remove the link, or pass the project folder's real path`,
      };
    return { ok: false, text: `ERROR: project_root ${given} cannot be opened: ${cause.words} — pass a project folder you can open` };
  }
  if (ctx.allowedRoots) {
    for (const allowed of ctx.allowedRoots) {
      const r = await realpath(allowed).catch(() => allowed);
      if (r === real) return { ok: true, root: allowed };
    }
    return {
      ok: false,
      text: `ERROR: project_root ${given} is not a folder of this workspace (${ctx.allowedRoots.join(', ') || 'none open'}) — pass one of them, or leave it out`,
    };
  }
  return { ok: true, root: real };
}

/** Hands over as an agent, so the loop and progress guards decide instead of asking. Never throws. */
export async function runHandoverTool(input: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  try {
    const parsed = parseToolInput(input);
    if (!parsed.ok) return parsed;
    const a = parsed.input;
    const root = await resolveProjectRoot(a.project_root, ctx);
    if (!root.ok) return root;
    const env = { ...(await ctx.environment(root.root)), caller: 'agent' as const };
    const request = {
      specialist: a.specialist_profile,
      topic: a.topic,
      summary: a.summary ?? '',
      recent_turns: (a.recent_turns ?? []).map(parseTurn),
      decisions: a.decisions ?? [],
      artifacts: a.artifacts ?? [],
      next_steps: a.next_steps ?? [],
      blockers: a.blockers ?? [],
      failed_approaches: a.failed_approaches ?? [],
      completed: a.completed ?? [],
      // What the agent left out or empty is drafted from the session log and git.
      draft: true,
      ...(a.return_condition ? { return_condition: a.return_condition } : {}),
      handover_reason: a.handover_reason ?? '',
      ...(a.reason_kind ? { reason_kind: a.reason_kind } : {}),
      ...(a.max_context_tokens !== undefined ? { max_context_tokens: a.max_context_tokens } : {}),
      // The request turns the preset into tokens, and refuses it beside max_context_tokens.
      ...(a.budget !== undefined ? { budget: a.budget } : {}),
      ...(a.include_recent_turns !== undefined ? { include_recent_turns: a.include_recent_turns } : {}),
      ...(await parentFor(a.parent, env)),
      ...(ctx.tokenizerFor?.(root.root) ? { tokenizer: ctx.tokenizerFor(root.root) } : {}),
      from: ctx.from ?? 'agent',
    };
    const result = await handover(request, env);
    if (result.status !== 'ok') return fail(result.message);
    return { ok: true, result, text: toolResultText(result) };
  } catch (err) {
    return fail(`internal error in ${HANDOVER_TOOL_NAME}: ${(err as Error)?.message ?? String(err)}`);
  }
}

const OPEN_STATUSES = new Set(['pending', 'accepted', 'in_progress']);

async function parentFor(given: string | undefined, env: JobContext): Promise<{ parent?: string }> {
  if (given === 'none') return {};
  if (given !== undefined) return { parent: given };
  const latest = await latestHandoff(env);
  // By file name, not frontmatter id: an edited id could otherwise continue (and count the hops of) another chain.
  return latest && latest.kind === 'handoff' && OPEN_STATUSES.has(latest.status) ? { parent: latest.file_ref } : {};
}
