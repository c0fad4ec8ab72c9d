/**
 * dist/cli.js, the `specialist-handoff` executable: switches on Node's module compile cache
 * where the running Node has it (22.1 and later; `NODE_DISABLE_COMPILE_CACHE=1` turns it off),
 * then loads the CLI bundle, so later runs reuse the code V8 compiled for it. The cache applies
 * only to modules loaded after it is switched on, hence this separate file.
 */
import Module from 'node:module';

(Module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the compile cache is on, on purpose
require('./cli-main.js');
