/** The CLI's exit codes and output interface; every subcommand prints through it, so tests run in-process. */
import { sanitizeOutput } from '../core/safety/gate';

export const EXIT_OK = 0;
/** Exit code when a write or read failed, for internal failures, and for every failure of `hook`. */
export const EXIT_FAILURE = 1;
/** Exit code for bad input: unknown option, invalid value, unknown specialist. */
export const EXIT_BAD_INPUT = 2;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Used when `--cwd` is not given. */
  readonly cwd: string;
  /** Reads standard input whole (at most `maxBytes`); `{error}` for a terminal, too large or unreadable. */
  readonly readStdin?: (maxBytes: number) => Promise<string | { error: string }>;
}

/** `flush` resolves once every line was printed. */
export interface GatedIo extends CliIo {
  readonly flush: () => Promise<void>;
}

/**
 * The CLI's output boundary: every line on stdout or stderr passes `sanitizeOutput` (secrets
 * redacted, control characters removed), in the order printed across both streams.
 */
export function gateIo(io: CliIo): GatedIo {
  let queue: Promise<void> = Promise.resolve();
  const through = (write: (text: string) => void) => (text: string) => {
    queue = queue.then(async () => write(await sanitizeOutput(text)));
  };
  return { ...io, stdout: through(io.stdout), stderr: through(io.stderr), flush: () => queue };
}
