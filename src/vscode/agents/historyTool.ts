/**
 * `#fullHistory` (`request_full_history`), where VS Code has `vscode.lm.registerTool`. Read-only,
 * so no confirmation; untrusted workspaces are refused before any transcript is read.
 */
import * as vscode from 'vscode';
import { HISTORY_TOOL_NAME, runHistoryTool } from '../../engine/timeline/historyTool';
import { UNTRUSTED_ERROR, abortOn, diskFolders, folderForRoot, isTrusted, type AgentDeps } from './agentContext';
import { gatedToolResult } from './outputGate';
import { folderEnvironment } from '../workspace/environment';

const CANCELLED = 'ERROR: reading the full history was cancelled';

export class FullHistoryLanguageModelTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  constructor(private readonly deps: AgentDeps) {}

  /** No confirmation: the tool writes nothing. */
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const ref = typeof options.input?.handoff === 'string' ? options.input.handoff : 'the newest handoff';
    return { invocationMessage: `Reading the full history behind ${ref}` };
  }

  /** Never throws: a failure comes back as `ERROR:` text. */
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

/** Empty where this VS Code has no `vscode.lm.registerTool` (logged). */
export function registerFullHistoryTool(deps: AgentDeps): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') {
    deps.log.info(`language model tool ${HISTORY_TOOL_NAME} not registered: VS Code ${vscode.version} has no vscode.lm.registerTool`);
    return [];
  }
  return [vscode.lm.registerTool(HISTORY_TOOL_NAME, new FullHistoryLanguageModelTool(deps))];
}
