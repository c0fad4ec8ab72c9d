/**
 * The MCP server's tools, in `tools/list` order, with zod input schemas (advertised as JSON
 * Schema) validated in our own `ERROR: …` wording rather than the SDK's "MCP error -32602".
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { RecordResultRequestSchema } from '../core/receive/handBack';
import { toolInputErrorText } from '../core/handoff/issues';
import { MAX_ITEM_CHARS, MAX_LIST_ITEMS, formatCount } from '../core/handoff/limits';
import { HANDOVER_TOOL_DESCRIPTION, HANDOVER_TOOL_NAME, handoverToolJsonSchema } from '../engine/agents/agentTool';
import { HISTORY_TOOL_DESCRIPTION, HISTORY_TOOL_NAME, historyToolJsonSchema } from '../engine/timeline/historyTool';

export const LIST_SPECIALISTS_TOOL_NAME = 'list_specialists';
export const PRIOR_HANDOFFS_TOOL_NAME = 'prior_handoffs';
export const RECORD_RESULT_TOOL_NAME = 'record_result';

/** In `tools/list` order. */
export const MCP_TOOL_NAMES: readonly string[] = Object.freeze([
  HANDOVER_TOOL_NAME,
  LIST_SPECIALISTS_TOOL_NAME,
  PRIOR_HANDOFFS_TOOL_NAME,
  RECORD_RESULT_TOOL_NAME,
  HISTORY_TOOL_NAME,
]);

/** Timeline entries `prior_handoffs` lists by default, newest first. */
export const DEFAULT_PRIOR_ENTRIES = 50;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const projectRoot = z
  .string({ error: 'project_root must be a string' })
  .max(4096, 'project_root must be at most 4,096 characters')
  // One line: the value is echoed in ERROR texts.
  .refine((v) => !CONTROL_CHARS.test(v), 'project_root must be one line without control characters (such as an absolute folder path)')
  .optional()
  .describe('Absolute path of the project folder: the folder the server was started in (--cwd), which is also the default.');

export const ListSpecialistsInputSchema = z.object({ project_root: projectRoot }).strict();

/** `max_entries` bounds only the structured entries; the text block always has its own budget. */
export const PriorHandoffsInputSchema = z
  .object({
    project_root: projectRoot,
    max_entries: z
      .number({ error: 'max_entries must be a number' })
      .int('max_entries must be a whole number')
      .min(0, 'max_entries must be 0 or more')
      .max(1000, 'max_entries must be at most 1,000')
      .optional()
      .describe(`How many timeline entries to list, newest first, with their chain links (default ${DEFAULT_PRIOR_ENTRIES}; 0 for the text block only).`),
  })
  .strict();

/**
 * The engine's hand-back request plus `project_root`, without `tests_run`: over MCP the tests
 * come from the session log, never from the model (docs/DESIGN.md §6).
 */
export const RecordResultInputSchema = RecordResultRequestSchema.omit({ tests_run: true })
  .extend({
    specialist: RecordResultRequestSchema.shape.specialist.describe('Your specialist id: the one the handoff was addressed to (e.g. quality_reviewer).'),
    // One-line references: each is echoed in "handoff … not found".
    handoffs: z
      .array(
        z
          .string({ error: 'must be text: a handoff id, file name or "latest"' })
          .trim()
          .min(1, 'must not be empty')
          .max(300, 'must be at most 300 characters')
          .refine((v) => !CONTROL_CHARS.test(v), 'must be one line without control characters (a handoff id, file name or "latest")'),
        { error: 'handoffs must be a list of handoff ids, file names or "latest"' },
      )
      .max(50, 'handoffs must have at most 50 items')
      .optional()
      .describe('The handoffs you answer: ids, file names or "latest". Default: every open handoff addressed to you.'),
    summary: RecordResultRequestSchema.shape.summary.describe('What you did and what is true now.'),
    // [1, 2] means the same as ["1", "2"].
    criteria_met: z
      .union(
        [
          z.literal('all'),
          z
            .array(z.union([z.string().trim().min(1).max(MAX_ITEM_CHARS), z.number().int().min(1).transform(String)]), {
              error: 'criteria_met must be "all" or a list of criteria: their texts or their 1-based numbers',
            })
            .max(MAX_LIST_ITEMS, `criteria_met must have at most ${formatCount(MAX_LIST_ITEMS)} items`),
        ],
        { error: 'criteria_met must be "all" or a list of criteria: their texts or their 1-based numbers' },
      )
      .optional()
      .describe(
        'The acceptance criteria you met (the handoff\'s next steps, then its return condition): their texts, their 1-based numbers, or "all". The result is complete only when all are met and no recorded test failed after the last passing run.',
      ),
    next_steps: RecordResultRequestSchema.shape.next_steps.describe('What is left to do, in order.'),
    blockers: RecordResultRequestSchema.shape.blockers.describe('What blocks the work; any blocker makes the result "blocked".'),
    proceed_if_taken: RecordResultRequestSchema.shape.proceed_if_taken.describe(
      'Record even though another session took the handoff up and never answered it (ask the user first).',
    ),
    max_context_tokens: RecordResultRequestSchema.shape.max_context_tokens.describe('Token budget of the result entry (default 3000).'),
    tokenizer: RecordResultRequestSchema.shape.tokenizer.describe('o200k_base (default) or cl100k_base.'),
    project_root: projectRoot,
  })
  .strict();

/** zod's JSON Schema of the input side (what the client sends), without `$schema`. */
function inputJsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

export function mcpToolDefinitions(): Tool[] {
  return [
    {
      name: HANDOVER_TOOL_NAME,
      title: 'Hand over to a specialist',
      description: `${HANDOVER_TOOL_DESCRIPTION} Call list_specialists for the ids and prior_handoffs to see what earlier specialists did.`,
      inputSchema: handoverToolJsonSchema() as Tool['inputSchema'],
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    {
      name: LIST_SPECIALISTS_TOOL_NAME,
      title: 'List specialists',
      description:
        "Lists the specialists work can be handed over to: built-ins first, then the project's custom ones (.handoff/specialists/), then the agents found in .github/agents/, .github/chatmodes/ and .claude/agents/. Each has its id (pass it as specialist_profile), label, persona marker, mandate (what it does and does not do), default return condition and source.",
      inputSchema: inputJsonSchema(ListSpecialistsInputSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: PRIOR_HANDOFFS_TOOL_NAME,
      title: 'Prior handoffs',
      description:
        "Returns the project's prior handoffs as one Markdown block headed \"## Prior Agent Handoffs\": every handoff and result file of the timeline (this project's, itervox's and Agent Zero's), oldest first, at most 30 KB — older ones are dropped first with a marker saying how many. Read it before starting work so nothing is explored twice. The structured result also lists the newest entries with their chain links (id, parent_id, root_id, status, hop).",
      inputSchema: inputJsonSchema(PriorHandoffsInputSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: RECORD_RESULT_TOOL_NAME,
      title: 'Record result (hand back)',
      description:
        'Hands back as the receiving specialist: writes your result entry for each handoff you answer (default: every open handoff addressed to you) and sets its status by policy — complete only when every acceptance criterion is met and no recorded test failed after the last passing run, blocked when you name blockers, else in progress. Tests come from the session log. With no open handoff it writes a session note only.',
      inputSchema: inputJsonSchema(RecordResultInputSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    {
      name: HISTORY_TOOL_NAME,
      title: 'Request the full history',
      description: HISTORY_TOOL_DESCRIPTION,
      inputSchema: historyToolJsonSchema() as Tool['inputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

/** The `ERROR:` for `arguments` that is not an object, naming what came; undefined for an object or absent. */
export function argumentsNotAnObject(args: unknown): string | undefined {
  if (args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args))) return undefined;
  const got = args === null ? 'null' : Array.isArray(args) ? 'a list' : typeof args === 'string' ? 'a string' : `a ${typeof args}`;
  return `ERROR: arguments must be an object of the tool's fields (got ${got}) — send them as {"field": value, …}, as the tool's input schema lists them`;
}

/** Validates a tool's arguments (absent means `{}`); a failure is one `ERROR:` line. */
export function parseToolArgs<T extends z.ZodObject>(schema: T, args: unknown): { ok: true; data: z.infer<T> } | { ok: false; text: string } {
  const notObject = argumentsNotAnObject(args);
  if (notObject) return { ok: false, text: notObject };
  const input = args ?? {};
  const r = schema.safeParse(input);
  return r.success ? { ok: true, data: r.data } : { ok: false, text: toolInputErrorText(r.error, input, Object.keys(schema.shape)) };
}
