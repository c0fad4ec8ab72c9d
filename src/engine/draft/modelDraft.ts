/**
 * "Draft with …": the editor's language model drafts the summary, decisions,
 * failed approaches and next steps from the redacted evidence, on the user's click only. The
 * model comes through a port ({@link ChatModelPort}) so the engine never imports `vscode`: the
 * VS Code adapter (src/vscode/lm/) wraps `vscode.lm`'s `LanguageModelChat`, the tests a
 * deterministic fake.
 *
 *   DraftEvidence ─▶ buildModelPrompt (gate, bound) ─▶ countTokens ─▶ send ─▶ parse (zod) ─▶ fields
 *
 * Nothing here writes a file: the fields go back to the surface, which shows them as drafted by
 * the model for the user to edit or discard.
 */
import { z } from 'zod';
import type { Draft, DraftItem, Provenance } from '../../core/handoff/draftFields';
import { composeError, type HandoverError } from '../../core/handoff/errors';
import { sanitizeTexts } from '../../core/safety/gate';
import type { DraftEvidence } from './draftSession';
import { buildModelPrompt, describeLeftOut, MODEL_DRAFT_EVIDENCE_TOKENS, type PromptSection } from './modelPrompt';
import { counterFor } from '../tokenizers/tokenizer';

/**
 * A chat model as the engine sees it: its `id`, `name` and `vendor` as the editor names them
 * (`vscode.LanguageModelChat`), its `maxInputTokens` when known, its own token count of a text
 * (`countTokens`, in the model's tokens) and `send`, which sends `prompt` as one user message
 * and resolves to the whole answer text. `send` rejects when `signal` aborts (any error; the
 * engine reads `signal.aborted`) or when the model refuses or fails (its message is shown).
 */
export interface ChatModelPort {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  /** Tokens the model accepts in one request, when the editor says (`LanguageModelChat.maxInputTokens`). */
  readonly maxInputTokens?: number;
  countTokens(text: string): Promise<number>;
  send(prompt: string, signal: AbortSignal): Promise<string>;
}

/** The fields a model drafts: the four free-text parts of a handoff, in the draft's shapes. */
export type ModelDraftFields = Pick<Draft, 'summary' | 'decisions' | 'failed_approaches' | 'next_steps'>;

/** A model's draft, with its cost and what the prompt left out. */
export interface ModelDraft {
  readonly status: 'ok';
  /** The four fields, each item's source the model (`reader: "model:<vendor>/<id>"`, the time of the answer). */
  readonly fields: ModelDraftFields;
  /** Tokens of the request, counted with the model's own `countTokens` before it was sent. */
  readonly input_tokens: number;
  /** Tokens of the answer, counted with the model's own `countTokens`. */
  readonly output_tokens: number;
  /** The model that answered (its name as the editor shows it). */
  readonly model: { readonly id: string; readonly name: string; readonly vendor: string };
  /** The prompt's sections with what the bound ({@link MODEL_DRAFT_EVIDENCE_TOKENS}) left out. */
  readonly sections: readonly PromptSection[];
  /** What the bound left out, in words ("12 of 20 recent turns"); '' when nothing. */
  readonly left_out: string;
  /** Secrets replaced before sending (kind → count). */
  readonly redactions: Record<string, number>;
}

/** The user cancelled: `sent` says whether the request had gone out (its input tokens are then spent). */
export interface ModelDraftCancelled {
  readonly status: 'cancelled';
  readonly sent: boolean;
  readonly input_tokens: number;
}

/** What {@link draftWithModel} resolves to; it never rejects. */
export type ModelDraftResult = ModelDraft | ModelDraftCancelled | HandoverError;

/** Each list the model drafts keeps at most 10 items (the prompt asks for that many). */
export const MODEL_DRAFT_MAX_ITEMS = 10;

/** An answer longer than 20,000 characters is refused before parsing (the prompt asks for a short JSON object). */
export const MODEL_DRAFT_MAX_ANSWER_CHARS = 20_000;

const item = z.string().trim().min(1).max(2_000);

/** The answer the prompt asks for (modelPrompt.ts `MODEL_DRAFT_INSTRUCTIONS`); other keys are ignored. */
export const ModelAnswerSchema = z.object({
  summary: z.string().trim().min(1).max(4_000),
  decisions: z.array(item).max(MODEL_DRAFT_MAX_ITEMS),
  failed_approaches: z.array(item).max(MODEL_DRAFT_MAX_ITEMS),
  next_steps: z.array(item).max(MODEL_DRAFT_MAX_ITEMS),
});
/** A parsed answer. */
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

function modelError(problem: string, fix: string, code: HandoverError['code'] = 'refused'): HandoverError {
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

/**
 * Parses a model's answer: one JSON object, bare or as the only content of a Markdown code
 * fence, validated with {@link ModelAnswerSchema}. All or nothing: a malformed answer gives
 * an error naming what is wrong, never some of the fields.
 */
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
 * Drafts the summary, decisions, failed approaches and next steps with `model` from the
 * redacted evidence (prompt and bound: {@link buildModelPrompt}). Sends exactly one request,
 * and only when called: nothing else in the engine calls the port.
 *
 * Steps: the prompt is built and gated; its tokens are counted with `model.countTokens`
 * (`input_tokens`) and refused when over `model.maxInputTokens`; the request is sent; the
 * answer is parsed whole ({@link parseModelAnswer}), its strings pass the gate again, and its
 * tokens are counted (`output_tokens`).
 *
 * @returns the fields and the cost; `cancelled` when `signal` aborts (before sending: nothing
 *   sent); an error (`field: "model"`, code `refused`) when the model fails or its answer is
 *   not the JSON asked for. Never rejects.
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
  // Only invisible characters (zero-width, bidi controls) passes `min(1)` but is blank once stripped:
  // it would empty the user's summary.
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
