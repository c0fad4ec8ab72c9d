/**
 * The CLI's entry (dist/cli-main.js, esbuild.mjs; the executable dist/cli.js, src/cli/launch.ts,
 * loads it with V8's code cache): before the CLI's modules are even evaluated, a subcommand that counts tokens starts loading its tokenizer
 * on a worker thread (src/engine/tokenizerWorker.ts), so the rank tables load while the
 * process evaluates its modules, runs git and reads the transcript (issue 19: a hook runs
 * under a time limit). Then src/cli/main.ts runs the command, as when it is run itself
 * (`node --require tsx/cjs src/cli/main.ts …`, which only skips this head start).
 *
 * The tokenizer named here is a guess from the command line (`--tokenizer`, else the
 * default o200k_base): when the command ends up counting in another one, that one is
 * loaded in the process as before; the counts never depend on the guess.
 */
import { preloadEncoding } from '../engine/tokenizer';
import type * as Main from './main';

/** Subcommands that count tokens on their way to the output (handoff, draft, record, history excerpt). */
const COUNTING = new Set(['handover', 'hook', 'draft', 'record-result', 'history']);

/** The tokenizer the command line names (`--tokenizer X`, `--tokenizer=X`), else o200k_base; used only to start loading early. */
export function tokenizerGuess(argv: readonly string[]): 'o200k_base' | 'cl100k_base' {
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i] === '--tokenizer' ? argv[i + 1] : argv[i].startsWith('--tokenizer=') ? argv[i].slice('--tokenizer='.length) : undefined;
    if (value === 'cl100k_base') return 'cl100k_base';
  }
  return 'o200k_base';
}

const argv = process.argv.slice(2);
if (COUNTING.has(argv.find((a) => !a.startsWith('-')) ?? '') && !argv.includes('--help') && !argv.includes('-h')) {
  preloadEncoding(tokenizerGuess(argv));
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated after the head start above, on purpose
(require('./main') as typeof Main).runProcess();
