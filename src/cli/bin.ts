/**
 * The CLI bundle's entry (dist/cli-main.js, which the executable dist/cli.js loads: src/cli/launch.ts).
 * A subcommand that counts tokens starts loading its tokenizer on a worker thread before the
 * rest of the CLI is loaded, so the rank tables load while the command loads its modules, runs
 * git and reads the transcript (src/engine/tokenizerWorker.ts). The tokenizer named here is read
 * off the command line; when the command counts in another, that one loads in the process.
 */
import { preloadEncoding } from '../engine/tokenizer';
import type * as Main from './main';

/** Subcommands that count tokens on their way to the output. */
const COUNTING = new Set(['handover', 'hook', 'draft', 'record-result', 'history']);

const argv = process.argv.slice(2);
if (COUNTING.has(argv.find((a) => !a.startsWith('-')) ?? '') && !argv.includes('--help') && !argv.includes('-h')) {
  preloadEncoding(argv.some((a) => /^(--tokenizer=)?cl100k_base$/.test(a)) ? 'cl100k_base' : 'o200k_base');
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the worker started, on purpose
(require('./main') as typeof Main).runProcess();
