/**
 * The CLI bundle's entry (dist/cli-main.js). The executable dist/cli.js (src/cli/launch.ts)
 * starts the tokenizer's worker thread, then loads this bundle and calls {@link main} with it,
 * so the rank tables load while Node reads and compiles the bundle, evaluates its modules, runs
 * git and reads the transcript (src/engine/tokenizers/tokenizerWorker.ts). Run itself (`node
 * dist/cli-main.js …`), the bundle starts the worker first the same way.
 */
import { adoptEncoding, startEncodingWorker, type PreloadedEncoding } from '../engine/tokenizers/tokenizer';
import { countingTokenizer } from './counting';
import type * as Main from './main';

/**
 * Runs the CLI as the process: `preloaded` (the launcher's worker, when the command counts
 * tokens) is the encoding its counts use; then the CLI's modules load and the command runs.
 */
export function main(preloaded?: PreloadedEncoding): void {
  if (preloaded) adoptEncoding(preloaded);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the worker started, on purpose
  (require('./main') as typeof Main).runProcess();
}

if (require.main === module) {
  const name = countingTokenizer(process.argv.slice(2));
  main(name === undefined ? undefined : startEncodingWorker(name));
}
