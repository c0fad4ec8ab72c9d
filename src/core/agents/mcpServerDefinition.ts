// MCP server definitions for VS Code: one stdio server per workspace folder, the bundled CLI's `mcp` run by the extension host's Node.js.
import path from 'node:path';

/** The label when one folder is open. */
export const MCP_SERVER_LABEL = 'Specialist Handoff';

export interface McpServerSpec {
  /** Unique among the specs returned together. */
  readonly label: string;
  readonly command: string;
  /** `<extension>/dist/cli.js mcp --cwd <folder>`, then `--omit-tool <name>` for each omitted tool. */
  readonly args: readonly string[];
  /** `ELECTRON_RUN_AS_NODE=1`: desktop VS Code's `execPath` is Electron, which runs as plain Node.js only with it. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** VS Code asks the server for its tools again when it changes. */
  readonly version: string;
}

export interface McpFolder {
  readonly name: string;
  readonly path: string;
}

/** `omitTools`, which the extension offers the chat itself, become `--omit-tool` so VS Code lists each tool once. */
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
