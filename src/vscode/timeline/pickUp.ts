/**
 * A handoff is picked up (`accepted`) when its receiver takes it — the agent starts with the
 * prompt, or the user says so — not when its prompt is copied or put, unsent, in a chat. After
 * a copy or an unsent chat, the notification says what happened and offers *Mark as Picked
 * Up*; only that click (or a terminal agent started with the prompt) changes the status.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { errorText } from '../../core/handoff/errors';
import { setHandoffStatus } from '../../engine/handover/handoffFiles';
import type { SessionHooks } from '../workspace/environment';

/** The notification's action that marks the handoff picked up. */
export const MARK_PICKED_UP = 'Mark as Picked Up';

/** Where a prompt went without its receiver taking it yet, and what to refresh once it is. */
export interface PromptGiven {
  /** The notification's text (what was done with the prompt). */
  readonly message: string;
  /** The handoff the prompt picks up (still pending), or null: nothing to mark. */
  readonly pending: string | null;
  readonly session: SessionHooks;
  readonly log: vscode.LogOutputChannel;
  /** Called with the handoff's path after its status changed (the timeline redraws its row). */
  readonly onTaken: (file: string) => void;
}

/**
 * Shows `given.message`; with a pending handoff, offers {@link MARK_PICKED_UP}, which marks it
 * `accepted` by this session. Resolves when the notification is answered or dismissed; never
 * rejects (a failed status change is shown as an error).
 */
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
