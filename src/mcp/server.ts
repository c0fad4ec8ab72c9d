/**
 * The MCP server of `specialist-handoff mcp`: the handoff engine offered to MCP clients
 * (Claude Code, Codex CLI, Cline/Roo, VS Code …) over stdio, with the official MCP
 * TypeScript SDK (`@modelcontextprotocol/sdk`).
 *
 * Tools:
 * - `handover_to_specialist`: {@link runHandoverTool} (Agent Zero's signature; the
 *   evidence comes from git and the session log, never from the model);
 * - `list_specialists`: the registry (built-ins, then the workspace's custom ones);
 * - `prior_handoffs`: the `## Prior Agent Handoffs` block (30 KB) and the newest
 *   timeline entries with their chain links;
 * - `record_result`: the receiving specialist hands back ({@link recordResult}).
 *
 * The low-level SDK `Server` is used (not `McpServer.registerTool`) so that every input
 * is validated by our own zod schemas with our own `ERROR: …` wording (the SDK's
 * validation answers "MCP error -32602: Input validation error …"), and the advertised
 * input schemas are exactly `z.toJSONSchema` of those schemas. Every tool outcome is a
 * result: failures are `isError: true` with a text starting `ERROR:`; nothing throws to
 * the client. Never imports vscode.
 */
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RecordResultRequestSchema } from '../core/receive/handBack';
import { MAX_ITEM_CHARS, MAX_LIST_ITEMS } from '../core/handoff/limits';
import { describeSanitizing, redactSecrets, stripInvisible } from '../core/safety/redact';
import type { HandoverOk } from '../core/handoff/schema';
import { describeSpecialist } from '../core/specialists/registry';
import { PRIOR_HANDOFFS_BUDGET_BYTES } from '../core/timeline/chains';
import { type HandoverEnvironment } from '../engine/handover';
import { loadRegistry } from '../engine/project';
import { priorHandoffsFor } from '../engine/prompt';
import { recordResult } from '../engine/recordResult';
import { HANDOVER_TOOL_DESCRIPTION, HANDOVER_TOOL_NAME, handoverToolJsonSchema, resolveProjectRoot, runHandoverTool, type ToolContext } from '../engine/agentTool';
import { resolveHandoffRoot } from '../store/pathGuard';
import { listTimelineFiles, readChainInfo } from '../store/handoffs/timelineFiles';

/** The server's name in the MCP `initialize` handshake (and the key of the config snippets). */
export const MCP_SERVER_NAME = 'specialist-handoff';

/** Name of the tool listing the specialists. */
export const LIST_SPECIALISTS_TOOL_NAME = 'list_specialists';
/** Name of the tool returning the prior handoffs block. */
export const PRIOR_HANDOFFS_TOOL_NAME = 'prior_handoffs';
/** Name of the hand-back tool. */
export const RECORD_RESULT_TOOL_NAME = 'record_result';

/** Every tool the server offers, in the order `tools/list` returns them. */
export const MCP_TOOL_NAMES: readonly string[] = Object.freeze([HANDOVER_TOOL_NAME, LIST_SPECIALISTS_TOOL_NAME, PRIOR_HANDOFFS_TOOL_NAME, RECORD_RESULT_TOOL_NAME]);

/** Timeline entries `prior_handoffs` lists by default (newest first). */
export const DEFAULT_PRIOR_ENTRIES = 50;

/** Where the server runs: the tool context (default root, engine environment) plus its version and optional hooks. */
export interface McpServerContext extends ToolContext {
  /** The server's version for the `initialize` handshake (the package version). */
  readonly version: string;
  /** Called after a successful `handover_to_specialist` (the CLI starts a new session there). Errors are ignored. */
  readonly onHandover?: (root: string, result: HandoverOk) => void | Promise<void>;
  /** A diagnostic line per tool call (the CLI writes it to stderr; stdout is the protocol). */
  readonly log?: (line: string) => void;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const projectRoot = z
  .string({ error: 'project_root must be a string' })
  .max(4096, 'project_root must be at most 4,096 characters')
  // One line, as for handover_to_specialist: the value is echoed in ERROR texts.
  .refine((v) => !CONTROL_CHARS.test(v), 'project_root must be one line without control characters (such as an absolute folder path)')
  .optional()
  .describe('Absolute path of the project folder: the folder the server was started in (--cwd), which is also the default.');

/** Input of `list_specialists`: an optional absolute `project_root`. Unknown fields are refused. */
export const ListSpecialistsInputSchema = z.object({ project_root: projectRoot }).strict();

/**
 * Input of `prior_handoffs`: an optional absolute `project_root`, and `max_entries`, how
 * many timeline entries (newest first) to list with their chain links — 0 to 1,000,
 * default {@link DEFAULT_PRIOR_ENTRIES}. The text block itself always has the 30 KB budget.
 */
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
 * Input of `record_result`: the hand-back request of the engine
 * (`RecordResultRequestSchema`, src/core/receive/handBack.ts) plus `project_root`, without
 * `tests_run` — over MCP the tests come from the session log only, never from the model
 * (DESIGN §6: evidence is collected, not typed). Unknown fields are refused.
 */
export const RecordResultInputSchema = RecordResultRequestSchema.omit({ tests_run: true })
  .extend({
    specialist: RecordResultRequestSchema.shape.specialist.describe('Your specialist id: the one the handoff was addressed to (e.g. quality_reviewer).'),
    // The engine's shapes with messages an agent can act on, and one-line references
    // (each is echoed in "handoff … not found").
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
    // Numbers may come as JSON numbers too (the description says "their 1-based numbers"):
    // [1, 2] means the same as ["1", "2"].
    criteria_met: z
      .union(
        [
          z.literal('all'),
          z
            .array(
              z.union([z.string().trim().min(1).max(MAX_ITEM_CHARS), z.number().int().min(1).transform(String)]),
              { error: 'criteria_met must be "all" or a list of criteria: their texts or their 1-based numbers' },
            )
            .max(MAX_LIST_ITEMS, `criteria_met must have at most ${MAX_LIST_ITEMS.toLocaleString('en')} items`),
        ],
        { error: 'criteria_met must be "all" or a list of criteria: their texts or their 1-based numbers' },
      )
      .optional()
      .describe(
      'The acceptance criteria you met (the handoff\'s next steps, then its return condition): their texts, their 1-based numbers, or "all". The result is complete only when all are met and no recorded test failed after the last passing run.',
    ),
    next_steps: RecordResultRequestSchema.shape.next_steps.describe('What is left to do, in order.'),
    blockers: RecordResultRequestSchema.shape.blockers.describe('What blocks the work; any blocker makes the result "blocked".'),
    proceed_if_taken: RecordResultRequestSchema.shape.proceed_if_taken.describe('Record even though another session took the handoff up and never answered it (ask the user first).'),
    max_context_tokens: RecordResultRequestSchema.shape.max_context_tokens.describe('Token budget of the result entry (default 3000).'),
    tokenizer: RecordResultRequestSchema.shape.tokenizer.describe('o200k_base (default) or cl100k_base.'),
    project_root: projectRoot,
  })
  .strict();

/** A JSON Schema of a tool input for `tools/list` (zod's, as the client sends it: `io: input`; without `$schema`). */
function inputJsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

/**
 * The tool definitions of `tools/list`: name, title, description, input schema (JSON
 * Schema from our zod schemas) and MCP annotations (read-only or not; none destroys
 * anything; all stay in the project folder).
 */
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
        'Lists the specialists work can be handed over to: built-ins first, then the project\'s custom ones (.handoff/specialists/). Each has its id (pass it as specialist_profile), label, persona marker, mandate (what it does and does not do), default return condition and source.',
      inputSchema: inputJsonSchema(ListSpecialistsInputSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: PRIOR_HANDOFFS_TOOL_NAME,
      title: 'Prior handoffs',
      description:
        'Returns the project\'s prior handoffs as one Markdown block headed "## Prior Agent Handoffs": every handoff and result file of the timeline (this project\'s, itervox\'s and Agent Zero\'s), oldest first, at most 30 KB — older ones are dropped first with a marker saying how many. Read it before starting work so nothing is explored twice. The structured result also lists the newest entries with their chain links (id, parent_id, root_id, status, hop).',
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
  ];
}

/** A failed call: `isError` and one `ERROR: …` text. */
function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message.startsWith('ERROR:') ? message : `ERROR: ${message}` }], isError: true };
}

function okResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * Turns a zod failure of a tool input into one `ERROR:` line: unknown fields with the
 * fields the tool takes, else the first issue with its field path.
 */
export function inputErrorText(error: z.ZodError, allowed: readonly string[]): string {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return `ERROR: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} — the tool takes: ${allowed.join(', ')}`;
  }
  if (issue?.code === 'invalid_value' && 'values' in issue) {
    return `ERROR: ${issue.path.join('.')} must be one of: ${(issue.values as unknown[]).join(', ')}`;
  }
  const where = issue?.path.map(String).join('.') ?? '';
  const message = (issue && plainZodMessage(issue)) ?? issue?.message ?? 'is invalid';
  return `ERROR: ${where && !message.startsWith(where) ? `${where} ` : ''}${message}`;
}

/**
 * zod's own wording ("Invalid input: expected boolean, received string", "Too small:
 * expected number to be >0") in words an agent can act on; undefined for our own messages.
 * Shared schemas (record_result's) leave some fields to zod's defaults.
 */
function plainZodMessage(issue: z.core.$ZodIssue): string | undefined {
  if (!/^(Invalid input|Too big|Too small)/.test(issue.message)) return undefined;
  const words: Record<string, string> = { string: 'text', number: 'a number', boolean: 'true or false', array: 'a list', object: 'an object' };
  const items = (n: unknown) => `${Number(n).toLocaleString('en')} item${n === 1 ? '' : 's'}`;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${words[issue.expected] ?? issue.expected}`;
    case 'too_big':
      if (issue.origin === 'array') return `must have at most ${items(issue.maximum)}`;
      if (issue.origin === 'string') return `must be at most ${Number(issue.maximum).toLocaleString('en')} characters`;
      return `must be at most ${Number(issue.maximum).toLocaleString('en')}`;
    case 'too_small':
      if (issue.origin === 'array') return `must have at least ${items(issue.minimum)}`;
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${Number(issue.minimum).toLocaleString('en')} characters`;
      return issue.inclusive ? `must be at least ${Number(issue.minimum).toLocaleString('en')}` : `must be more than ${Number(issue.minimum).toLocaleString('en')}`;
    default:
      return 'is invalid — see the tool\'s input schema';
  }
}

/** Validates a tool's arguments (absent arguments are `{}`). */
function parseArgs<T extends z.ZodObject>(schema: T, args: unknown): { ok: true; data: z.infer<T> } | { ok: false; text: string } {
  const input = args ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, text: 'ERROR: the arguments must be an object' };
  }
  const r = schema.safeParse(input);
  return r.success ? { ok: true, data: r.data } : { ok: false, text: inputErrorText(r.error, Object.keys(schema.shape)) };
}

/** The environment for a resolved root, cancelled with the call. */
async function environmentFor(ctx: McpServerContext, root: string, signal?: AbortSignal): Promise<HandoverEnvironment> {
  const env = await ctx.environment(root);
  return signal ? { ...env, signal } : env;
}

/** The project a reading tool works on: its engine environment and handoff root, or the `ERROR:` result. */
async function projectOf(
  projectRoot: string | undefined,
  ctx: McpServerContext,
  signal?: AbortSignal,
): Promise<{ ok: true; env: HandoverEnvironment; handoffRoot: string } | { ok: false; result: CallToolResult }> {
  const root = await resolveProjectRoot(projectRoot, ctx);
  if (!root.ok) return { ok: false, result: errorResult(root.text) };
  const env = await environmentFor(ctx, root.root, signal);
  const handoffRoot = resolveHandoffRoot(env.workspaceRoot, env.handoffDirectory);
  if (!handoffRoot.ok) return { ok: false, result: errorResult(handoffRoot.message) };
  return { ok: true, env, handoffRoot: handoffRoot.path };
}

async function listSpecialists(args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = parseArgs(ListSpecialistsInputSchema, args);
  if (!parsed.ok) return errorResult(parsed.text);
  const project = await projectOf(parsed.data.project_root, ctx, signal);
  if (!project.ok) return project.result;
  const { registry, warnings } = await loadRegistry(project.handoffRoot, project.env.workspaceRoot);
  const structured = { specialists: registry.all().map(describeSpecialist), warnings: warnings.map((w) => `WARNING: ${w}`) };
  return okResult(JSON.stringify(structured, null, 2), structured);
}

async function priorHandoffs(args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = parseArgs(PriorHandoffsInputSchema, args);
  if (!parsed.ok) return errorResult(parsed.text);
  const project = await projectOf(parsed.data.project_root, ctx, signal);
  if (!project.ok) return project.result;
  const { env, handoffRoot } = project;
  const { registry, warnings: registryWarnings } = await loadRegistry(handoffRoot, env.workspaceRoot);
  const timeline = await listTimelineFiles(env.workspaceRoot, handoffRoot, registry.all().map((s) => s.id));
  const warnings = [...registryWarnings, ...timeline.warnings].map((w) => `WARNING: ${w}`);
  const prior = await priorHandoffsFor(timeline.files);
  // Nothing leaked (DESIGN §7), as in the prompt: the block carries files other agents wrote.
  const visible = stripInvisible(prior.text);
  const redacted = await redactSecrets(visible.text);
  for (const note of redacted.notes) warnings.push(`WARNING: ${note}`);
  const sanitizing = describeSanitizing(redacted.found, visible.removed);
  if (sanitizing) warnings.push(`WARNING: prior handoffs: ${sanitizing}`);

  const max = parsed.data.max_entries ?? DEFAULT_PRIOR_ENTRIES;
  const newest = [...timeline.files].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)).slice(0, max);
  const clean = (t: string | null | undefined) => (t === null || t === undefined ? null : stripInvisible(t).text);
  const entries = [];
  for (const f of newest) {
    const info = await readChainInfo(f);
    entries.push({
      name: f.name,
      source: f.source,
      path: path.relative(env.workspaceRoot, f.path).split(path.sep).join('/'),
      created: new Date(f.time).toISOString(),
      specialist: f.specialist,
      partial: f.partial,
      kind: info?.kind ?? null,
      id: info?.id ?? null,
      parent_id: info?.parent_id ?? null,
      root_id: info?.root_id ?? null,
      status: info?.status ?? null,
      topic: clean(info?.topic ?? f.topic),
      hop: info?.hop ?? null,
    });
  }
  const structured = {
    text: redacted.text,
    budget_bytes: PRIOR_HANDOFFS_BUDGET_BYTES,
    included: prior.included,
    dropped: prior.dropped,
    total_files: timeline.files.length,
    entries,
    entries_omitted: timeline.files.length - entries.length,
    warnings,
  };
  return okResult(`${redacted.text.trimEnd()}${warnings.length ? `\n\n${warnings.join('\n')}` : ''}\n`, structured);
}

async function recordResultTool(args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = parseArgs(RecordResultInputSchema, args);
  if (!parsed.ok) return errorResult(parsed.text);
  const { project_root, ...request } = parsed.data;
  const root = await resolveProjectRoot(project_root, ctx);
  if (!root.ok) return errorResult(root.text);
  const env = await environmentFor(ctx, root.root, signal);
  const outcome = await recordResult(request, env);
  if (outcome.status === 'error') {
    return errorResult(outcome.message);
  }
  const rel = (f: string) => path.relative(env.workspaceRoot, f).split(path.sep).join('/');
  const lines = [
    ...outcome.summary,
    ...outcome.entries.map((e) => `result: ${rel(e.result_file)} (${e.handoff_id}: ${e.status})`),
    ...(outcome.note_file ? [`note: ${rel(outcome.note_file)}`] : []),
    ...outcome.warnings,
  ];
  return okResult(lines.join('\n'), outcome as unknown as Record<string, unknown>);
}

/**
 * Runs one tool call: validates the arguments, runs the engine and builds the MCP
 * result. Unknown tools and every failure (bad input, unknown specialist, disk errors,
 * a bug) come back as `isError: true` with an `ERROR:` text. Never throws.
 * @param signal the call's cancellation (MCP `notifications/cancelled`); it stops git collection
 */
export async function callMcpTool(name: string, args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    switch (name) {
      case HANDOVER_TOOL_NAME: {
        let root: string | undefined;
        const environment = (r: string) => {
          root = r;
          return environmentFor(ctx, r, signal);
        };
        const outcome = await runHandoverTool(args ?? {}, { ...ctx, environment });
        if (!outcome.ok) return errorResult(outcome.text);
        if (ctx.onHandover && root !== undefined) {
          try {
            await ctx.onHandover(root, outcome.result);
          } catch {
            // The handoff is written; a failed follow-up (a new CLI session id) changes nothing for the caller.
          }
        }
        return okResult(outcome.text, outcome.result as unknown as Record<string, unknown>);
      }
      case LIST_SPECIALISTS_TOOL_NAME:
        return await listSpecialists(args, ctx, signal);
      case PRIOR_HANDOFFS_TOOL_NAME:
        return await priorHandoffs(args, ctx, signal);
      case RECORD_RESULT_TOOL_NAME:
        return await recordResultTool(args, ctx, signal);
      default:
        return errorResult(`unknown tool "${name.slice(0, 80)}" — the tools are: ${MCP_TOOL_NAMES.join(', ')}`);
    }
  } catch (err) {
    return errorResult(`internal error in ${name.slice(0, 80)}: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** What the server tells the client about itself in `initialize` (shown to the model by some clients). */
export const MCP_SERVER_INSTRUCTIONS =
  'Specialist Handoff writes token-bounded handoffs between specialists (architect, implementer, reviewer, test/debug, security …) into the project. ' +
  'To hand over: list_specialists, then handover_to_specialist with a curated summary, decisions and a return condition (git and the session log are collected for you). ' +
  'To pick work up: prior_handoffs first; when done, record_result to hand back.';

/**
 * Creates the MCP server (not yet connected): `tools/list` returns
 * {@link mcpToolDefinitions}, `tools/call` runs {@link callMcpTool}. The `from` of each
 * handoff is the client's name from the handshake (e.g. `claude-code`) unless
 * `ctx.from` says otherwise.
 * @param track receives each running tool call (so a caller can wait for them before closing)
 */
export function createMcpServer(ctx: McpServerContext, track?: (call: Promise<unknown>) => void): Server {
  const server = new Server({ name: MCP_SERVER_NAME, title: 'Specialist Handoff', version: ctx.version }, { capabilities: { tools: {} }, instructions: MCP_SERVER_INSTRUCTIONS });
  const tools = mcpToolDefinitions();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const client = server.getClientVersion()?.name;
    const from = ctx.from ?? (client ? clientName(client) : undefined);
    const started = Date.now();
    const call = callMcpTool(request.params.name, request.params.arguments, { ...ctx, ...(from ? { from } : {}) }, extra.signal);
    track?.(call);
    const result = await call;
    const first = result.content[0];
    const summary = first && first.type === 'text' ? (result.isError ? first.text.split('\n')[0] : 'ok') : 'ok';
    ctx.log?.(`${request.params.name}: ${summary} (${Date.now() - started} ms)`);
    return result;
  });
  return server;
}

/** A client name fit for a handoff's `from` (one line, at most 100 characters). */
function clientName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 100) || 'agent';
}

/**
 * Serves MCP over stdio until the client closes standard input (or the transport
 * closes). Tool calls still running when standard input ends are finished and answered
 * first (a piped `tools/call` followed by EOF gets its result; a handoff is never cut
 * off half-written). Standard output carries the protocol only: write diagnostics to
 * stderr.
 * @returns when the connection has ended
 */
export async function serveStdio(ctx: McpServerContext, stdin: NodeJS.ReadableStream = process.stdin, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  const running = new Set<Promise<unknown>>();
  const server = createMcpServer(ctx, (call) => {
    const settled = call.catch(() => undefined).finally(() => running.delete(settled));
    running.add(settled);
  });
  const transport = new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (err) => ctx.log?.(`protocol error: ${err.message}`);
  await server.connect(transport);
  const end = () => {
    void (async () => {
      while (running.size) await Promise.all([...running]);
      // The answers are written before the transport closes.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close().catch(() => undefined);
    })();
  };
  stdin.once('end', end);
  stdin.once('close', end);
  await closed;
  stdin.off('end', end);
  stdin.off('close', end);
}
