/**
 * The MCP server definitions the extension offers VS Code (1.101+: an MCP server
 * definition provider): one stdio server per workspace folder, running the bundled CLI's
 * `mcp` subcommand with the extension host's own Node.js. Pure: the adapter in
 * `src/vscode/agents/mcpServerDefinitionProvider.ts` turns each spec into a `vscode.McpStdioServerDefinition`.
 */
import path from 'node:path';

/** Label of the server in VS Code's MCP server list (one folder open). */
export const MCP_SERVER_LABEL = 'Specialist Handoff';

/** A stdio MCP server definition, as plain data. */
export interface McpServerSpec {
  /** Name shown in VS Code's MCP server list; unique among the specs returned together. */
  readonly label: string;
  /** The executable: the extension host's `process.execPath`. */
  readonly command: string;
  /** `<extension>/dist/cli.js mcp --cwd <folder>`, then `--omit-tool <name>` for each omitted tool. */
  readonly args: readonly string[];
  /**
   * `ELECTRON_RUN_AS_NODE=1`: in desktop VS Code `process.execPath` is the Electron binary,
   * which runs as plain Node.js only with it; under Node.js (code-server, remote hosts) it is ignored.
   */
  readonly env: Readonly<Record<string, string>>;
  /** The folder the server works on (also its working directory). */
  readonly cwd: string;
  /** The extension's version: VS Code asks the server for its tools again when it changes. */
  readonly version: string;
}

/** A workspace folder, as the builder needs it. */
export interface McpFolder {
  /** The folder's name (VS Code's `WorkspaceFolder.name`). */
  readonly name: string;
  /** Absolute path of the folder. */
  readonly path: string;
}

/**
 * The stdio server definitions for the open folders, in folder order: one folder gives
 * one server labelled {@link MCP_SERVER_LABEL}; several give `Specialist Handoff: <name>`
 * each (a repeated name gets ` (2)`, ` (3)` …). No folder: none.
 *
 * `omitTools` are the MCP tools the extension offers the chat itself (its language model
 * tool `handover_to_specialist`): each server is started with `--omit-tool <name>` so
 * VS Code's tool list holds each tool once; the CLI's own `mcp` keeps them all.
 *
 * @param opts `execPath` of the extension host, the extension's folder, the folders, the extension's version and the tools to omit (default none)
 */
export function mcpServerSpecs(opts: {
  readonly execPath: string;
  readonly extensionPath: string;
  readonly folders: readonly McpFolder[];
  readonly version: string;
  readonly omitTools?: readonly string[];
}): McpServerSpec[] {
  const omit = (opts.omitTools ?? []).flatMap((name) => ['--omit-tool', name]);
  const cli = path.join(opts.extensionPath, 'dist', 'cli.js');
  const seen = new Map<string, number>();
  return opts.folders.map((folder) => {
    let label = MCP_SERVER_LABEL;
    if (opts.folders.length > 1) {
      const n = (seen.get(folder.name) ?? 0) + 1;
      seen.set(folder.name, n);
      label = `${MCP_SERVER_LABEL}: ${folder.name}${n > 1 ? ` (${n})` : ''}`;
    }
    return {
      label,
      command: opts.execPath,
      args: [cli, 'mcp', '--cwd', folder.path, ...omit],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      cwd: folder.path,
      version: opts.version,
    };
  });
}
