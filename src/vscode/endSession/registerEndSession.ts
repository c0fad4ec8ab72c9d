/**
 * The palette's part of activation: "Handoff: End Session and Hand Over…"
 * (`handoff.endSession`, with prompts, or without them when called with arguments).
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import type { SessionHooks } from '../workspace/environment';
import type { EndSessionModelDrafter } from '../panel/modelDraftPort';
import { EndSessionCommand } from './endSession';

/**
 * Registers the command; disposed with the extension.
 * @param onWritten called after a handoff was written (refreshes the timeline and the panel's evidence)
 * @param modelDrafter "Draft with …" in the summary step (src/vscode/lm); absent, the step has no such button
 */
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
