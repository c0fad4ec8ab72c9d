/** Reads the tokenizer off the command line before the CLI loads, so its worker can start first. */
import type { TokenizerName } from '../core/handoff/schema';

const COUNTING = new Set(['handover', 'hook', 'draft', 'record-result', 'history']);

/** The tokenizer `argv` will count in, or undefined when its subcommand counts none (or `--help`). */
export function countingTokenizer(argv: readonly string[]): TokenizerName | undefined {
  if (!COUNTING.has(argv.find((a) => !a.startsWith('-')) ?? '') || argv.includes('--help') || argv.includes('-h')) return undefined;
  // `hook --agent windsurf` records a Cascade payload and counts nothing; every prompt waits on it.
  if (argv.some((a) => a === '--agent' || a.startsWith('--agent='))) return undefined;
  return argv.some((a) => /^(--tokenizer=)?cl100k_base$/.test(a)) ? 'cl100k_base' : 'o200k_base';
}
