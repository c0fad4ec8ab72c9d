/**
 * The "Continue in …" part of activation: the command (continueIn.ts), its choice kept in
 * the workspace's state.
 */
import type * as vscode from 'vscode';
import type { SessionHooks } from '../workspace/environment';
import { ContinueIn } from './continueIn';

/**
 * Registers "Continue in …"; disposed with the extension.
 * @param onTaken called with a handoff file once continuing marked it accepted (the timeline re-reads it)
 */
export function registerContinue(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, session: SessionHooks, onTaken: (file: string) => void): void {
  context.subscriptions.push(new ContinueIn(log, session, context.workspaceState, onTaken));
}
