/**
 * dist/cli.js, the `specialist-handoff` executable: switches on Node's module compile cache
 * where the running Node has it (22.1 and later; `NODE_DISABLE_COMPILE_CACHE=1` turns it off),
 * starts the tokenizer's worker thread when the command counts tokens, then loads the CLI bundle
 * and runs it with that worker (src/cli/bin.ts `main`). The cache applies only to modules loaded
 * after it is switched on, hence this separate file; the worker starts here so the rank tables
 * load while the bundle is read, compiled and evaluated.
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
