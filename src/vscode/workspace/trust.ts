/**
 * The one check every command makes before it runs git or writes a file: a folder is
 * open, and the workspace is trusted (VS Code's Workspace Trust: in an untrusted
 * workspace Specialist Handoff starts no git process and writes no file — docs/DESIGN.md
 * §7 "Workspace Trust", docs/ARCHITECTURE.md, "Workspace Trust"). Each surface tells the user why it does
 * nothing in its own words: a notification for the commands, the chat for `@handoff`,
 * nothing for the panel (its view shows the state).
 */
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import { folderHandoffRoot } from './environment';
import { currentFolder, readSettings, type HandoffSettings } from './settings';

/** Why a command does nothing: no folder is open, or the workspace is not trusted. */
export type Refusal = 'no-folder' | 'untrusted';

/** Tells the user why nothing happens; resolves when the surface is done telling. */
export type RefusalTeller = (refusal: Refusal) => void | Thenable<unknown>;

/** The button of an untrusted-workspace warning; it runs VS Code's `workbench.trust.manage`. */
export const MANAGE_TRUST = 'Manage Workspace Trust';

/** VS Code's command behind {@link MANAGE_TRUST}. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/** VS Code's "Open Folder…" command, offered when no folder is open. */
export const OPEN_FOLDER_COMMAND = 'workbench.action.files.openFolder';

/** Whether the workspace is trusted, as VS Code's Workspace Trust says. */
export function workspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/**
 * The folder a command works on — the active editor's folder, else the first one — when
 * the workspace is trusted; undefined otherwise, after `tell` said why (awaited).
 * @param trusted whether the workspace is trusted; default {@link workspaceTrusted} (the agent entry points pass their own, for tests)
 */
export async function trustedFolder(tell?: RefusalTeller, trusted: () => boolean = workspaceTrusted): Promise<vscode.WorkspaceFolder | undefined> {
  const folder = currentFolder();
  const refusal: Refusal | undefined = !folder ? 'no-folder' : !trusted() ? 'untrusted' : undefined;
  if (refusal) {
    await tell?.(refusal);
    return undefined;
  }
  return folder;
}

/** The words of a command's warnings, see {@link warnRefusal}. */
export interface RefusalWords {
  /** The warning when no folder is open. */
  readonly noFolder: string;
  /** Label of a button on it that runs "Open Folder…"; none when absent. */
  readonly openFolder?: string;
  /** The warning in an untrusted workspace; it has the {@link MANAGE_TRUST} button. */
  readonly untrusted: string;
  /** Wait until the user closed the warning (or picked its button) before the command resolves; default: resolve at once. */
  readonly waitForAnswer?: boolean;
}

/**
 * A {@link RefusalTeller} that shows a warning notification in `words`, with its button
 * (Open Folder, Manage Workspace Trust) running the matching VS Code command.
 */
export function warnRefusal(words: RefusalWords): RefusalTeller {
  return async (refusal) => {
    const [message, button, command] =
      refusal === 'no-folder' ? [words.noFolder, words.openFolder, OPEN_FOLDER_COMMAND] : [words.untrusted, MANAGE_TRUST, MANAGE_TRUST_COMMAND];
    const shown = (button ? vscode.window.showWarningMessage(message, button) : vscode.window.showWarningMessage(message)).then((pick) => {
      if (button && pick === button) void vscode.commands.executeCommand(command);
    });
    if (words.waitForAnswer) await shown;
  };
}

/**
 * The trusted folder a command works in, its settings and its handoff root (absolute path):
 * {@link trustedFolder}, then the root from `handoff.directory`. Undefined after telling the
 * user: a refusal through `tell`, an invalid root as an error notification naming the setting.
 */
export async function trustedHandoffRoot(
  tell: RefusalTeller,
): Promise<{ folder: vscode.WorkspaceFolder; settings: HandoffSettings; root: string } | undefined> {
  const folder = await trustedFolder(tell);
  if (!folder) return undefined;
  const settings = readSettings(folder);
  const root = folderHandoffRoot(folder, settings);
  if (!root.ok) {
    void vscode.window.showErrorMessage(errorText(root.error));
    return undefined;
  }
  return { folder, settings, root: root.path };
}
