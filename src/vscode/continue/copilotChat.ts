/**
 * Copilot Chat as a place to continue a handoff: whether this VS Code has it, and opening a
 * new chat with the receiving prompt in its input, not sent, in the specialist's exported
 * custom agent where there is one. Every API is feature-detected (engines.vscode is
 * ^1.99.0): the chat commands by `getCommands`, custom agents by the `mode` argument, which
 * VS Code ignores where it names no mode it knows.
 */
import * as vscode from 'vscode';

/** The extension that brings Copilot Chat: installed from the marketplace up to 1.104, built in since. */
export const COPILOT_CHAT_EXTENSION = 'github.copilot-chat';

/** Opens the chat view; with `{ query, isPartialQuery: true }` puts the query in its input without sending it; `mode` selects a mode or custom agent by name (1.99: ask, edit, agent; later also custom agents). */
export const CHAT_OPEN_COMMAND = 'workbench.action.chat.open';

/** Starts a new chat session in the chat view (1.99 and later). */
export const CHAT_NEW_COMMAND = 'workbench.action.chat.newChat';

/**
 * "Generate Custom Agent": present where VS Code has custom agents (`.agent.md`, 1.106+),
 * which also build Copilot Chat in — its extension stays disabled until the user signs in
 * through the chat view's setup, so it cannot be asked for then.
 */
export const CUSTOM_AGENTS_COMMAND = 'workbench.action.chat.generateAgent';

/**
 * Whether Copilot Chat is here: the chat view's open command exists, and the Copilot Chat
 * extension is installed (1.99–1.104: from the marketplace) or VS Code builds it in (the
 * custom-agents command exists; a new chat there offers the sign-in when needed).
 */
export async function copilotChatAvailable(): Promise<boolean> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(CHAT_OPEN_COMMAND)) return false;
  return !!vscode.extensions.getExtension(COPILOT_CHAT_EXTENSION) || commands.includes(CUSTOM_AGENTS_COMMAND);
}

/**
 * Opens a new chat holding `prompt` (not sent): reveals the chat view, starts a new session
 * where the command exists, then fills the input.
 * @param mode the custom agent's name (its `name:` in `.github/agents/<id>.agent.md`)
 */
export async function openNewChat(prompt: string, mode?: string): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  await vscode.commands.executeCommand(CHAT_OPEN_COMMAND);
  if (commands.includes(CHAT_NEW_COMMAND)) await vscode.commands.executeCommand(CHAT_NEW_COMMAND);
  await vscode.commands.executeCommand(CHAT_OPEN_COMMAND, { query: prompt, isPartialQuery: true, ...(mode ? { mode } : {}) });
}
