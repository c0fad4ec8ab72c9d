/**
 * Which tokenizer a command line will count in, read before the CLI is loaded, so its worker
 * thread can start first (src/cli/launch.ts, src/cli/bin.ts; src/engine/tokenizers/tokenizerWorker.ts).
 * The tokenizer named here is read off the command line; when the command counts in another
 * (a project setting), that one loads in the process when first used.
 */
import type { TokenizerName } from '../core/handoff/schema';

/** Subcommands that count tokens on their way to the output. */
const COUNTING = new Set(['handover', 'hook', 'draft', 'record-result', 'history']);

/**
 * The tokenizer `argv` (the arguments after the script) will count in, or undefined when its
 * subcommand counts none (or only asks for its help).
 */
export function countingTokenizer(argv: readonly string[]): TokenizerName | undefined {
  if (!COUNTING.has(argv.find((a) => !a.startsWith('-')) ?? '') || argv.includes('--help') || argv.includes('-h')) return undefined;
  return argv.some((a) => /^(--tokenizer=)?cl100k_base$/.test(a)) ? 'cl100k_base' : 'o200k_base';
}
