/**
 * The full history behind a handoff (Agent Zero's stage 2), capped at a token budget: tool output goes first, oldest first;
 * then whole turns and commands in the middle, the first and latest turns kept; only then is a turn too big alone cut.
 */
import { codeSpan } from '../handoff/codeSpan';
import { formatCount } from '../handoff/limits';
import { plural } from '../handoff/text';
import type { TokenCounter } from '../handoff/tokens';

/** Agent Zero's stage-2 cap, also the most a caller may ask for. */
export const DEFAULT_HISTORY_MAX_TOKENS = 50_000;
/** Room for the header and the first and latest turns. */
export const MIN_HISTORY_MAX_TOKENS = 1_000;

/** `system`: user-role text the agent's tool injected. */
export interface HistoryTurn {
  readonly kind: 'turn';
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly text: string;
  readonly time?: string;
  readonly source: string;
}

/** `exit_code` null: the format does not say; `failed`: it says so without a code; `ran` false: rejected or interrupted. */
export interface HistoryCommand {
  readonly kind: 'command';
  readonly command: string;
  readonly cwd?: string | null;
  readonly exit_code: number | null;
  readonly failed?: boolean;
  readonly ran: boolean;
  readonly output?: string;
  readonly time?: string;
  readonly source: string;
}

export type HistoryItem = HistoryTurn | HistoryCommand;

/** `outputs`: commands kept without their output; `cut_turns`: first or latest turns cut in their middle. */
export interface HistoryElided {
  readonly turns: number;
  readonly commands: number;
  readonly outputs: number;
  readonly output_chars: number;
  readonly cut_turns: number;
  readonly cut_chars: number;
}

/** `from` null: the transcripts' start; `to`: the handoff's `created`. */
export interface HistoryInput {
  readonly handoff_id: string;
  readonly from: string | null;
  readonly to: string;
  readonly sources: readonly string[];
  readonly items: readonly HistoryItem[];
  /** Named in the header: the uncut package, when fit-to-budget cut something. */
  readonly package_history_file?: string | null;
}

export interface RenderedHistory {
  readonly text: string;
  readonly tokens: number;
  readonly estimated: boolean;
  readonly total: { readonly turns: number; readonly commands: number };
  readonly elided: HistoryElided;
}

interface Block {
  readonly item: HistoryItem;
  readonly n: number;
  readonly full: string;
  readonly bare: string;
  readonly fullTokens: number;
  readonly bareTokens: number;
}

/** One more backtick than the longest run in `text` (CommonMark §4.5). */
function fence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function fenced(text: string, info = ''): string {
  const f = fence(text);
  return `${f}${info}\n${text.replace(/\n+$/, '')}\n${f}`;
}

function ending(c: HistoryCommand): string {
  if (!c.ran) return 'did not run (rejected or interrupted)';
  if (c.exit_code !== null) return `exit ${c.exit_code}`;
  return c.failed ? 'failed' : 'exit code not recorded';
}

/** A line posing as the history's own structure: a turn or command heading, the title, or an elision marker. */
const FORGED_STRUCTURE = /^( {0,3})(#{1,6}[ \t]+(?:(?:Turn|Command) [\d,]+ ·|Full history behind handoff)|\[… )/gm;

/** Escapes such lines, so an agent's message cannot pose as a user turn or hide turns behind a fake marker. */
export function safeTurnText(text: string): string {
  return text.replace(FORGED_STRUCTURE, '$1\\$2');
}

function heading(parts: ReadonlyArray<string | undefined>): string {
  return `### ${parts.filter(Boolean).join(' · ')}`;
}

function blockText(item: HistoryItem, n: number, withOutput: boolean, body?: string): string {
  if (item.kind === 'turn') return `${heading([`Turn ${formatCount(n)}`, item.role, item.time, item.source])}\n\n${body ?? item.text}`;
  // The folder is a paragraph of its own: text on the closing fence's line would keep the
  // fence open (CommonMark §4.5), and the rest of the history would render as code.
  const where = item.cwd ? `\n\nRan in ${codeSpan(item.cwd)}.` : '';
  const head = `${heading([`Command ${formatCount(n)}`, ending(item), item.time, item.source])}\n\n${fenced(`$ ${item.command}`, 'sh')}${where}`;
  if (!item.output) return head;
  return withOutput ? `${head}\n\n${fenced(item.output, 'text')}` : `${head}\n\n_Output left out (${plural(item.output.length, 'character')})._`;
}

/** The first and the latest turn (their indexes), else the first and the last item. */
function anchors(items: readonly HistoryItem[]): [number, number] {
  const first = items.findIndex((i) => i.kind === 'turn');
  if (first < 0) return [0, items.length - 1];
  let last = items.length - 1;
  while (items[last].kind !== 'turn') last--;
  return [first, last];
}

function marker(run: readonly Block[], maxTokens: number): string {
  const turns = run.filter((b) => b.item.kind === 'turn');
  const commands = run.filter((b) => b.item.kind === 'command');
  const span = (bs: readonly Block[], noun: string) =>
    bs.length ? `${noun} ${formatCount(bs[0].n)}${bs.length > 1 ? `–${formatCount(bs[bs.length - 1].n)}` : ''}` : '';
  const what = [turns.length ? plural(turns.length, 'turn') : '', commands.length ? plural(commands.length, 'command') : ''].filter(Boolean).join(' and ');
  const numbers = [span(turns, 'turns'), span(commands, 'commands')].filter(Boolean).join(', ');
  const times = [run.find((b) => b.item.time)?.item.time, [...run].reverse().find((b) => b.item.time)?.item.time];
  const when = times[0] ? `, ${times[0] === times[1] ? `at ${times[0]}` : `from ${times[0]} to ${times[1]}`}` : '';
  return `[… ${what} elided here (${numbers}${when}) to stay within ${formatCount(maxTokens)} tokens …]`;
}

/** Cut in its middle at whitespace (two thirds head, one third tail), with a marker naming the characters left out. */
export function cutAtWords(text: string, budget: number, counter: TokenCounter): { text: string; cut: number } {
  if (counter.within(text, budget) !== false) return { text, cut: 0 };
  const note = (n: number) => `\n\n[… ${plural(n, 'character')} of this turn left out to stay within the budget …]\n\n`;
  const room = Math.max(0, budget - (counter.count(note(text.length)).tokens + 2));
  const longest = (limit: number, fromEnd: boolean): number => {
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const part = fromEnd ? text.slice(text.length - mid) : text.slice(0, mid);
      if (counter.within(part, limit) !== false) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  let headLen = longest(Math.floor((room * 2) / 3), false);
  let tailLen = longest(Math.floor(room / 3), true);
  // At whitespace: the head ends before its last partial word, the tail starts after its first.
  const headSpace = text.slice(0, headLen).search(/\s\S*$/);
  headLen = headSpace >= 0 && headLen < text.length && /\S/.test(text[headLen] ?? '') ? headSpace : headLen;
  const tailStart = text.length - tailLen;
  const tailSpace = text.slice(tailStart).search(/\s/);
  tailLen = tailStart > 0 && /\S/.test(text[tailStart - 1] ?? '') ? (tailSpace >= 0 ? tailLen - tailSpace : 0) : tailLen;
  const head = text.slice(0, Math.max(0, headLen)).trimEnd();
  const tail = text.slice(text.length - Math.max(0, tailLen)).trimStart();
  const cut = text.length - head.length - tail.length;
  return { text: `${head}${note(cut)}${tail}`, cut };
}

function header(input: HistoryInput, total: RenderedHistory['total'], elided: HistoryElided, maxTokens: number): string {
  const from = input.from ? `the handoff before it (${input.from})` : 'the start of its transcripts';
  const lines = [
    `# Full history behind handoff ${input.handoff_id}`,
    '',
    `The session's turns, commands and their results from ${from} to the handoff (${input.to}), read again from ${input.sources.length ? input.sources.map((s) => codeSpan(s)).join(', ') : 'no transcript'}: ${plural(total.turns, 'turn')}, ${plural(total.commands, 'command')}. Secrets are redacted.`,
  ];
  if (input.package_history_file)
    lines.push('', `What fit-to-budget cut from the handoff itself (the uncut package) is in ${codeSpan(input.package_history_file)}.`);
  const left: string[] = [];
  if (elided.outputs) left.push(`the output of ${plural(elided.outputs, 'command')} (${plural(elided.output_chars, 'character')}, oldest first)`);
  if (elided.turns || elided.commands)
    left.push(
      `${[elided.turns ? plural(elided.turns, 'turn') : '', elided.commands ? plural(elided.commands, 'command') : ''].filter(Boolean).join(' and ')} in the middle (marked where they were)`,
    );
  if (elided.cut_turns) left.push(`${plural(elided.cut_chars, 'character')} inside ${plural(elided.cut_turns, 'turn')} too long to keep whole`);
  if (left.length) lines.push('', `_Left out to stay within ${formatCount(maxTokens)} tokens: ${left.join('; ')}._`);
  return lines.join('\n');
}

function assemble(
  head: string,
  blocks: readonly Block[],
  keep: readonly boolean[],
  withOutput: readonly boolean[],
  bodies: ReadonlyMap<number, string>,
  maxTokens: number,
): string {
  const parts = [head];
  let run: Block[] = [];
  const flush = () => {
    if (run.length) parts.push(marker(run, maxTokens));
    run = [];
  };
  blocks.forEach((b, i) => {
    if (!keep[i]) {
      run.push(b);
      return;
    }
    flush();
    const body = bodies.get(i);
    parts.push(body !== undefined ? blockText(b.item, b.n, false, body) : withOutput[i] ? b.full : b.bare);
  });
  flush();
  return `${parts.join('\n\n')}\n`;
}

/** Items come in already redacted; turns pass {@link safeTurnText}. The engine checks the range of `maxTokens`. Never throws. */
export function renderFullHistory(input: HistoryInput, opts: { readonly maxTokens: number; readonly counter: TokenCounter }): RenderedHistory {
  const { maxTokens, counter } = opts;
  input = { ...input, items: input.items.map((item) => (item.kind === 'turn' ? { ...item, text: safeTurnText(item.text) } : item)) };
  const tokens = (t: string) => counter.count(t).tokens;
  const seen = { turn: 0, command: 0 };
  const blocks: Block[] = input.items.map((item) => {
    const n = ++seen[item.kind];
    const full = blockText(item, n, true);
    const bare = item.kind === 'command' && item.output ? blockText(item, n, false) : full;
    const fullTokens = tokens(full) + 1;
    return { item, n, full, bare, fullTokens, bareTokens: bare === full ? fullTokens : tokens(bare) + 1 };
  });
  const total = { turns: seen.turn, commands: seen.command };
  let slack = 0;
  for (;;) {
    const plan = planCap(input, blocks, total, maxTokens - slack, counter);
    const text = assemble(header(input, total, plan.elided, maxTokens), blocks, plan.keep, plan.withOutput, plan.bodies, maxTokens);
    const count = counter.count(text);
    // Tokens across block boundaries are not exactly additive: re-plan with the overshoot as slack.
    if (count.tokens <= maxTokens || slack >= maxTokens) return { text, tokens: count.tokens, estimated: count.estimated, total, elided: plan.elided };
    slack += count.tokens - maxTokens + 16;
  }
}

function planCap(input: HistoryInput, blocks: readonly Block[], total: RenderedHistory['total'], budget: number, counter: TokenCounter) {
  const keep = blocks.map(() => true);
  const withOutput = blocks.map(() => true);
  const bodies = new Map<number, string>();
  const elided = { turns: 0, commands: 0, outputs: 0, output_chars: 0, cut_turns: 0, cut_chars: 0 };
  const markerCost = 60;
  const headCost =
    counter.count(header(input, total, { turns: 1e6, commands: 1e6, outputs: 1e6, output_chars: 1e9, cut_turns: 2, cut_chars: 1e9 }, budget)).tokens + 4;
  let used = headCost + blocks.reduce((s, b) => s + b.fullTokens, 0);
  // 1. Tool output first, oldest first.
  for (let i = 0; i < blocks.length && used > budget; i++) {
    const b = blocks[i];
    if (b.full === b.bare) continue;
    withOutput[i] = false;
    used -= b.fullTokens - b.bareTokens;
    elided.outputs++;
    elided.output_chars += (b.item as HistoryCommand).output?.length ?? 0;
  }
  if (used <= budget || !blocks.length) return { keep, withOutput, bodies, elided };
  // 2. The middle, whole blocks: the first and the latest turns always, then the head (a third) and the tail (the rest).
  keep.fill(false);
  const [first, last] = anchors(blocks.map((b) => b.item));
  const cost = (i: number) => blocks[i].bareTokens;
  let room = budget - headCost - 2 * markerCost - cost(first) - (last !== first ? cost(last) : 0);
  keep[first] = keep[last] = true;
  if (room < 0) {
    // 3. The anchors alone exceed the budget: cut the one(s) over their share at whitespace.
    const share = Math.floor((budget - headCost - 2 * markerCost) / (first === last ? 1 : 2));
    for (const i of new Set([first, last])) {
      const item = blocks[i].item;
      if (item.kind !== 'turn' || cost(i) <= share) continue;
      const over = counter.count(blockText(item, blocks[i].n, false, '')).tokens + 2;
      const cut = cutAtWords(item.text, Math.max(1, share - over), counter);
      bodies.set(i, cut.text);
      elided.cut_turns++;
      elided.cut_chars += cut.cut;
    }
  } else {
    // The tail (newest) takes up to two thirds of the room, then the head what fits, then the tail again.
    let t = blocks.length - 1;
    let h = 0;
    const tailLimit = room - Math.floor(room / 3);
    let tailUsed = 0;
    for (; t > h; t--) {
      if (keep[t]) continue;
      if (tailUsed + cost(t) > tailLimit) break;
      keep[t] = true;
      tailUsed += cost(t);
      room -= cost(t);
    }
    for (; h < t; h++) {
      if (keep[h]) continue;
      if (cost(h) > room) break;
      keep[h] = true;
      room -= cost(h);
    }
    for (; t > h; t--) {
      if (keep[t]) continue;
      if (cost(t) > room) break;
      keep[t] = true;
      room -= cost(t);
    }
  }
  elided.outputs = 0;
  elided.output_chars = 0;
  blocks.forEach((b, i) => {
    withOutput[i] = false;
    if (keep[i]) {
      if (b.full !== b.bare && !bodies.has(i)) {
        elided.outputs++;
        elided.output_chars += (b.item as HistoryCommand).output?.length ?? 0;
      }
    } else if (b.item.kind === 'turn') elided.turns++;
    else elided.commands++;
  });
  return { keep, withOutput, bodies, elided };
}
