/**
 * The engine environment of a workspace folder, built one way for every entry point (the
 * panel, the palette, the timeline commands, the language model tool and the chat
 * participant): the handoff folder, git binary, hop limit and interop settings of the
 * folder, the recorded session's id, and its session-log environment.
 */
import type * as vscode from 'vscode';
import type { HandoverEnvironment } from '../../engine/handover';
import type { SessionHooks } from '../endSession/endSession';
import type { HandoffSettings } from './settings';

/**
 * The {@link HandoverEnvironment} for a handoff of `folder` with its `settings`.
 * @param extra fields to add (a cancellation `signal`, …)
 */
export async function folderEnvironment(
  folder: vscode.WorkspaceFolder,
  settings: HandoffSettings,
  session: SessionHooks,
  extra: Partial<HandoverEnvironment> = {},
): Promise<HandoverEnvironment> {
  return {
    workspaceRoot: folder.uri.fsPath,
    handoffDirectory: settings.directory,
    gitBinary: settings.gitPath,
    sessionId: session.sessionId(),
    maxHandoverDepth: settings.maxHandoverDepth,
    interop: settings.interop,
    ...extra,
    ...(await session.environment(folder, settings)),
  };
}
