/**
 * The MCP server of `specialist-handoff mcp`. It uses the low-level SDK `Server`, not
 * `McpServer.registerTool`, so inputs are validated by our zod schemas in our `ERROR:` wording.
 * Every tool outcome is a result (`isError: true` on failure); nothing throws to the client.
 */
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestParamsSchema, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { issueProblem, issueSubject } from '../core/handoff/issues';
import { describeSanitizing, redactKnown, redactSecrets } from '../core/safety/redact';
import { stripInvisible } from '../core/safety/invisible';
import { sanitizeOutput, sanitizeValue } from '../core/safety/gate';
import type { HandoverOk } from '../core/handoff/schema';
import { describeSpecialist } from '../core/specialists/registry';
import { PRIOR_HANDOFFS_BUDGET_BYTES } from '../core/timeline/chains';
import type { JobContext } from '../engine/project/jobContext';
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

/** The server's name in the `initialize` handshake and the key of the config snippets. */
export const MCP_SERVER_NAME = 'specialist-handoff';

export interface McpServerContext extends ToolContext {
  readonly version: string;
  /** Called after a successful `handover_to_specialist`; its errors are ignored. */
  readonly onHandover?: (root: string, result: HandoverOk) => void | Promise<void>;
  /** A diagnostic line per failed call and protocol error (never stdout: that is the protocol). */
  readonly log?: (line: string) => void;
  /** Left out of `tools/list` and refused (`--omit-tool`). */
  readonly omitTools?: readonly string[];
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message.startsWith('ERROR:') ? message : `ERROR: ${message}` }], isError: true };
}

function okResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

async function environmentFor(ctx: McpServerContext, root: string, signal?: AbortSignal): Promise<JobContext> {
  const env = await ctx.environment(root);
  return signal ? { ...env, signal } : env;
}

async function projectOf(
  projectRoot: string | undefined,
  ctx: McpServerContext,
  signal?: AbortSignal,
): Promise<{ ok: true; env: JobContext; project: Project } | { ok: false; result: CallToolResult }> {
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
  // The block carries files other agents wrote: strip and redact before it goes out.
  const visible = stripInvisible(prior.text);
  const redacted = await redactSecrets(visible.text);
  for (const note of redacted.notes) warnings.push(`WARNING: ${note}`);
  const sanitizing = describeSanitizing(redacted.found, visible.removed);
  if (sanitizing) warnings.push(`WARNING: prior handoffs: ${sanitizing}`);

  // A topic may repeat a secret found in the block: redact it there too.
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
  // One handoff not answered makes the call an error, though others may have been (the text lists both).
  const result = okResult(lines.join('\n'), outcome as unknown as Record<string, unknown>);
  return outcome.failures.length > 0 ? { ...result, isError: true } : result;
}

/**
 * Runs one tool call; every failure, a bug included, is an `isError` result. Never throws.
 * @param signal the call's cancellation (`notifications/cancelled`)
 */
export async function callMcpTool(name: string, args: unknown, ctx: McpServerContext, signal?: AbortSignal): Promise<CallToolResult> {
  return gateToolResult(await callUngated(name, args, ctx, signal));
}

/** Every text and structured string of a result passes the output gate. */
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
            // The handoff is written; a failed follow-up changes nothing for the caller.
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

/** Sent in `initialize`; some clients show it to the model. */
export const MCP_SERVER_INSTRUCTIONS =
  'Specialist Handoff writes token-bounded handoffs between specialists (architect, implementer, reviewer, test/debug, security …) into the project. ' +
  'To hand over: list_specialists, then handover_to_specialist with a curated summary, decisions and a return condition (git and the session log are collected for you). ' +
  'To pick work up: prior_handoffs first (request_full_history when a handoff is not enough: its session, at most 50,000 tokens); when done, record_result to hand back.';

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

type CallParams = { name: string; arguments?: Record<string, unknown> } & Record<string, unknown>;

/**
 * `tools/call`, lenient: the SDK would refuse bad params with zod's raw issue list. Non-object
 * `arguments` reach the tool (which answers its own `ERROR:`); other bad params (no `name`)
 * become a stand-in the handler answers with a one-line -32602.
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
  const argumentsOf = (params: CallParams): unknown => {
    const problem = refused.get(params);
    if (problem !== undefined) throw new InvalidParamsError(problem);
    const passed = params.arguments;
    return passed !== undefined && notAnObject.has(passed) ? notAnObject.get(passed) : passed;
  };
  return { schema, argumentsOf };
}

/** `tools/list`, lenient: bad params are a one-line -32602, not zod's raw issue list. */
const ListToolsLenientSchema = z.looseObject({ method: z.literal(ListToolsRequestSchema.shape.method.value), params: z.unknown().optional() });

/**
 * Creates the server (not connected). A handoff's `from` is the client's handshake name unless `ctx.from` is set.
 * @param track receives each running call, so a caller can wait for them before closing
 */
export function createMcpServer(ctx: McpServerContext, track?: (call: Promise<unknown>) => void): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'Specialist Handoff', version: ctx.version },
    { capabilities: { tools: {} }, instructions: MCP_SERVER_INSTRUCTIONS },
  );
  const tools = mcpToolDefinitions().filter((t) => !ctx.omitTools?.includes(t.name));
  // The SDK does not report the errors thrown here itself.
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

function clientName(name: string): string {
  return (
    name
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, 100) || 'agent'
  );
}

/**
 * Serves MCP over stdio until standard input ends; calls still running then are answered first,
 * so a piped `tools/call` followed by EOF gets its result and no handoff is cut off.
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
      // One event-loop turn lets the last lines start their calls, another lets answers be written.
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
