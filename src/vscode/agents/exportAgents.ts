/**
 * "Handoff: Export Specialists to Agent Folders…". Files edited by hand are kept; replacing them
 * needs a second, modal confirmation.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { errorText, warningText } from '../../core/handoff/errors';
import { Commands } from '../constants';
import { AGENT_TARGETS, folderForTarget, type AgentTarget } from '../../core/specialists/agentFiles';
import { exportAgents, formatExportSummary, type ExportAgentsOk, type ExportAgentsResult } from '../../engine/agents/exportAgents';
import { projectOptions } from '../workspace/environment';
import { trustedFolder, warnRefusal } from '../workspace/trust';

export const EXPORT_AGENTS_COMMAND = Commands.exportAgents;

const TARGET_ITEMS: Record<AgentTarget, { label: string; description: string; detail: string }> = {
  github: {
    label: '.github/agents',
    description: 'VS Code / GitHub Copilot custom agents',
    detail: 'One <id>.agent.md per specialist, with "Hand over to …" buttons to the specialists it usually hands to',
  },
  claude: {
    label: '.claude/agents',
    description: 'Claude Code subagents',
    detail: 'One <id>.md per specialist; Claude Code delegates to it by its mandate',
  },
};

const REFUSALS = warnRefusal({
  noFolder: 'Open a folder first: the specialists are exported into a workspace folder.',
  openFolder: 'Open Folder',
  untrusted: 'Specialist Handoff writes files only in trusted workspaces. Trust this workspace to export the specialists.',
  waitForAnswer: true,
});

/** `{targets: ["github"]}`, for keybindings; anything else asks. */
function targetsFromArgs(args: unknown): AgentTarget[] | undefined {
  const targets = (args as { targets?: unknown } | undefined)?.targets;
  if (!Array.isArray(targets) || targets.length === 0) return undefined;
  return targets.every((t) => AGENT_TARGETS.includes(t as AgentTarget)) ? [...new Set(targets as AgentTarget[])] : undefined;
}

/**
 * Never throws: errors are shown and logged. No argument forces overwriting: only the user
 * confirms that. Undefined when nothing ran.
 */
export async function exportAgentsCommand(log: vscode.LogOutputChannel, args?: unknown): Promise<ExportAgentsResult | undefined> {
  try {
    const folder = await trustedFolder(REFUSALS);
    if (!folder) return undefined;
    const targets = targetsFromArgs(args) ?? (await pickTargets());
    if (!targets) return undefined;
    const env = projectOptions(folder);
    const run = (force: boolean) =>
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Handoff: exporting specialists…' }, () =>
        exportAgents({ target: targets, force }, env),
      );
    const result = await run(false);
    if (result.status === 'error') {
      log.error(`export agents: ${result.message}`);
      void vscode.window.showErrorMessage(errorText(result));
      return result;
    }
    report(log, result);
    if (result.skipped.length === 0 || result.failed.length > 0) {
      void showSummary(log, result, folder.uri.fsPath);
      return result;
    }
    const kept = result.skipped.length;
    const choice = await vscode.window.showWarningMessage(
      `${firstLine(result)} ${kept === 1 ? 'One file differs' : `${kept} files differ`} from what Specialist Handoff writes (edited by hand?) and ${kept === 1 ? 'was' : 'were'} kept.`,
      'Replace Them…',
      'Show Log',
    );
    if (choice === 'Show Log') log.show(true);
    if (choice !== 'Replace Them…') return result;
    const files = result.skipped.map((s) => s.file);
    const confirm = await vscode.window.showWarningMessage(
      `Replace ${kept === 1 ? 'this edited agent file' : `${kept} edited agent files`} with Specialist Handoff's version? Their changes are lost.`,
      { modal: true, detail: files.slice(0, 20).join('\n') + (files.length > 20 ? `\n… and ${files.length - 20} more` : '') },
      'Replace',
    );
    if (confirm !== 'Replace') return result;
    const forced = await run(true);
    if (forced.status === 'error') {
      log.error(`export agents: ${forced.message}`);
      void vscode.window.showErrorMessage(errorText(forced));
      return forced;
    }
    report(log, forced);
    void showSummary(log, forced, folder.uri.fsPath);
    return forced;
  } catch (err) {
    log.error(`export agents: ${(err as Error)?.stack ?? String(err)}`);
    void vscode.window.showErrorMessage(`Specialist Handoff: ${(err as Error)?.message ?? String(err)}`);
    return undefined;
  }
}

async function pickTargets(): Promise<AgentTarget[] | undefined> {
  const items = AGENT_TARGETS.map((t) => ({ ...TARGET_ITEMS[t], picked: true, target: t }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'Export Specialists to Agent Folders',
    placeHolder: 'Where should the specialists be written? Files edited by hand are kept.',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.length === 0) {
    void vscode.window.showInformationMessage('Nothing exported: no folder was picked.');
    return undefined;
  }
  return picked.map((p) => p.target);
}

function firstLine(result: ExportAgentsOk): string {
  return formatExportSummary(result).split('\n')[0];
}

function report(log: vscode.LogOutputChannel, result: ExportAgentsOk): void {
  for (const line of formatExportSummary(result).split('\n')) log.info(`export agents: ${line}`);
  for (const w of result.warnings) log.warn(`export agents: ${warningText(w)}`);
}

async function showSummary(log: vscode.LogOutputChannel, result: ExportAgentsOk, workspaceRoot: string): Promise<void> {
  if (result.failed.length > 0) {
    const pick = await vscode.window.showErrorMessage(`${firstLine(result)} ${errorText(result.failed[0].reason)}`, 'Show Log');
    if (pick) log.show(true);
    return;
  }
  const pick = await vscode.window.showInformationMessage(firstLine(result), 'Reveal in Explorer');
  if (pick) {
    const dir = path.join(workspaceRoot, ...folderForTarget(result.targets[0]).dir.split('/'));
    void vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(dir));
  }
}
