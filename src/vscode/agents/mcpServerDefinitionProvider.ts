/**
 * Offers VS Code a stdio MCP server per workspace folder (`dist/cli.js mcp --cwd <folder>`) where
 * the API exists (1.101+; engines.vscode is ^1.99, so its types are local). None when untrusted.
 * The server omits the tools the extension offers as language model tools: VS Code would list them twice.
 */
import * as vscode from 'vscode';
import { mcpServerSpecs } from '../../core/agents/mcpServerDefinition';
import { LANGUAGE_MODEL_TOOL_NAMES } from '../../engine/timeline/historyTool';
import { diskFolders, isTrusted, type AgentDeps } from './agentContext';

/** package.json `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'specialist-handoff.mcp-server';

interface McpStdioServerDefinitionLike {
  cwd?: vscode.Uri;
}

type McpStdioServerDefinitionCtor = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => McpStdioServerDefinitionLike;

interface McpServerDefinitionProviderLike {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<McpStdioServerDefinitionLike[]>;
}

/** The 1.101 API parts used here, each possibly missing. */
interface McpApi {
  readonly registerMcpServerDefinitionProvider?: (id: string, provider: McpServerDefinitionProviderLike) => vscode.Disposable;
  readonly McpStdioServerDefinition?: McpStdioServerDefinitionCtor;
}

function mcpApi(): Required<McpApi> | undefined {
  const lm = vscode.lm as unknown as McpApi | undefined;
  const ctor = (vscode as unknown as McpApi).McpStdioServerDefinition;
  const register = lm?.registerMcpServerDefinitionProvider;
  return typeof register === 'function' && typeof ctor === 'function'
    ? { registerMcpServerDefinitionProvider: register.bind(lm), McpStdioServerDefinition: ctor }
    : undefined;
}

/** Empty where VS Code lacks the API (logged). */
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
