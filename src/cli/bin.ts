/**
 * The CLI bundle's entry (dist/cli-main.js). The launcher (launch.ts) starts the tokenizer's
 * worker first and then loads this bundle, so the rank tables load while the CLI's modules do.
 */
import { adoptEncoding, startEncodingWorker, type PreloadedEncoding } from '../engine/tokenizers/tokenizer';
import { countingTokenizer } from './counting';
import type * as Main from './main';

/** Runs the CLI; `preloaded` is the launcher's tokenizer worker, when the command counts tokens. */
export function main(preloaded?: PreloadedEncoding): void {
  if (preloaded) adoptEncoding(preloaded);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the worker started, on purpose
  (require('./main') as typeof Main).runProcess();
}

if (require.main === module) {
  const name = countingTokenizer(process.argv.slice(2));
  main(name === undefined ? undefined : startEncodingWorker(name));
}
