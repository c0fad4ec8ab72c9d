/** Where "Draft with …" plugs into the panel; the panel never asks a model on its own. */
import type { ModelDraftFieldsSchema, ModelDraftNotification } from '../../core/panel/protocol';
import type * as z from 'zod/mini';
import type { DraftEvidence } from '../../engine/draft/draftSession';

export type PostModelDraft = (message: Omit<ModelDraftNotification, 'type'>) => void;

export interface PanelModelDrafter {
  /** Must not send a model request: selecting models only. */
  describe(): Promise<Omit<ModelDraftNotification, 'type'>>;
  /** Posts `running`, then `done`, `cancelled` or `failed`. */
  start(evidence: DraftEvidence, post: PostModelDraft): Promise<void>;
  /** It then posts `cancelled`. */
  cancel(): void;
}

export type ModelDraftFields = z.infer<typeof ModelDraftFieldsSchema>;

/** `draft` asks the model once; undefined when no model was there to ask (nothing sent). */
export interface EndSessionModelDrafter {
  describe(): Promise<Omit<ModelDraftNotification, 'type'>>;
  cancel(): void;
  draft(
    evidence: DraftEvidence,
    post?: PostModelDraft,
  ): Promise<{ status: 'ok'; fields: ModelDraftFields; input_tokens: number; output_tokens: number } | { status: string; message?: string } | undefined>;
}
