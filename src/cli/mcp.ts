/**
 * `specialist-handoff mcp`: serves the Model Context Protocol on stdio (src/mcp/server.ts)
 * for the workspace of --cwd until the client closes standard input.
 */
import type * as McpServerModule from '../mcp/server';
import { startNewCliSession } from '../engine/project/cliSession';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { VERSION } from './usage';
import { escapeControls, fail } from './wording';
import { cliEnvironment, workspaceAndRoot } from './workspace';

/**
 * Runs `mcp`: a call's `project_root` may name the workspace of --cwd only. The server
 * module (and the MCP SDK, large to load) is loaded only here. Tool calls use the
 * CLI's environment: its session id and session-log state, the session log found
 * automatically; a handoff starts a new CLI session, as `handover` does. Console output
 * is sent to stderr while serving: stdout is the protocol. Nothing is printed at start
 * and nothing for a call that succeeds: VS Code logs an MCP server's stderr as warnings,
 * so stderr carries only failed calls and protocol errors. `--omit-tool NAME`
 * (repeatable) leaves a tool out of `tools/list` and refuses calls to it: VS Code's MCP
 * server definition omits `handover_to_specialist`, which the extension already offers the
 * chat as its language model tool (the tool listed once). An unknown NAME is
 * bad input naming the tools.
 */
export async function runMcp(values: Values, io: CliIo): Promise<number> {
  // The handoff root is checked up front, so a bad --dir fails before the server starts.
  const ws = await workspaceAndRoot(values, io);
  if (typeof ws === 'number') return ws;
  const { cwd } = ws;
  // Loaded lazily so the other commands never pay for the SDK (in dist/vendor/mcp-sdk.js: esbuild.mjs VENDOR).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mcp = require('../mcp/server') as typeof McpServerModule;
  const omitTools = [...new Set(values['omit-tool'] ?? [])];
  const unknown = omitTools.filter((t) => !mcp.MCP_TOOL_NAMES.includes(t));
  if (unknown.length) {
    return fail(
      io,
      values,
      `ERROR: --omit-tool ${unknown.map((t) => JSON.stringify(escapeControls(t.slice(0, 80)))).join(', ')} names no tool of this server — pass one of ${mcp.MCP_TOOL_NAMES.join(', ')}`,
      EXIT_BAD_INPUT,
      'omit-tool',
    );
  }
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  try {
    await mcp.serveStdio({
      version: VERSION,
      defaultRoot: cwd,
      // The server serves one project: a call's project_root must name it. Without this an
      // agent (or text injected into one) could write handoffs into /, /etc or another
      // repository, through a link or by naming it.
      allowedRoots: [cwd],
      omitTools,
      environment: (project) => cliEnvironment(project, values, 'auto'),
      onHandover: async (project) => {
        await startNewCliSession(project);
      },
      log: (line) => io.stderr(`specialist-handoff mcp: ${escapeControls(line)}`),
    });
  } finally {
    Object.assign(console, saved);
  }
  return EXIT_OK;
}
