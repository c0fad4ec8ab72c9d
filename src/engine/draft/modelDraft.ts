/**
 * "Draft with …": the editor's language model drafts the free-text fields from redacted evidence, on the user's
 * click only. The model comes through a port so the engine never imports `vscode`; nothing here writes a file.
 */
import * as z from 'zod';
import type { SessionDraft, DraftItem, Provenance } from '../../core/handoff/draftFields';
import { composeError, type JobError } from '../../core/handoff/errors';
import { sanitizeTexts } from '../../core/safety/gate';
import type { DraftEvidence } from './evidenceDraft';
import { buildModelPrompt, describeLeftOut, MODEL_DRAFT_EVIDENCE_TOKENS, type PromptSection } from './modelPrompt';
import { counterFor } from '../tokenizers/tokenizer';

/** `countTokens` is in the model's tokens; `send` rejects on abort (the engine reads `signal.aborted`) or failure. */
export interface ChatModelPort {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly maxInputTokens?: number;
  countTokens(text: string): Promise<number>;
  send(prompt: string, signal: AbortSignal): Promise<string>;
}

export type ModelDraftFields = Pick<SessionDraft, 'summary' | 'decisions' | 'failed_approaches' | 'next_steps'>;

export interface ModelDraft {
  readonly status: 'ok';
  /** Each item's source is `model:<vendor>/<id>` at the time of the answer. */
  readonly fields: ModelDraftFields;
  /** Counted with the model's own `countTokens`. */
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly model: { readonly id: string; readonly name: string; readonly vendor: string };
  readonly sections: readonly PromptSection[];
  readonly left_out: string;
  readonly redactions: Record<string, number>;
}

/** The user cancelled: `sent` says whether the request had gone out (its input tokens are then spent). */
export interface ModelDraftCancelled {
  readonly status: 'cancelled';
  readonly sent: boolean;
  readonly input_tokens: number;
}

export type ModelDraftResult = ModelDraft | ModelDraftCancelled | JobError;

export const MODEL_DRAFT_MAX_ITEMS = 10;

export const MODEL_DRAFT_MAX_ANSWER_CHARS = 20_000;

const item = z.string().trim().min(1).max(2_000);

/** The answer the prompt asks for (modelPrompt.ts `MODEL_DRAFT_INSTRUCTIONS`); other keys are ignored. */
export const ModelAnswerSchema = z.object({
  summary: z.string().trim().min(1).max(4_000),
  decisions: z.array(item).max(MODEL_DRAFT_MAX_ITEMS),
  failed_approaches: z.array(item).max(MODEL_DRAFT_MAX_ITEMS),
  next_steps: z.array(item).max(MODEL_DRAFT_MAX_ITEMS),
});
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

function modelError(problem: string, fix: string, code: JobError['code'] = 'refused'): JobError {
  return {
    status: 'error',
    message: composeError({ subject: 'Draft with the language model:', problem, fix }),
    field: 'model',
    code,
    subject: 'Draft with the language model:',
    problem,
    fix,
  };
}

/** A JSON object, bare or alone in a Markdown fence. All or nothing: never some of the fields. */
export function parseModelAnswer(answer: string): { ok: true; answer: ModelAnswer } | { ok: false; problem: string } {
  if (answer.length > MODEL_DRAFT_MAX_ANSWER_CHARS) {
    return {
      ok: false,
      problem: `the answer is ${answer.length} characters long, over the ${MODEL_DRAFT_MAX_ANSWER_CHARS} expected of the JSON object asked for`,
    };
  }
  let text = answer.trim();
  const fence = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  if (fence) text = fence[1].trim();
  if (!text.startsWith('{')) {
    return { ok: false, problem: `the answer is not the JSON object asked for (it starts with ${JSON.stringify(text.slice(0, 40))})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `the answer is not valid JSON (${(err as Error).message})` };
  }
  const r = ModelAnswerSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, problem: `the answer's ${issue.path.join('.') || 'object'} is wrong: ${issue.message}` };
  }
  return { ok: true, answer: r.data };
}

/**
 * Sends exactly one request, only when called, after the prompt is gated and counted; the answer is parsed whole
 * and gated again. Refused (`field: "model"`) over `maxInputTokens` or when the answer is unusable. Never rejects.
 */
export async function draftWithModel(
  evidence: DraftEvidence,
  model: ChatModelPort,
  signal: AbortSignal,
  opts: { bound?: number; now?: () => Date } = {},
): Promise<ModelDraftResult> {
  const prompt = await buildModelPrompt(evidence, counterFor('o200k_base'), opts.bound ?? MODEL_DRAFT_EVIDENCE_TOKENS);
  if (signal.aborted) return { status: 'cancelled', sent: false, input_tokens: 0 };
  let inputTokens: number;
  try {
    inputTokens = await model.countTokens(prompt.text);
  } catch (err) {
    return modelError(`${model.name} could not count the request's tokens (${(err as Error)?.message ?? String(err)})`, 'try again, or pick another model');
  }
  if (model.maxInputTokens !== undefined && inputTokens > model.maxInputTokens) {
    return modelError(
      `the request is ${inputTokens} tokens, over the ${model.maxInputTokens} that ${model.name} accepts`,
      'pick a model with a larger context window',
    );
  }
  if (signal.aborted) return { status: 'cancelled', sent: false, input_tokens: 0 };
  let answer: string;
  try {
    answer = await model.send(prompt.text, signal);
  } catch (err) {
    if (signal.aborted) return { status: 'cancelled', sent: true, input_tokens: inputTokens };
    return modelError(
      `${model.name} did not answer (${(err as Error)?.message ?? String(err)})`,
      'try again, sign in to the model provider, or pick another model',
    );
  }
  if (signal.aborted) return { status: 'cancelled', sent: true, input_tokens: inputTokens };
  // A port that resolves with something other than text is a failed answer, not a crash.
  if (typeof answer !== 'string') {
    return modelError(
      `${model.name} gave an answer that cannot be used: it is not text (${answer === null ? 'null' : typeof answer})`,
      'no field was changed; try again or fill the fields by hand',
    );
  }
  const parsed = parseModelAnswer(answer);
  if (!parsed.ok) {
    return modelError(`${model.name} gave an answer that cannot be used: ${parsed.problem}`, 'no field was changed; try again or fill the fields by hand');
  }
  const outputTokens = await model.countTokens(answer).catch(() => 0);
  const a = parsed.answer;
  const gated = (await sanitizeTexts([a.summary, ...a.decisions, ...a.failed_approaches, ...a.next_steps], 'strip')).texts;
  // Only invisible characters passes `min(1)` but is blank once stripped, and would empty the user's summary.
  if (!gated[0].trim()) {
    return modelError(
      `${model.name} gave an answer that cannot be used: its summary is empty once invisible characters are removed`,
      'no field was changed; try again or fill the fields by hand',
    );
  }
  const source: Provenance = { reader: `model:${model.vendor}/${model.id}`, file: null, time: (opts.now?.() ?? new Date()).toISOString() };
  let k = 1;
  const items = (n: number): DraftItem[] =>
    gated
      .slice(k, (k += n))
      .filter((text) => text.trim() !== '')
      .map((text) => ({ text, source }));
  const fields: ModelDraftFields = {
    summary: { text: gated[0], sources: [source] },
    decisions: items(a.decisions.length),
    failed_approaches: items(a.failed_approaches.length),
    next_steps: items(a.next_steps.length),
  };
  return {
    status: 'ok',
    fields,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    model: { id: model.id, name: model.name, vendor: model.vendor },
    sections: prompt.sections,
    left_out: describeLeftOut(prompt.sections),
    redactions: prompt.redactions,
  };
}
