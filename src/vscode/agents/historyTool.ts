/**
 * The language model tool `request_full_history` (`#fullHistory` in the chat):
 * registered with `vscode.lm.registerTool` where VS Code has it, like `#handover`
 * (./lmTool.ts). Read-only, so VS Code asks no confirmation: it runs the engine's tool
 * (`runHistoryTool`, src/engine/timeline/historyTool.ts) on the workspace folder's settings and session
 * log, and returns the history (at most 50,000 tokens, secrets redacted) or an `ERROR: …`
 * text, through the output gate (./outputGate.ts). It never throws to VS Code. Untrusted
 * workspaces are refused before any transcript is read. VS Code's MCP server definition omits
 * the MCP tool of the same name, so the chat lists it once.
 */
import * as vscode from 'vscode';
import { HISTORY_TOOL_NAME, runHistoryTool } from '../../engine/timeline/historyTool';
import { UNTRUSTED_ERROR, abortOn, diskFolders, folderForRoot, isTrusted, type AgentDeps } from './agentContext';
import { gatedToolResult } from './outputGate';
import { folderEnvironment } from '../workspace/environment';

/** The tool's `ERROR:` text when the caller cancelled before the history was read. */
const CANCELLED = 'ERROR: reading the full history was cancelled';

/** The tool's implementation (exported for the host tests' direct checks). */
export class FullHistoryLanguageModelTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  constructor(private readonly deps: AgentDeps) {}

  /** The progress message; no confirmation (the tool writes nothing). */
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const ref = typeof options.input?.handoff === 'string' ? options.input.handoff : 'the newest handoff';
    return { invocationMessage: `Reading the full history behind ${ref}` };
  }

  /** Reads the history; its text, or the `ERROR:` text. Never throws. */
  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    let text: string;
    try {
      text = await this.run(options.input, token);
    } catch (err) {
      this.deps.log.error(`${HISTORY_TOOL_NAME}: ${(err as Error)?.stack ?? String(err)}`);
      text = `ERROR: internal error in ${HISTORY_TOOL_NAME}: ${(err as Error)?.message ?? String(err)}`;
    }
    return gatedToolResult(text);
  }

  private async run(input: unknown, token: vscode.CancellationToken): Promise<string> {
    if (!isTrusted(this.deps)) {
      this.deps.log.info(`${HISTORY_TOOL_NAME} refused: the workspace is not trusted (no transcript read)`);
      return UNTRUSTED_ERROR;
    }
    if (token.isCancellationRequested) return CANCELLED;
    const folders = diskFolders();
    const abort = abortOn(token);
    try {
      const outcome = await runHistoryTool(input, {
        defaultRoot: folders[0]?.uri.fsPath,
        allowedRoots: folders.map((f) => f.uri.fsPath),
        environment: async (root) => {
          const folder = folderForRoot(root);
          if (!folder) throw new Error(`no workspace folder for ${root}`);
          return folderEnvironment(folder, this.deps.session, { signal: abort.signal });
        },
      });
      if (abort.signal.aborted) return CANCELLED;
      if (!outcome.ok) {
        this.deps.log.warn(`${HISTORY_TOOL_NAME}: ${outcome.text}`);
        return outcome.text;
      }
      this.deps.log.info(`${HISTORY_TOOL_NAME}: ${outcome.result.handoff_id}: ${outcome.result.tokens}/${outcome.result.max_tokens} tokens`);
      return outcome.text;
    } finally {
      abort.dispose();
    }
  }
}

/**
 * Registers the tool with `vscode.lm.registerTool` when this VS Code has it (its
 * contribution is in package.json); otherwise logs why not.
 * @returns the registration, to dispose with the extension
 */
export function registerFullHistoryTool(deps: AgentDeps): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') {
    deps.log.info(`language model tool ${HISTORY_TOOL_NAME} not registered: VS Code ${vscode.version} has no vscode.lm.registerTool`);
    return [];
  }
  return [vscode.lm.registerTool(HISTORY_TOOL_NAME, new FullHistoryLanguageModelTool(deps))];
}
