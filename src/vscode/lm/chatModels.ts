/**
 * The editor's chat models for "Draft with …", over `vscode.lm`: which models
 * VS Code offers (`vscode.lm.selectChatModels`, feature-detected: VS Code 1.99 has the API but
 * usually no model without a chat provider such as GitHub Copilot), and one model as the
 * engine's port (`ChatModelPort`, src/engine/draft/modelDraft.ts): its token count and one request
 * of one user message, its AbortSignal turned into a CancellationToken.
 *
 * Selecting models sends no request: only `send` does.
 */
import * as vscode from 'vscode';
import type { ChatModelPort } from '../../engine/draft/modelDraft';

/** What the action says when VS Code offers no chat model (1.99 without a provider, or no sign-in). */
export const NO_MODEL_MESSAGE = 'No language model is available in this VS Code: install or sign in to a chat model provider (e.g. GitHub Copilot)';

/** What the action says when the VS Code running it has no `vscode.lm` at all. */
export const NO_LM_API_MESSAGE =
  'This VS Code has no language model API (vscode.lm): update VS Code, then install or sign in to a chat model provider (e.g. GitHub Copilot)';

/** Shown in VS Code's consent dialog when it asks the user to let this extension use a model. */
export const JUSTIFICATION =
  'Specialist Handoff drafts the summary, decisions, failed approaches and next steps of your handoff from the redacted session evidence, when you click "Draft with …".';

/** The models VS Code offers, or why there are none. */
export type ChatModelsAvailability =
  { readonly ok: true; readonly models: readonly vscode.LanguageModelChat[] } | { readonly ok: false; readonly reason: string };

/** The part of `vscode.lm` used here (the tests of the adapter give their own). */
export interface LmApi {
  selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]>;
}

/** `vscode.lm` when this VS Code has it with `selectChatModels`, else undefined. */
export function lmApi(): LmApi | undefined {
  const lm = (vscode as { lm?: Partial<LmApi> }).lm;
  return lm && typeof lm.selectChatModels === 'function' ? (lm as LmApi) : undefined;
}

/**
 * The chat models VS Code offers now (every vendor), by `vscode.lm.selectChatModels()`: no
 * request is sent, and VS Code asks no consent for listing. Never rejects: a failure of the
 * listing is a reason like no model.
 */
export async function availableChatModels(api: LmApi | undefined = lmApi()): Promise<ChatModelsAvailability> {
  if (!api) return { ok: false, reason: NO_LM_API_MESSAGE };
  try {
    const models = await api.selectChatModels();
    return models.length > 0 ? { ok: true, models } : { ok: false, reason: NO_MODEL_MESSAGE };
  } catch (err) {
    return { ok: false, reason: `${NO_MODEL_MESSAGE} (${(err as Error)?.message ?? String(err)})` };
  }
}

/** A `LanguageModelError`'s reason in words (VS Code's codes: NoPermissions, Blocked, NotFound). */
function describeModelError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  switch (e?.code) {
    case 'NoPermissions':
      return `permission to use the model was not given${e.message ? `: ${e.message}` : ''}`;
    case 'Blocked':
      return `the request was blocked (quota or rate limit)${e.message ? `: ${e.message}` : ''}`;
    case 'NotFound':
      return `the model is no longer available${e.message ? `: ${e.message}` : ''}`;
    default:
      return e?.message ?? String(err);
  }
}

/**
 * `model` as the engine's port: `countTokens` by the model itself, `send` as one request of
 * one user message (`LanguageModelChatMessage.User(prompt)`), the answer's text parts joined.
 * Aborting the signal cancels the request's CancellationToken; `send` then rejects.
 */
export function chatModelPort(model: vscode.LanguageModelChat): ChatModelPort {
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    maxInputTokens: model.maxInputTokens > 0 ? model.maxInputTokens : undefined,
    countTokens: async (text) => model.countTokens(text),
    send: async (prompt, signal) => {
      const cts = new vscode.CancellationTokenSource();
      const onAbort = () => cts.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], { justification: JUSTIFICATION }, cts.token);
        let text = '';
        for await (const part of response.text) {
          text += part;
        }
        return text;
      } catch (err) {
        throw new Error(describeModelError(err), { cause: err });
      } finally {
        signal.removeEventListener('abort', onAbort);
        cts.dispose();
      }
    },
  };
}
