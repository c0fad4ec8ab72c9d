/**
 * What the CLI's executable (src/cli/launch.ts) and entry (src/cli/bin.ts) read off the command
 * line to start work before they load the rest of the CLI (issue 19): whether and which
 * tokenizer to load on a worker thread, and which folder's `git rev-parse` to start (src/engine/headStart.ts). Both are guesses — the command decides for itself later,
 * and a wrong guess only costs the work started. Pure: no I/O, nothing else loaded.
 */

/** Subcommands that count tokens on their way to the output (handoff, draft, record, history excerpt). */
const COUNTING = new Set(['handover', 'hook', 'draft', 'record-result', 'history']);

/** Subcommands that find their workspace with git first (src/engine/project.ts `workspaceFolderOf`), then collect its evidence. */
const PROBING = new Set(['handover', 'hook', 'draft']);

/** The subcommand the command line runs for real: its first word that is not an option, '' with --help / -h or none. */
function runs(argv: readonly string[]): string {
  return argv.includes('--help') || argv.includes('-h') ? '' : (argv.find((a) => !a.startsWith('-')) ?? '');
}

/**
 * The name under which the executable keeps the code cache of what this command line runs
 * (src/cli/launch.ts): its subcommand (lower-case letters and `-`, at most 40), else `other`
 * (none, --help, --version, anything else). Each subcommand compiles other functions of the
 * bundle, and V8's cache holds those the process that wrote it ran (issue 19).
 */
export function cacheNameOf(argv: readonly string[]): string {
  const command = runs(argv);
  return /^[a-z][a-z-]{0,39}$/.test(command) ? command : 'other';
}

/** Whether the command line runs the MCP server (`mcp`), which lives as long as its client, not one command. */
export function isLongLived(argv: readonly string[]): boolean {
  return runs(argv) === 'mcp';
}

/** Whether the command line runs a subcommand that counts tokens ({@link COUNTING}), other than for its --help. */
export function countsTokens(argv: readonly string[]): boolean {
  return COUNTING.has(runs(argv));
}

/** Whether the command line runs a subcommand that finds its workspace with git ({@link PROBING}), other than for its --help. */
export function findsWorkspace(argv: readonly string[]): boolean {
  return PROBING.has(runs(argv));
}

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

/**
 * V8 flags for this process on a machine with `cores` cores: `--single-threaded-gc` on 2 cores
 * or fewer, else none. A command's main thread and its tokenizer's worker thread keep two
 * cores busy, and V8's garbage-collection helper threads (parallel scavenging, concurrent
 * marking and sweeping) then only compete with them: a hook took 340 -> 314 ms with them off
 * (medians of 40 interleaved runs, 2 cores; issue 19). Every command of the executable gets
 * the same flags, so its code cache entry, which V8 checks against the flags, serves them all.
 */
export function gcFlags(cores: number): string[] {
  return cores <= 2 ? ['--single-threaded-gc'] : [];
}
