/** The editor's chat models (`vscode.lm`, feature-detected) and one model as the engine's `ChatModelPort`. */
import * as vscode from 'vscode';
import type { ChatModelPort } from '../../engine/draft/modelDraft';

export const NO_MODEL_MESSAGE = 'No language model is available in this VS Code: install or sign in to a chat model provider (e.g. GitHub Copilot)';

export const NO_LM_API_MESSAGE =
  'This VS Code has no language model API (vscode.lm): update VS Code, then install or sign in to a chat model provider (e.g. GitHub Copilot)';

/** Shown in VS Code's consent dialog when it asks to let this extension use a model. */
export const JUSTIFICATION =
  'Specialist Handoff drafts the summary, decisions, failed approaches and next steps of your handoff from the redacted session evidence, when you click "Draft with …".';

export type ChatModelsAvailability =
  { readonly ok: true; readonly models: readonly vscode.LanguageModelChat[] } | { readonly ok: false; readonly reason: string };

export interface LmApi {
  selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]>;
}

export function lmApi(): LmApi | undefined {
  const lm = (vscode as { lm?: Partial<LmApi> }).lm;
  return lm && typeof lm.selectChatModels === 'function' ? (lm as LmApi) : undefined;
}

/** Never rejects: a listing failure comes back as a reason. Listing sends no request and asks no consent. */
export async function availableChatModels(api: LmApi | undefined = lmApi()): Promise<ChatModelsAvailability> {
  if (!api) return { ok: false, reason: NO_LM_API_MESSAGE };
  try {
    const models = await api.selectChatModels();
    return models.length > 0 ? { ok: true, models } : { ok: false, reason: NO_MODEL_MESSAGE };
  } catch (err) {
    return { ok: false, reason: `${NO_MODEL_MESSAGE} (${(err as Error)?.message ?? String(err)})` };
  }
}

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

/** Aborting the signal cancels the request; `send` then rejects with the reason in words. */
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
