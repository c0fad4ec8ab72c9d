/**
 * dist/cli.js, the `specialist-handoff` executable. A separate file because Node's compile cache
 * applies only to modules loaded after it is switched on; the tokenizer's worker starts here so
 * its rank tables load while the CLI bundle is compiled.
 */
import Module from 'node:module';
import { startEncodingWorker } from '../engine/tokenizers/tokenizer';
import type * as Bin from './bin';
import { countingTokenizer } from './counting';

(Module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const name = countingTokenizer(process.argv.slice(2));
const preloaded = name === undefined ? undefined : startEncodingWorker(name);
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the compile cache is on, on purpose
(require('./cli-main.js') as typeof Bin).main(preloaded);
