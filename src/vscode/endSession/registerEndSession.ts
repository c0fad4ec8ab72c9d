import * as vscode from 'vscode';
import { Commands } from '../constants';
import type { SessionHooks } from '../workspace/environment';
import type { EndSessionModelDrafter } from '../panel/modelDraftPort';
import { EndSessionCommand } from './endSession';

/** @param modelDrafter absent: the summary step has no "Draft with …" button */
export function registerEndSession(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  session: SessionHooks,
  onWritten: () => void,
  modelDrafter?: EndSessionModelDrafter,
): void {
  const endSession = new EndSessionCommand(log, session, onWritten, context.workspaceState, modelDrafter);
  context.subscriptions.push(
    endSession,
    vscode.commands.registerCommand(Commands.endSession, (args?: unknown) => endSession.run(args)),
  );
}
