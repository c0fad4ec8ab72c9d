/**
 * A deterministic chat model for the tests of "Draft with …" (src/engine/draft/modelDraft.ts): it
 * implements the engine's `ChatModelPort`, answers a fixed text, records every request it gets
 * and counts tokens as one per four characters (its own tokenizer, as a real model has one).
 * The host tests' test extension (test/integration/chatModelExtension) answers the same way.
 */
import type { ChatModelPort } from '../../src/engine/draft/modelDraft';

/** A fake model and what it saw. */
export interface FakeChatModel extends ChatModelPort {
  /** Prompts sent, in order. */
  readonly requests: string[];
  /** Texts counted, in order. */
  readonly counted: string[];
}

/** The JSON draft the fake answers by default (the test extension answers the same). */
export const FIXED_MODEL_ANSWER = JSON.stringify({
  summary: 'Login tests fixed: the session cookie is now set before the redirect.',
  decisions: ['Kept the cookie name to stay compatible with the mobile client.'],
  failed_approaches: ['Mocking the clock in the login test did not help: the failure was the cookie order.'],
  next_steps: ['Run the whole suite once more.', 'Open the pull request.'],
});

/** One token per four characters, rounded up: the fake model's own count. */
export function fakeTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A fake model answering `answer` (a text, or a function of the prompt). `hang` makes `send`
 * wait until its signal aborts (then it rejects, as a cancelled request does).
 */
export function fakeChatModel(
  opts: { answer?: string | ((prompt: string) => string); hang?: boolean; fail?: string; maxInputTokens?: number; name?: string } = {},
): FakeChatModel {
  const requests: string[] = [];
  const counted: string[] = [];
  return {
    id: 'fake-draft-1',
    name: opts.name ?? 'Fake Draft Model',
    vendor: 'handoff-test',
    maxInputTokens: opts.maxInputTokens,
    requests,
    counted,
    countTokens(text: string) {
      counted.push(text);
      return Promise.resolve(fakeTokenCount(text));
    },
    send(prompt: string, signal: AbortSignal) {
      requests.push(prompt);
      if (opts.fail) return Promise.reject(new Error(opts.fail));
      if (opts.hang) {
        return new Promise<string>((_, reject) => {
          if (signal.aborted) reject(new Error('Canceled'));
          signal.addEventListener('abort', () => reject(new Error('Canceled')), { once: true });
        });
      }
      const a = opts.answer ?? FIXED_MODEL_ANSWER;
      return Promise.resolve(typeof a === 'function' ? a(prompt) : a);
    },
  };
}
