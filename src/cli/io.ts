/**
 * The CLI's exit codes and where it prints: the one interface every subcommand of
 * `specialist-handoff` writes through, so tests run the CLI in-process (docs/CLI.md,
 * "Exit codes").
 */

/** Exit code for success. */
export const EXIT_OK = 0;
/** Exit code when the handoff could not be written (I/O), and for every failure of `hook`. */
export const EXIT_FAILURE = 1;
/** Exit code for bad input: unknown option, invalid value, unknown specialist. */
export const EXIT_BAD_INPUT = 2;

/** Where the CLI prints; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Working directory used when `--cwd` is not given. */
  readonly cwd: string;
  /**
   * Reads standard input whole (`hook` reads Claude Code's JSON there), at most
   * `maxBytes` bytes; an `{error}` when it is a terminal, too large or unreadable.
   * Default: the process's standard input.
   */
  readonly readStdin?: (maxBytes: number) => Promise<string | { error: string }>;
}
