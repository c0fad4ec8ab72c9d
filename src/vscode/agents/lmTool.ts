/**
 * `#handover` (`handover_to_specialist`), where VS Code has `vscode.lm.registerTool`. VS Code asks
 * the user to confirm before it runs; untrusted workspaces are refused before any git process starts.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { BRIEFINGS_DIR, HANDOFFS_DIR } from '../../core/handoff/naming';
import { BUILTIN_SPECIALISTS } from '../../core/specialists/registry';
import { HANDOVER_TOOL_NAME, parseToolInput, runHandoverTool, type HandoverToolInput } from '../../engine/agents/agentTool';
import { DEFAULT_HANDOFF_DIRECTORY } from '../../engine/project/settings';
import {
  CANCELLED_ERROR,
  UNTRUSTED_ERROR,
  abortOn,
  diskFolders,
  folderForRoot,
  inlineMarkdown,
  isTrusted,
  withSettingsDefaults,
  type AgentDeps,
} from './agentContext';
import { folderEnvironment } from '../workspace/environment';
import { readSettings } from '../workspace/settings';
import { gatedToolResult } from './outputGate';

/** The `from` of handoffs this tool writes: the agent mode of VS Code's chat (Copilot or another). */
export const LM_TOOL_FROM = 'copilot';

/** Its `project_root` when that is exactly a workspace folder, else the first folder. */
function folderOf(input: unknown): vscode.WorkspaceFolder | undefined {
  const given = typeof input === 'object' && input !== null ? (input as { project_root?: unknown }).project_root : undefined;
  return folderForRoot(typeof given === 'string' ? given : '');
}

/** Custom specialists (read when the tool runs) show their id. */
function who(id: string): string {
  return BUILTIN_SPECIALISTS.find((s) => s.id === id)?.personaMarker ?? id;
}

export function confirmationFor(input: HandoverToolInput, folder: vscode.WorkspaceFolder | undefined): vscode.LanguageModelToolConfirmationMessages {
  const dir = (folder ? readSettings(folder).directory : DEFAULT_HANDOFF_DIRECTORY).replace(/[\\/]+$/, '');
  const where = folder ? ` in **${inlineMarkdown(folder.name)}**` : '';
  const message = new vscode.MarkdownString(
    [
      `Hand the work over to **${inlineMarkdown(who(input.specialist_profile))}** on **${inlineMarkdown(input.topic)}**.`,
      '',
      `This writes a new handoff to \`${path.posix.join(dir, HANDOFFS_DIR)}/\` and appends a briefing to \`${path.posix.join(dir, BRIEFINGS_DIR)}/\`${where}, ` +
        'with the touched files from git and the tests and turns from the session log.',
      ...(input.summary ? ['', `Summary: ${inlineMarkdown(input.summary.length > 300 ? `${input.summary.slice(0, 299)}…` : input.summary)}`] : []),
    ].join('\n'),
  );
  return { title: `Hand over to ${who(input.specialist_profile)}?`, message };
}

export class HandoverLanguageModelTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  constructor(private readonly deps: AgentDeps) {}

  /** No confirmation when the input is invalid or the workspace untrusted: nothing would be written. */
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    try {
      const parsed = parseToolInput(options.input);
      if (!parsed.ok || !isTrusted(this.deps)) {
        return { invocationMessage: 'Checking the handoff request' };
      }
      const input = parsed.input;
      return {
        invocationMessage: `Handing over to ${who(input.specialist_profile)}: ${input.topic}`,
        confirmationMessages: confirmationFor(input, folderOf(options.input)),
      };
    } catch (err) {
      this.deps.log.error(`${HANDOVER_TOOL_NAME}: preparing: ${(err as Error)?.stack ?? String(err)}`);
      return { invocationMessage: 'Handing over' };
    }
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
      this.deps.log.error(`${HANDOVER_TOOL_NAME}: ${(err as Error)?.stack ?? String(err)}`);
      text = `ERROR: internal error in ${HANDOVER_TOOL_NAME}: ${(err as Error)?.message ?? String(err)}`;
    }
    return gatedToolResult(text);
  }

  private async run(input: unknown, token: vscode.CancellationToken): Promise<string> {
    if (!isTrusted(this.deps)) {
      this.deps.log.info(`${HANDOVER_TOOL_NAME} refused: the workspace is not trusted (no git process started, nothing written)`);
      return UNTRUSTED_ERROR;
    }
    if (token.isCancellationRequested) return CANCELLED_ERROR;
    const folders = diskFolders();
    const abort = abortOn(token);
    try {
      const outcome = await runHandoverTool(withSettingsDefaults(input, folderOf(input)), {
        defaultRoot: folders[0]?.uri.fsPath,
        allowedRoots: folders.map((f) => f.uri.fsPath),
        from: LM_TOOL_FROM,
        tokenizerFor: (root) => {
          const folder = folderForRoot(root);
          return folder && readSettings(folder).tokenizer;
        },
        environment: async (root) => {
          const folder = folderForRoot(root);
          if (!folder) throw new Error(`no workspace folder for ${root}`);
          return folderEnvironment(folder, this.deps.session, { signal: abort.signal, failWhenCancelled: true });
        },
      });
      if (!outcome.ok) {
        const text = abort.signal.aborted ? CANCELLED_ERROR : outcome.text;
        this.deps.log.warn(`${HANDOVER_TOOL_NAME}: ${text}`);
        return text;
      }
      this.deps.log.info(
        `${HANDOVER_TOOL_NAME}: handoff written by an agent: ${outcome.result.handoff_file} (${outcome.result.package.estimated_tokens}/${outcome.result.package.max_context_tokens} tokens)`,
      );
      outcome.result.warnings.forEach((w) => this.deps.log.warn(w));
      await this.deps.session.ended();
      this.deps.onWritten();
      return outcome.text;
    } finally {
      abort.dispose();
    }
  }
}

/** Empty where this VS Code has no `vscode.lm.registerTool` (logged). */
export function registerLanguageModelTool(deps: AgentDeps): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') {
    deps.log.info(`language model tool ${HANDOVER_TOOL_NAME} not registered: VS Code ${vscode.version} has no vscode.lm.registerTool`);
    return [];
  }
  return [vscode.lm.registerTool(HANDOVER_TOOL_NAME, new HandoverLanguageModelTool(deps))];
}
