import type * as vscode from 'vscode';
import type { SessionHooks } from '../workspace/environment';
import { ContinueIn } from './continueIn';

/** @param onTaken called with a handoff file once continuing marked it accepted */
export function registerContinue(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, session: SessionHooks, onTaken: (file: string) => void): void {
  context.subscriptions.push(new ContinueIn(log, session, context.workspaceState, onTaken));
}
