import * as vscode from 'vscode';
import { Commands } from '../constants';
import { SessionService } from './sessionService';

/** Recording starts later (`startRecording`), once activation is done. */
export function registerSession(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): SessionService {
  const session = new SessionService(context, log);
  context.subscriptions.push(
    session,
    vscode.commands.registerCommand(Commands.startNewSession, () => session.startNewSession()),
  );
  return session;
}
