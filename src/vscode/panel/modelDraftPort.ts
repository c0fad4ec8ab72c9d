/**
 * Where the "Draft with …" action (helper "lm": src/vscode/lm/**) plugs into the
 * panel. The panel only forwards the user's click and the cancel, and posts what the
 * drafter reports; it never asks a model on its own (opening the panel sends no request).
 * Without a drafter the panel answers `unavailable`.
 */
import type { ModelDraftFieldsSchema, ModelDraftNotification } from '../../core/panel/protocol';
import type * as z from 'zod/mini';
import type { DraftEvidence } from '../../engine/draft/draftSession';

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

/** The four fields a language model drafts, as the panel's protocol carries them. */
export type ModelDraftFields = z.infer<typeof ModelDraftFieldsSchema>;

/**
 * What the end-of-session command needs of the drafter: `describe` as above, and
 * `draft`, which asks the model once (on the user's click) and resolves to the fields
 * (`status: 'ok'`), another status (cancelled, refused: nothing to fill; `message` may say
 * why), or undefined when no model was there to ask (nothing sent).
 */
export interface EndSessionModelDrafter {
  describe(): Promise<Omit<ModelDraftNotification, 'type'>>;
  /** Aborts the request under way. */
  cancel(): void;
  draft(
    evidence: DraftEvidence,
    post?: PostModelDraft,
  ): Promise<{ status: 'ok'; fields: ModelDraftFields; input_tokens: number; output_tokens: number } | { status: string; message?: string } | undefined>;
}
