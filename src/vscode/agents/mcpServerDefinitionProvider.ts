/**
 * The MCP server definition provider (VS Code 1.101+: `vscode.lm.registerMcpServerDefinitionProvider`):
 * offers VS Code's MCP support a stdio server per workspace folder that runs the bundled
 * CLI's `mcp` subcommand (`dist/cli.js mcp --cwd <folder>`) with the extension host's
 * Node.js, so VS Code's agents (and any MCP client VS Code feeds) get the same tools as
 * the CLI's MCP server. This extension declares `engines.vscode` ^1.99.0, where the API
 * does not exist: the types below are local, the API is feature-detected, and on older
 * VS Code nothing is registered (one line in the output channel says so). No definition
 * is offered in an untrusted workspace. The server omits `handover_to_specialist` and
 * `request_full_history` (`LANGUAGE_MODEL_TOOL_NAMES`): the extension offers them to the chat
 * as its language model tools (lmTool.ts, historyTool.ts), and VS Code would list each twice.
 */
import * as vscode from 'vscode';
import { mcpServerSpecs } from '../../core/agents/mcpServerDefinition';
import { LANGUAGE_MODEL_TOOL_NAMES } from '../../engine/timeline/historyTool';
import { diskFolders, isTrusted, type AgentDeps } from './agentContext';

/** The provider id (package.json `contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'specialist-handoff.mcp-server';

/** The part of `vscode.McpStdioServerDefinition` (1.101) used here. */
interface McpStdioServerDefinitionLike {
  cwd?: vscode.Uri;
}

/** `vscode.McpStdioServerDefinition`'s constructor (1.101). */
type McpStdioServerDefinitionCtor = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => McpStdioServerDefinitionLike;

/** `vscode.McpServerDefinitionProvider` (1.101), for stdio definitions. */
interface McpServerDefinitionProviderLike {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpStdioServerDefinitionLike[]>;
}

/** The parts of the 1.101 API this file uses, each possibly missing. */
interface McpApi {
  readonly registerMcpServerDefinitionProvider?: (id: string, provider: McpServerDefinitionProviderLike) => vscode.Disposable;
  readonly McpStdioServerDefinition?: McpStdioServerDefinitionCtor;
}

/** The MCP API of this VS Code, when it has all of it. */
function mcpApi(): Required<McpApi> | undefined {
  const lm = vscode.lm as unknown as McpApi | undefined;
  const ctor = (vscode as unknown as McpApi).McpStdioServerDefinition;
  const register = lm?.registerMcpServerDefinitionProvider;
  return typeof register === 'function' && typeof ctor === 'function'
    ? { registerMcpServerDefinitionProvider: register.bind(lm), McpStdioServerDefinition: ctor }
    : undefined;
}

/**
 * Registers the MCP server definition provider where VS Code offers the API (1.101+);
 * elsewhere logs once that it was skipped.
 * @returns what to dispose with the extension (nothing when skipped)
 */
export function registerMcpServerDefinitions(deps: AgentDeps): vscode.Disposable[] {
  const api = mcpApi();
  if (!api) {
    deps.log.info(
      `MCP server definition not registered: VS Code ${vscode.version} has no vscode.lm.registerMcpServerDefinitionProvider (VS Code 1.101+); ` +
        'the CLI\'s "specialist-handoff mcp" still serves MCP clients configured by hand',
    );
    return [];
  }
  const changed = new vscode.EventEmitter<void>();
  const version = String((deps.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const provider: McpServerDefinitionProviderLike = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      if (!isTrusted(deps)) return [];
      const specs = mcpServerSpecs({
        execPath: process.execPath,
        extensionPath: deps.extension.extensionUri.fsPath,
        folders: diskFolders().map((f) => ({ name: f.name, path: f.uri.fsPath })),
        version,
        // The language model tools offer them to the chat already (registered wherever this API exists).
        omitTools: [...LANGUAGE_MODEL_TOOL_NAMES],
      });
      return specs.map((s) => {
        const def = new api.McpStdioServerDefinition(s.label, s.command, [...s.args], { ...s.env }, s.version);
        def.cwd = vscode.Uri.file(s.cwd);
        return def;
      });
    },
  };
  deps.log.info(`MCP server definition provider ${MCP_PROVIDER_ID} registered (dist/cli.js mcp, one server per workspace folder)`);
  return [
    changed,
    api.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
  ];
}
