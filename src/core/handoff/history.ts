// When fit-to-budget cuts anything, the uncut package goes to `history/<id>.md`, capped by keeping its head and tail.
import { renderHandoff, type HandoffMeta } from './render';
import { formatCount } from './limits';
import type { HandoffPackage } from './schema';
import type { Specialist } from '../specialists/registry';
import type { TokenCounter } from './tokens';

/** Agent Zero's `request_full_history` stage-2 cap. */
export const HISTORY_MAX_TOKENS = 50_000;

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

/** The longest start of `line` within `budget` tokens, found by bisection on characters (each probe stops at the budget). */
function headWithin(line: string, counter: TokenCounter, budget: number): string {
  let lo = 0;
  let hi = line.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.within(line.slice(0, mid), budget) !== false) lo = mid;
    else hi = mid - 1;
  }
  // Never end between the two halves of a surrogate pair.
  return /[\ud800-\udbff]$/.test(line.slice(0, lo)) ? line.slice(0, lo - 1) : line.slice(0, lo);
}

function tailWithin(line: string, counter: TokenCounter, budget: number): string {
  let lo = 0;
  let hi = line.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.within(line.slice(line.length - mid), budget) !== false) lo = mid;
    else hi = mid - 1;
  }
  const tail = line.slice(line.length - lo);
  return /^[\udc00-\udfff]/.test(tail) ? tail.slice(1) : tail;
}

/** `partChars`: characters of the one extra line it holds part of (`cut`). */
interface Piece {
  readonly text: string;
  readonly whole: number;
  readonly cut: boolean;
  readonly partChars: number;
}

/** Whole lines while they fit, then as much of the next as the budget holds: one pass plus a bisection of one line. */
function takeHead(lines: readonly string[], counter: TokenCounter, budget: number): Piece {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    // Counting stops at the budget: a long line costs what is left, not its whole length.
    const within = counter.within(`${line}\n`, Math.max(budget - used, Math.floor(budget / 4) + 1));
    const cost = within === false ? Number.POSITIVE_INFINITY : within;
    if (used + cost <= budget) {
      out.push(line);
      used += cost;
      continue;
    }
    // A line longer than a quarter of the budget is cut inside; a shorter one is left out whole.
    const part = cost > budget / 4 ? headWithin(line, counter, budget - used) : '';
    return { text: out.join('\n') + (out.length && part ? '\n' : '') + part, whole: out.length, cut: part.length > 0, partChars: part.length };
  }
  return { text: out.join('\n'), whole: out.length, cut: false, partChars: 0 };
}

function takeTail(lines: readonly string[], counter: TokenCounter, budget: number): Piece {
  const out: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const within = counter.within(`${lines[i]}\n`, Math.max(budget - used, Math.floor(budget / 4) + 1));
    const cost = within === false ? Number.POSITIVE_INFINITY : within;
    if (used + cost <= budget) {
      out.unshift(lines[i]);
      used += cost;
      continue;
    }
    const part = cost > budget / 4 ? tailWithin(lines[i], counter, budget - used) : '';
    return { text: part + (out.length && part ? '\n' : '') + out.join('\n'), whole: out.length, cut: part.length > 0, partChars: part.length };
  }
  return { text: out.join('\n'), whole: out.length, cut: false, partChars: 0 };
}

/**
 * Head 2/3 of the tokens, tail 1/3, with a line saying what was elided between them; a line longer than a quarter of its share is
 * cut inside, so one long summary line keeps its ends. Piece counts do not add up exactly, so the budget is lowered until it fits.
 */
export function capHeadTail(text: string, counter: TokenCounter, maxTokens: number): string {
  if (counter.within(text, maxTokens) !== false) {
    return text;
  }
  const lines = text.split('\n');
  let budget = Math.max(0, maxTokens - 40);
  for (let attempt = 0; ; attempt++) {
    const head = takeHead(lines, counter, Math.floor((budget * 2) / 3));
    // The tail is taken from what the head left: the rest of a line the head cut, then the lines after it.
    const tailLines = head.cut ? [lines[head.whole].slice(head.partChars), ...lines.slice(head.whole + 1)] : lines.slice(head.whole);
    const tail = takeTail(tailLines, counter, budget - Math.floor((budget * 2) / 3));
    const whole = lines.length - head.whole - tail.whole - (head.cut ? 1 : 0) - (tail.cut ? 1 : 0);
    const marker =
      head.cut || tail.cut
        ? `[… ${formatCount(Math.max(0, text.length - head.text.length - tail.text.length))} characters elided to stay within ${formatCount(maxTokens)} tokens …]`
        : `[… ${formatCount(whole)} lines elided to stay within ${formatCount(maxTokens)} tokens …]`;
    const out = `${head.text}\n${marker}\n${tail.text}`;
    const fits = counter.within(out, maxTokens);
    if (fits !== false || budget === 0 || attempt > 20) {
      return fits !== false ? out : marker;
    }
    const over = counter.count(out).tokens - maxTokens;
    budget = Math.max(0, budget - Math.max(over, Math.ceil(budget / 50)));
  }
}
