/** Copilot Chat as a place to continue; every chat API is feature-detected. */
import * as vscode from 'vscode';

export const COPILOT_CHAT_EXTENSION = 'github.copilot-chat';

/** `{ query, isPartialQuery: true }` fills the input without sending; `mode` names a mode or custom agent. */
export const CHAT_OPEN_COMMAND = 'workbench.action.chat.open';

export const CHAT_NEW_COMMAND = 'workbench.action.chat.newChat';

/** Exists where VS Code builds Copilot Chat in, whose extension stays disabled until the user signs in. */
export const CUSTOM_AGENTS_COMMAND = 'workbench.action.chat.generateAgent';

/** The chat view exists, and Copilot Chat is installed or built in (a new chat then offers the sign-in). */
export async function copilotChatAvailable(): Promise<boolean> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(CHAT_OPEN_COMMAND)) return false;
  return !!vscode.extensions.getExtension(COPILOT_CHAT_EXTENSION) || commands.includes(CUSTOM_AGENTS_COMMAND);
}

/** Opens a new chat holding `prompt`, not sent. @param mode the custom agent's `name:` */
export async function openNewChat(prompt: string, mode?: string): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  await vscode.commands.executeCommand(CHAT_OPEN_COMMAND);
  if (commands.includes(CHAT_NEW_COMMAND)) await vscode.commands.executeCommand(CHAT_NEW_COMMAND);
  await vscode.commands.executeCommand(CHAT_OPEN_COMMAND, { query: prompt, isPartialQuery: true, ...(mode ? { mode } : {}) });
}
