/**
 * The CLI's exit codes and where it prints: the one interface every subcommand of
 * `specialist-handoff` writes through, so tests run the CLI in-process (docs/CLI.md,
 * "Exit codes").
 */
import { sanitizeOutput } from '../core/safety/gate';

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

/** A {@link CliIo} whose output passes the gate; `flush` resolves once every line was printed. */
export interface GatedIo extends CliIo {
  readonly flush: () => Promise<void>;
}

/**
 * The CLI's output boundary (docs/DESIGN.md §7 "The gate"): every line printed on stdout or
 * stderr passes the output gate (`sanitizeOutput`, `src/core/safety/gate.ts`: secrets
 * redacted, invisible and control characters removed; JSON sanitized value by value), in
 * the order it was printed, across both streams.
 */
export function gateIo(io: CliIo): GatedIo {
  let queue: Promise<void> = Promise.resolve();
  const through = (write: (text: string) => void) => (text: string) => {
    queue = queue.then(async () => write(await sanitizeOutput(text)));
  };
  return { ...io, stdout: through(io.stdout), stderr: through(io.stderr), flush: () => queue };
}
