/** A handoff is picked up (`accepted`) when its receiver takes it, not when its prompt is copied or put unsent in a chat. */
import path from 'node:path';
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import { setHandoffStatus } from '../../engine/handover/handoffFiles';
import type { SessionHooks } from '../workspace/environment';

export const MARK_PICKED_UP = 'Mark as Picked Up';

export interface PromptGiven {
  readonly message: string;
  /** Null: nothing to mark. */
  readonly pending: string | null;
  readonly session: SessionHooks;
  readonly log: vscode.LogOutputChannel;
  readonly onTaken: (file: string) => void;
}

/** Never rejects: a failed status change is shown as an error. */
export async function offerPickUp(given: PromptGiven): Promise<void> {
  if (!given.pending) {
    await vscode.window.showInformationMessage(given.message);
    return;
  }
  const file = given.pending;
  const choice = await vscode.window.showInformationMessage(`${given.message} When the receiver has taken it, mark it picked up.`, MARK_PICKED_UP);
  if (choice !== MARK_PICKED_UP) return;
  const r = await setHandoffStatus(file, 'accepted', { at: new Date().toISOString(), session_id: given.session.sessionId() });
  if (!r.ok) {
    given.log.error(errorText(r));
    void vscode.window.showErrorMessage(`${path.basename(file)} was not marked picked up: ${errorText(r).replace(/^ERROR: /, '')}`);
    return;
  }
  given.onTaken(file);
}
