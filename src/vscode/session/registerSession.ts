/**
 * The recorded session's part of activation: the session service (session id, recorder,
 * session-log environment) and "Handoff: Start New Session".
 */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { SessionService } from './sessionService';

/**
 * Creates the session service and registers its command; both are disposed with the
 * extension. Recording starts later (`startRecording`), when activation is done.
 */
export function registerSession(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): SessionService {
  const session = new SessionService(context, log);
  context.subscriptions.push(
    session,
    vscode.commands.registerCommand(Commands.startNewSession, () => session.startNewSession()),
  );
  return session;
}
