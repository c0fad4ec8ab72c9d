/** `specialist-handoff mcp`: serves MCP on stdio for the workspace of --cwd until stdin closes. */
import type * as McpServerModule from '../mcp/server';
import { startNewCliSession } from '../engine/project/cliSession';
import type { Values } from './args';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo } from './io';
import { VERSION } from './usage';
import { escapeControls, fail } from './wording';
import { cliEnvironment, workspaceAndRoot } from './workspace';

/**
 * Tool calls use the CLI's session and session log; a handoff starts a new CLI session, as
 * `handover` does. stdout is the protocol, so console output goes to stderr, and stderr stays
 * quiet except for failures (VS Code logs an MCP server's stderr as warnings). `--omit-tool`
 * leaves a tool out of `tools/list` and refuses calls to it (VS Code's definition omits
 * `handover_to_specialist`, which the extension offers as a language model tool).
 */
export async function runMcp(values: Values, io: CliIo): Promise<number> {
  // Checked up front, so a bad --dir fails before the server starts.
  const ws = await workspaceAndRoot(values, io);
  if (typeof ws === 'number') return ws;
  const { cwd } = ws;
  // Lazy: the other commands never pay for the MCP SDK.
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
      // One project only: otherwise an agent (or text injected into one) could write handoffs
      // into another folder by naming it.
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
