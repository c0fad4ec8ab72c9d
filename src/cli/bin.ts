/**
 * The CLI's entry (dist/cli-main.js, esbuild.mjs; the executable dist/cli.js, src/cli/launch.ts,
 * loads it with V8's code cache): before the CLI's modules are even evaluated, a subcommand that
 * counts tokens has its tokenizer loading on a worker thread (src/engine/tokenizerWorker.ts) —
 * the one the executable started before it read this bundle, else one started here — so the
 * rank tables load while the process evaluates its modules, runs git and reads the transcript
 * (issue 19: a hook runs under a time limit); a subcommand that finds its workspace with git
 * starts that `git rev-parse` too (`startFindingWorkspace`). Then src/cli/main.ts runs the
 * command, as when it is run itself (`node --require tsx/cjs src/cli/main.ts …`, which only
 * skips this head start).
 *
 * zod's JIT is switched off first of all, for every command but the MCP server (./zodMode.ts,
 * imported first for its effect: zod reads the switch as each schema is built).
 *
 * The tokenizer named here is a guess from the command line (`--tokenizer`, else the
 * default o200k_base): when the command ends up counting in another one, that one is
 * loaded in the process as before; the counts never depend on the guess.
 */
import './zodMode';
import { preloadEncoding } from '../engine/tokenizer';
import { startFindingWorkspace } from '../engine/headStart';
import { countsTokens, findsWorkspace, tokenizerGuess, workspaceGuess } from './headStart';
import type * as Main from './main';

const argv = process.argv.slice(2);
if (countsTokens(argv)) {
  // Takes the encoding dist/cli.js started already (src/cli/launch.ts), else starts it now.
  preloadEncoding(tokenizerGuess(argv));
}
if (findsWorkspace(argv)) {
  startFindingWorkspace(workspaceGuess(argv));
}
// The rest of the CLI is evaluated in the next turn of the event loop: simple-git spawns the
// probe above in this turn's microtasks, so git runs while the modules load.
setImmediate(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated after the head start above, on purpose
  (require('./main') as typeof Main).runProcess();
});
