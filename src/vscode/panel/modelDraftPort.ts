/**
 * Where the "Draft with …" action (issue 15, helper "lm": src/vscode/lm/**) plugs into the
 * panel. The panel only forwards the user's click and the cancel, and posts what the
 * drafter reports; it never asks a model on its own (opening the panel sends no request).
 * Without a drafter the panel answers `unavailable`.
 */
import type { ModelDraftNotification } from '../../core/panel/protocol';
import type { DraftEvidence } from '../../engine/draft';

/** Posts one state of the language-model draft to the webview. */
export type PostModelDraft = (message: Omit<ModelDraftNotification, 'type'>) => void;

/** A language-model drafter the panel calls (implemented by src/vscode/lm). */
export interface PanelModelDrafter {
  /**
   * What the button may say before any request: `available` with the model's name, or
   * `unavailable` with the reason. Must not send a model request (selecting models only).
   */
  describe(): Promise<Omit<ModelDraftNotification, 'type'>>;
  /**
   * The user clicked "Draft with …": draft from `evidence` (the panel's, collected afresh),
   * posting `running`, then `done` (fields, token cost), `cancelled` or `failed`.
   */
  start(evidence: DraftEvidence, post: PostModelDraft): Promise<void>;
  /** The user clicked Cancel: abort the request under way (it then posts `cancelled`). */
  cancel(): void;
}
