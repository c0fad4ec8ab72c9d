/** Before running git or writing a file, every command checks a folder is open and trusted. */
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import { folderHandoffRoot } from './environment';
import { currentFolder, readSettings, type HandoffSettings } from './settings';

export type Refusal = 'no-folder' | 'untrusted';

export type RefusalTeller = (refusal: Refusal) => void | Thenable<unknown>;

export const MANAGE_TRUST = 'Manage Workspace Trust';

export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

export const OPEN_FOLDER_COMMAND = 'workbench.action.files.openFolder';

export function workspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** Undefined when no folder is open or the workspace is untrusted, after awaiting `tell`. */
export async function trustedFolder(tell?: RefusalTeller, trusted: () => boolean = workspaceTrusted): Promise<vscode.WorkspaceFolder | undefined> {
  const folder = currentFolder();
  const refusal: Refusal | undefined = !folder ? 'no-folder' : !trusted() ? 'untrusted' : undefined;
  if (refusal) {
    await tell?.(refusal);
    return undefined;
  }
  return folder;
}

export interface RefusalWords {
  readonly noFolder: string;
  /** Label of an "Open Folder…" button; none when absent. */
  readonly openFolder?: string;
  readonly untrusted: string;
  /** Resolve only once the user closed the warning or picked its button. */
  readonly waitForAnswer?: boolean;
}

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

/** Undefined after telling the user: a refusal through `tell`, an invalid root as an error naming the setting. */
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
