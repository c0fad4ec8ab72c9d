/**
 * Stage-2 history (docs/DESIGN.md §4): when fit-to-budget cuts anything, the uncut package goes
 * to `history/<id>.md` so nothing is lost, capped at 50,000 tokens by keeping the head
 * and the tail with an elision marker between them.
 */
import { formatCount, renderHandoff, type HandoffMeta } from './render';
import type { HandoffPackage } from './schema';
import type { Specialist } from '../specialists/registry';
import type { TokenCounter } from './tokens';

/** Cap of a history file: 50,000 tokens (Agent Zero `request_full_history` stage-2 cap). */
export const HISTORY_MAX_TOKENS = 50_000;

/**
 * Renders the uncut package as the history file's text, capped at `maxTokens`.
 * The head keeps 2/3 of the budget and the tail 1/3, cut at line boundaries.
 */
export function renderHistory(
  original: HandoffPackage,
  meta: HandoffMeta,
  specialist: Specialist,
  counter: TokenCounter,
  maxTokens = HISTORY_MAX_TOKENS,
): string {
  const full = renderHandoff(original, { ...meta, historyFile: null }, specialist).replace(
    /^# Handoff to /m,
    `# Full history of handoff ${meta.id} (uncut) — to `,
  );
  return capHeadTail(full, counter, maxTokens);
}

/**
 * Keeps the head and tail of `text` so its token count is at most `maxTokens`, joined by
 * a line `[… N lines elided to stay within M tokens …]`. Text within the cap is returned unchanged.
 */
export function capHeadTail(text: string, counter: TokenCounter, maxTokens: number): string {
  const total = counter.count(text).tokens;
  if (total <= maxTokens) {
    return text;
  }
  const lines = text.split('\n');
  const avg = total / Math.max(1, lines.length);
  // Start from a proportional estimate, then shrink until it fits.
  let keep = Math.max(2, Math.floor((maxTokens * 0.95) / Math.max(avg, 0.01)));
  for (;;) {
    const head = Math.ceil((keep * 2) / 3);
    const tail = Math.max(0, keep - head);
    const elided = lines.length - head - tail;
    const out = [
      ...lines.slice(0, head),
      `[… ${formatCount(elided)} lines elided to stay within ${formatCount(maxTokens)} tokens …]`,
      ...lines.slice(lines.length - tail),
    ].join('\n');
    if (counter.count(out).tokens <= maxTokens) {
      return out;
    }
    if (keep <= 2) {
      return capByCharacters(text, counter, maxTokens);
    }
    keep = Math.floor(keep * 0.9);
  }
}

/** Fallback for text with very long lines: head and tail by characters. */
function capByCharacters(text: string, counter: TokenCounter, maxTokens: number): string {
  let chars = Math.max(16, Math.floor((text.length * maxTokens) / Math.max(1, counter.count(text).tokens)));
  for (;;) {
    const head = Math.ceil((chars * 2) / 3);
    const tail = chars - head;
    const out = `${text.slice(0, head)}\n[… ${formatCount(text.length - chars)} characters elided to stay within ${formatCount(maxTokens)} tokens …]\n${text.slice(text.length - tail)}`;
    if (counter.count(out).tokens <= maxTokens || chars <= 16) {
      return out;
    }
    chars = Math.floor(chars * 0.9);
  }
}
