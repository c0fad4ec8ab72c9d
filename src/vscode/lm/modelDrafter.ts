/**
 * "Draft with …": on the user's click only, sends the redacted evidence to a chat model the
 * user picks and reports each state. Writes nothing: the fields go back for the user to edit.
 */
import * as vscode from 'vscode';
import type { DraftEvidence } from '../../engine/draft/draftSession';
import { draftWithModel, type ModelDraftFields, type ModelDraftResult } from '../../engine/draft/modelDraft';
import { MODEL_DRAFT_EVIDENCE_TOKENS } from '../../engine/draft/modelPrompt';
import { DisposableOwner } from '../lifecycle';
import { availableChatModels, chatModelPort, lmApi, type LmApi } from './chatModels';

/** One state of the draft, as the panel's `modelDraft` message carries it (without `type`); tokens are the model's. */
export interface ModelDraftState {
  state: 'available' | 'unavailable' | 'running' | 'done' | 'cancelled' | 'failed';
  model?: string;
  message?: string;
  input_tokens?: number;
  output_tokens?: number;
  fields?: ModelDraftFields;
}

export type PostModelDraftState = (state: ModelDraftState) => void;

interface ModelItem extends vscode.QuickPickItem {
  readonly model: vscode.LanguageModelChat;
}

/** "github-token ×2, aws-secret ×1": what the gate replaced, by kind. */
function redacted(found: Record<string, number>): string {
  return Object.entries(found)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ×${n}`)
    .join(', ');
}

export function describeModelDraft(r: Extract<ModelDraftResult, { status: 'ok' }>): string {
  const secrets = redacted(r.redactions);
  return [
    `Drafted by ${r.model.name}: ${r.input_tokens} tokens sent, ${r.output_tokens} received.`,
    secrets ? `Redacted before sending: ${secrets}.` : '',
    r.left_out ? `Left out of the request (over its ${MODEL_DRAFT_EVIDENCE_TOKENS}-token bound): ${r.left_out}.` : '',
    'Review the fields: nothing is written until you hand over.',
  ]
    .filter(Boolean)
    .join(' ');
}

export class LanguageModelDrafter extends DisposableOwner {
  private running: AbortController | undefined;
  private lastModelId: string | undefined;

  /** @param log gets each draft's model, cost and outcome, never the prompt */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly api: () => LmApi | undefined = lmApi,
  ) {
    super();
    this.register({ dispose: () => this.cancel() });
  }

  /** The button's state before any request: lists models only, sends nothing. */
  async describe(): Promise<ModelDraftState> {
    const available = await availableChatModels(this.api());
    if (!available.ok) return { state: 'unavailable', message: available.reason };
    const named = available.models.find((m) => m.id === this.lastModelId) ?? (available.models.length === 1 ? available.models[0] : undefined);
    return {
      state: 'available',
      model: named?.name,
      message: available.models.length > 1 ? `${available.models.length} language models: you pick one when you click` : undefined,
    };
  }

  async start(evidence: DraftEvidence, post: PostModelDraftState): Promise<void> {
    await this.draft(evidence, post);
  }

  /** The draft under way then reports `cancelled`. */
  cancel(): void {
    this.running?.abort();
  }

  /** Undefined when no model is available or none was picked: nothing was sent. */
  async draft(evidence: DraftEvidence, post: PostModelDraftState = () => undefined): Promise<ModelDraftResult | undefined> {
    if (this.running) {
      post({ state: 'failed', message: 'A draft with the language model is already running: wait for it or cancel it.' });
      return undefined;
    }
    const available = await availableChatModels(this.api());
    if (!available.ok) {
      this.log.info(`draft with model: ${available.reason}`);
      post({ state: 'unavailable', message: available.reason });
      return undefined;
    }
    const model = await this.pick(available.models);
    if (!model) {
      post({ state: 'cancelled', message: 'No language model picked: nothing was sent.' });
      return undefined;
    }
    this.lastModelId = model.id;
    const abort = new AbortController();
    this.running = abort;
    post({ state: 'running', model: model.name });
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Handoff: drafting with ${model.name}`, cancellable: true },
        (_progress, token) => {
          const sub = token.onCancellationRequested(() => abort.abort());
          return draftWithModel(evidence, chatModelPort(model), abort.signal).finally(() => sub.dispose());
        },
      );
      this.report(result, model.name, post);
      return result;
    } finally {
      this.running = undefined;
    }
  }

  private report(result: ModelDraftResult, name: string, post: PostModelDraftState): void {
    switch (result.status) {
      case 'ok':
        this.log.info(
          `draft with model ${result.model.vendor}/${result.model.id}: ${result.input_tokens} tokens sent, ${result.output_tokens} received${result.left_out ? `; left out: ${result.left_out}` : ''}`,
        );
        post({
          state: 'done',
          model: name,
          input_tokens: result.input_tokens,
          output_tokens: result.output_tokens,
          fields: result.fields,
          message: describeModelDraft(result),
        });
        break;
      case 'cancelled':
        this.log.info(`draft with model ${name}: cancelled ${result.sent ? `after sending (${result.input_tokens} tokens)` : 'before sending'}`);
        post({
          state: 'cancelled',
          model: name,
          input_tokens: result.input_tokens,
          message: result.sent ? `Cancelled: the request (${result.input_tokens} tokens) had been sent; no field was changed.` : 'Cancelled: nothing was sent.',
        });
        break;
      default:
        this.log.warn(`draft with model ${name}: ${result.message}`);
        post({ state: 'failed', model: name, message: result.message.replace(/^ERROR: /, '') });
    }
  }

  private async pick(models: readonly vscode.LanguageModelChat[]): Promise<vscode.LanguageModelChat | undefined> {
    if (models.length === 1) return models[0];
    const items: ModelItem[] = models.map((m) => ({
      label: m.name,
      description: `${m.vendor} · ${m.family}`,
      detail: m.maxInputTokens > 0 ? `${m.maxInputTokens} input tokens` : undefined,
      model: m,
    }));
    items.sort((a, b) => Number(b.model.id === this.lastModelId) - Number(a.model.id === this.lastModelId));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Draft with …',
      placeHolder: 'Pick the language model that drafts the handoff (one request, the redacted evidence)',
    });
    return picked?.model;
  }
}
