/**
 * The MCP server of `specialist-handoff mcp`: the handoff engine offered to MCP clients
 * (Claude Code, Codex CLI, Cline/Roo, VS Code …) over stdio, with the official MCP
 * TypeScript SDK (`@modelcontextprotocol/sdk`). The tools — names, descriptions, input
 * schemas — are in src/mcp/tools.ts; this file runs a call through the engine and wires
 * the server to stdio.
 *
 * The low-level SDK `Server` is used (not `McpServer.registerTool`) so that every input
 * is validated by our own zod schemas with our own `ERROR: …` wording, and the advertised
 * input schemas are exactly `z.toJSONSchema` of those schemas. Every tool outcome is a
 * result: failures are `isError: true` with a text starting `ERROR:`; nothing throws to
 * the client. Never imports vscode.
 */
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestParamsSchema, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { issueProblem, issueSubject } from '../core/handoff/issues';
import { describeSanitizing, redactKnown, redactSecrets } from '../core/safety/redact';
import { stripInvisible } from '../core/safety/invisible';
import { sanitizeOutput, sanitizeValue } from '../core/safety/gate';
import type { HandoverOk } from '../core/handoff/schema';
import { describeSpecialist } from '../core/specialists/registry';
import { PRIOR_HANDOFFS_BUDGET_BYTES } from '../core/timeline/chains';
import type { HandoverEnvironment } from '../engine/project/environment';
import { openProject, type Project } from '../engine/project/project';
import { priorHandoffsFor } from '../engine/receive/prompt';
import { recordResult } from '../engine/receive/recordResult';
import { readTimeline } from '../engine/timeline/timeline';
import { HANDOVER_TOOL_NAME, resolveProjectRoot, runHandoverTool, type ToolContext } from '../engine/agents/agentTool';
import { HISTORY_TOOL_NAME, runHistoryTool } from '../engine/timeline/historyTool';
import {
  DEFAULT_PRIOR_ENTRIES,
  LIST_SPECIALISTS_TOOL_NAME,
  ListSpecialistsInputSchema,
  MCP_TOOL_NAMES,
  PRIOR_HANDOFFS_TOOL_NAME,
  PriorHandoffsInputSchema,
  RECORD_RESULT_TOOL_NAME,
  RecordResultInputSchema,
  argumentsNotAnObject,
  mcpToolDefinitions,
  parseToolArgs,
} from './tools';
import { LineTransport } from './stdioTransport';

export { MCP_TOOL_NAMES } from './tools';

/** The server's name in the MCP `initialize` handshake (and the key of the config snippets). */
export const MCP_SERVER_NAME = 'specialist-handoff';

/** Where the server runs: the tool context (default root, engine environment) plus its version and optional hooks. */
export interface McpServerContext extends ToolContext {
  /** The server's version for the `initialize` handshake (the package version). */
  readonly version: string;
  /** Called after a successful `handover_to_specialist` (the CLI starts a new session there). Errors are ignored. */
  readonly onHandover?: (root: string, result: HandoverOk) => void | Promise<void>;
  /** A diagnostic line per failed tool call and protocol error (the CLI writes it to stderr; stdout is the protocol). */
  readonly log?: (line: string) => void;
  /**
   * Tools left out of `tools/list`, whose calls are refused (`--omit-tool`): VS Code's server
   * definition omits those the extension offers the chat itself (its language model tool).
   */
  readonly omitTools?: readonly string[];
}

/** A failed call: `isError` and one `ERROR: …` text. */
function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message.startsWith('ERROR:') ? message : `ERROR: ${message}` }], isError: true };
}

function okResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** The environment for a resolved root, cancelled with the call. */
async function environmentFor(ctx: McpServerContext, root: string, signal?: AbortSignal): Promise<HandoverEnvironment> {
  const env = await ctx.environment(root);
  return signal ? { ...env, signal } : env;
}

/** The project a reading tool works on: its engine environment and the opened project (handoff root, registry), or the `ERROR:` result. */
async function projectOf(
  projectRoot: string | undefined,
  ctx: McpServerContext,
  signal?: AbortSignal,
): Promise<{ ok: true; env: HandoverEnvironment; project: Project } | { ok: false; result: CallToolResult }> {
  const root = await resolveProjectRoot(projectRoot, ctx);
  if (!root.ok) return { ok: false, result: errorResult(root.text) };
  const env = await environmentFor(ctx, root.root, signal);
  const opened = await openProject(env);
  if (!opened.ok) return { ok: false, result: errorResult(opened.error.message) };
  return { ok: true, env, project: opened.project };
}

async function listSpecialists(args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = parseToolArgs(ListSpecialistsInputSchema, args);
  if (!parsed.ok) return errorResult(parsed.text);
  const opened = await projectOf(parsed.data.project_root, ctx, signal);
  if (!opened.ok) return opened.result;
  const { registry, warnings } = opened.project;
  const structured = { specialists: registry.all().map(describeSpecialist), warnings: warnings.map((w) => `WARNING: ${w}`) };
  return okResult(JSON.stringify(structured, null, 2), structured);
}

async function priorHandoffs(args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  const parsed = parseToolArgs(PriorHandoffsInputSchema, args);
  if (!parsed.ok) return errorResult(parsed.text);
  const opened = await projectOf(parsed.data.project_root, ctx, signal);
  if (!opened.ok) return opened.result;
  const { env, project } = opened;
  const timeline = await readTimeline(project, { newest: parsed.data.max_entries ?? DEFAULT_PRIOR_ENTRIES, newestBy: 'name' });
  const warnings = [...project.warnings, ...timeline.warnings].map((w) => `WARNING: ${w}`);
  const prior = await priorHandoffsFor(timeline.files);
  // Nothing leaked (docs/DESIGN.md §7), as in the prompt: the block carries files other agents wrote.
  const visible = stripInvisible(prior.text);
  const redacted = await redactSecrets(visible.text);
  for (const note of redacted.notes) warnings.push(`WARNING: ${note}`);
  const sanitizing = describeSanitizing(redacted.found, visible.removed);
  if (sanitizing) warnings.push(`WARNING: prior handoffs: ${sanitizing}`);

  // A topic repeats what the block may say: a secret found there is redacted in the topics too.
  const clean = (t: string | null | undefined) => (t === null || t === undefined ? null : redactKnown([stripInvisible(t).text], redacted.secrets).texts[0]);
  const entries = [];
  for (const f of timeline.newest) {
    const info = timeline.info.get(f.key);
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
  const parsed = parseToolArgs(RecordResultInputSchema, args);
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
  // A handoff that could not be answered is a failed call, though others may have been (the text lists both).
  const result = okResult(lines.join('\n'), outcome as unknown as Record<string, unknown>);
  return outcome.failures.length > 0 ? { ...result, isError: true } : result;
}

/**
 * Runs one tool call: validates the arguments, runs the engine and builds the MCP
 * result. Unknown tools and every failure (bad input, unknown specialist, disk errors,
 * a bug) come back as `isError: true` with an `ERROR:` text. Never throws.
 * @param signal the call's cancellation (MCP `notifications/cancelled`); it stops git collection
 */
export async function callMcpTool(name: string, args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  return gateToolResult(await callUngated(name, args, ctx, signal));
}

/**
 * The MCP output boundary (docs/DESIGN.md §7 "The gate"): every text of a result and every
 * string of its structured content pass the output gate (`sanitizeOutput`, `sanitizeValue`,
 * `src/core/safety/gate.ts`).
 */
export async function gateToolResult(result: CallToolResult): Promise<CallToolResult> {
  const content = await Promise.all(result.content.map(async (c) => (c.type === 'text' ? { ...c, text: await sanitizeOutput(c.text) } : c)));
  const structured = result.structuredContent === undefined ? {} : { structuredContent: await sanitizeValue(result.structuredContent, 'strip') };
  return { ...result, content, ...structured };
}

async function callUngated(name: string, args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  if (ctx.omitTools?.includes(name)) {
    const offered = MCP_TOOL_NAMES.filter((t) => !ctx.omitTools?.includes(t));
    return errorResult(
      `${name} is not offered by this server (started with --omit-tool ${name}; in VS Code the extension offers it as its own language model tool) — the tools here are: ${offered.join(', ')}`,
    );
  }
  const notObject = MCP_TOOL_NAMES.includes(name) ? argumentsNotAnObject(args) : undefined;
  if (notObject) return errorResult(notObject);
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
      case HISTORY_TOOL_NAME: {
        const outcome = await runHistoryTool(args, { ...ctx, environment: (r) => environmentFor(ctx, r, signal) });
        return outcome.ok ? okResult(outcome.text, outcome.result as unknown as Record<string, unknown>) : errorResult(outcome.text);
      }
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
  'To pick work up: prior_handoffs first (request_full_history when a handoff is not enough: its session, at most 50,000 tokens); when done, record_result to hand back.';

/** A JSON-RPC error of a request's params (-32602), with its message as the client reads it. */
class InvalidParamsError extends Error {
  readonly code = ErrorCode.InvalidParams;
  constructor(problem: string) {
    super(`Invalid params: ${problem}`);
  }
}

/** The first issue of a request's params in one line: `name must be a string`. */
function paramsProblem(error: z.core.$ZodError, params: unknown): string {
  const issue = error.issues[0];
  const subject = issueSubject(issue);
  return `${subject ? `${subject} ` : ''}${issueProblem(issue, params)}`;
}

/** The params of a `tools/call` as the handler reads them. */
type CallParams = { name: string; arguments?: Record<string, unknown> } & Record<string, unknown>;

/**
 * `tools/call` as the server reads it. The SDK checks a call's params with its own schema
 * before any tool runs, and refuses a bad one with zod's raw issue list (-32603 from the
 * request schema, -32602 from its own check). Here the params pass that check in every case:
 * - `arguments` that is not an object becomes an empty object that stands in for it
 *   (`notAnObject`): the tool answers with its own `ERROR:` text (isError);
 * - other params the SDK's `CallToolRequestParamsSchema` refuses (no `name`, a `name` that is
 *   not a string) become a stand-in whose problem is in `refused`: the handler answers
 *   -32602 with one line naming the parameter, what it must be and the tools offered.
 */
function callToolRequestSchema(offered: readonly string[]) {
  const notAnObject = new WeakMap<object, unknown>();
  const refused = new WeakMap<object, string>();
  const schema = z.looseObject({
    method: z.literal(CallToolRequestSchema.shape.method.value),
    params: z
      .unknown()
      .optional()
      .transform((given): CallParams => {
        // JSON-RPC params are an object when present (the transport refuses others).
        const { arguments: args, ...rest } = (given ?? {}) as Record<string, unknown>;
        const argsObject = args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args));
        const stand: Record<string, unknown> = {};
        if (!argsObject) notAnObject.set(stand, args);
        const params = { ...rest, ...(args === undefined ? {} : { arguments: argsObject ? args : stand }) };
        const checked = CallToolRequestParamsSchema.safeParse(params);
        if (checked.success) return params as CallParams;
        const name = checked.error.issues[0]?.path[0] === 'name';
        const problem = paramsProblem(checked.error, params);
        const standIn: CallParams = { name: '' };
        refused.set(standIn, name ? `${problem}: the name of the tool to call — the tools are: ${offered.join(', ')}` : problem);
        return standIn;
      }),
  });
  /** The call's arguments as the client sent them, or the `-32602` error of its params. */
  const argumentsOf = (params: CallParams): unknown => {
    const problem = refused.get(params);
    if (problem !== undefined) throw new InvalidParamsError(problem);
    const passed = params.arguments;
    return passed !== undefined && notAnObject.has(passed) ? notAnObject.get(passed) : passed;
  };
  return { schema, argumentsOf };
}

/** `tools/list` as the server reads it: params the SDK's schema refuses are -32602 naming the parameter, not zod's raw issue list. */
const ListToolsLenientSchema = z.looseObject({ method: z.literal(ListToolsRequestSchema.shape.method.value), params: z.unknown().optional() });

/**
 * Creates the MCP server (not yet connected): `tools/list` returns
 * {@link mcpToolDefinitions}, `tools/call` runs {@link callMcpTool}. The `from` of each
 * handoff is the client's name from the handshake (e.g. `claude-code`) unless
 * `ctx.from` says otherwise.
 * @param track receives each running tool call (so a caller can wait for them before closing)
 */
export function createMcpServer(ctx: McpServerContext, track?: (call: Promise<unknown>) => void): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'Specialist Handoff', version: ctx.version },
    { capabilities: { tools: {} }, instructions: MCP_SERVER_INSTRUCTIONS },
  );
  const tools = mcpToolDefinitions().filter((t) => !ctx.omitTools?.includes(t.name));
  /** Logs a request refused for its params (the SDK reports only the errors it meets itself) and passes it on. */
  const logged = (err: unknown): never => {
    ctx.log?.(`protocol error: ${(err as Error)?.message ?? String(err)}`);
    throw err;
  };
  server.setRequestHandler(ListToolsLenientSchema, async (request) => {
    const params = ListToolsRequestSchema.shape.params.safeParse(request.params);
    if (!params.success) logged(new InvalidParamsError(paramsProblem(params.error, request.params)));
    return { tools };
  });
  const callTool = callToolRequestSchema(tools.map((t) => t.name));
  server.setRequestHandler(callTool.schema, async (request, extra) => {
    let args: unknown;
    try {
      args = callTool.argumentsOf(request.params);
    } catch (err) {
      logged(err);
    }
    const client = server.getClientVersion()?.name;
    const from = ctx.from ?? (client ? clientName(client) : undefined);
    const started = Date.now();
    const call = callMcpTool(request.params.name, args, { ...ctx, ...(from ? { from } : {}) }, extra.signal);
    track?.(call);
    const result = await call;
    const first = result.content[0];
    // Only failed calls: VS Code logs an MCP server's stderr as warnings.
    if (result.isError) {
      const summary = first && first.type === 'text' ? first.text.split('\n')[0] : 'error';
      ctx.log?.(`${request.params.name}: ${summary} (${Date.now() - started} ms)`);
    }
    return result;
  });
  return server;
}

/** A client name fit for a handoff's `from` (one line, at most 100 characters). */
function clientName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return (
    name
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, 100) || 'agent'
  );
}

/**
 * Serves MCP over stdio until the client closes standard input (or the transport
 * closes). Tool calls still running when standard input ends are finished and answered
 * first (a piped `tools/call` followed by EOF gets its result; a handoff is never cut
 * off half-written). Every line gets an answer as JSON-RPC 2.0 says, and no input ends
 * the server: a line that is not JSON, a batch, an invalid message or one over 10 MiB
 * is answered with a JSON-RPC error (src/mcp/stdioTransport.ts) and the next line is read.
 * Standard output carries the protocol only: write diagnostics to stderr.
 * @returns when the connection has ended
 */
export async function serveStdio(
  ctx: McpServerContext,
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const running = new Set<Promise<unknown>>();
  const server = createMcpServer(ctx, (call) => {
    const settled = call.catch(() => undefined).finally(() => running.delete(settled));
    running.add(settled);
  });
  const transport = new LineTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (err) => ctx.log?.(`protocol error: ${err.message}`);
  await server.connect(transport);
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const end = () => {
    void (async () => {
      // A turn of the event loop lets the last lines start their calls; after the calls,
      // one lets their answers be written before the transport closes.
      for (;;) {
        await nextTurn();
        if (!running.size) break;
        await Promise.all([...running]);
      }
      await server.close().catch(() => undefined);
    })();
  };
  stdin.once('end', end);
  stdin.once('close', end);
  await closed;
  stdin.off('end', end);
  stdin.off('close', end);
}
