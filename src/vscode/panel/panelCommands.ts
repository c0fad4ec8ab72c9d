/** The webview buttons that run a VS Code command (`runCommand` messages). */
import * as vscode from 'vscode';
import type { WebviewToHost } from '../../core/panel/protocol';
import { Commands } from '../constants';
import { MANAGE_TRUST_COMMAND, OPEN_FOLDER_COMMAND } from '../workspace/trust';

export type PanelCommand = Extract<WebviewToHost, { type: 'runCommand' }>['command'];

/**
 * @param evidenceChanged called after `git init`, so the evidence is collected again
 * @param handoff the file copy-prompt and open-in-chat act on; absent, the newest
 */
export async function runPanelCommand(command: PanelCommand, evidenceChanged: () => void, handoff?: string): Promise<void> {
  const target = handoff === undefined ? [] : [vscode.Uri.file(handoff)];
  switch (command) {
    case 'endSession':
      await vscode.commands.executeCommand(Commands.endSession);
      break;
    case 'manageTrust':
      await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
      break;
    case 'openFolder':
      await vscode.commands.executeCommand(OPEN_FOLDER_COMMAND);
      break;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'handoff.');
      break;
    case 'openHandoffFolder':
      await vscode.commands.executeCommand(Commands.openHandoffFolder);
      break;
    case 'initRepository':
      await vscode.commands.executeCommand('git.init');
      evidenceChanged();
      break;
    case 'copyPrompt':
      await vscode.commands.executeCommand(Commands.copyPrompt, ...target);
      break;
    case 'openInChat':
      await vscode.commands.executeCommand(Commands.openInChat, ...target);
      break;
    case 'openGitSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'git.path');
      break;
  }
}
