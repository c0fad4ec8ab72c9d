/**
 * What the CLI's entry (src/cli/bin.ts) reads off the command line to start work before it
 * loads the rest of the CLI (issue 19): which tokenizer to load on a worker thread, and which
 * folder's `git rev-parse` to start (src/engine/headStart.ts). Both are guesses — the command decides for itself later,
 * and a wrong guess only costs the work started. Pure: no I/O, nothing else loaded.
 */

/** The tokenizer the command line names (`--tokenizer X`, `--tokenizer=X`), else o200k_base; used only to start loading early. */
export function tokenizerGuess(argv: readonly string[]): 'o200k_base' | 'cl100k_base' {
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i] === '--tokenizer' ? argv[i + 1] : argv[i].startsWith('--tokenizer=') ? argv[i].slice('--tokenizer='.length) : undefined;
    if (value === 'cl100k_base') return 'cl100k_base';
  }
  return 'o200k_base';
}

/**
 * The folder the command line's workspace most likely is: `--cwd X` / `--cwd=X`, else `.`, the
 * process's working folder (Claude Code runs a hook in the project folder its input names).
 * Only a guess, used to start git early: the command finds its workspace itself.
 * @returns the folder as written (relative to the process's working folder, or absolute)
 */
export function workspaceGuess(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i] === '--cwd' ? argv[i + 1] : argv[i].startsWith('--cwd=') ? argv[i].slice('--cwd='.length) : undefined;
    if (value) return value;
  }
  return '.';
}
