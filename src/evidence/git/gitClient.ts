// The one way this project runs git: simple-git with argument arrays, its unsafe-option guards on, bounded in time
// and processes; a failing git becomes a note the user can act on (docs/DESIGN.md §6).
import type { SimpleGit, SimpleGitOptions } from 'simple-git';
import type * as SimpleGitModule from 'simple-git';
import type { GitProblem } from '../../core/handoff/gitEvidence';
import { clipText } from '../../core/handoff/text';

/** Killed after this long without output. */
export const GIT_BLOCK_TIMEOUT_MS = 120_000;

/** After git exits, how long its output may take to close. */
export const GIT_EXIT_GRACE_MS = 5_000;

/** A bare repository or a .git folder. */
export const NO_WORK_TREE_NOTE = 'Not a git working tree (a bare repository or the .git folder itself) — touched files and commits were not collected';

export function classifyGitFailure(err: unknown): GitProblem {
  const text = String((err as { message?: unknown })?.message ?? err);
  if (/not a git repository/i.test(text)) {
    return 'not_repository';
  }
  if (/must be run in a work tree/i.test(text)) {
    return 'no_work_tree';
  }
  if (/ENOENT|spawn .*git|not found|cannot find/i.test(text)) {
    return 'git_missing';
  }
  return 'failed';
}

export function describeGitFailure(err: unknown, cwd: string): string {
  const text = String((err as { message?: unknown })?.message ?? err);
  const kind = classifyGitFailure(err);
  if (kind === 'git_missing') {
    return 'git is not installed or not on PATH — touched files and commits were not collected; install git (or set "git.path") and hand over again';
  }
  if (kind === 'not_repository') {
    return 'Not a git repository — touched files and commits were not collected; run "git init" in the workspace folder to track its changes';
  }
  if (kind === 'no_work_tree') {
    return NO_WORK_TREE_NOTE;
  }
  if (/bad index|index file corrupt|index file smaller than expected|bad signature 0x/i.test(text)) {
    return 'the repository\'s index (.git/index) is corrupt — touched files were not collected; rebuild it with "rm .git/index && git reset" (your files are kept)';
  }
  if (/dubious ownership/i.test(text)) {
    return `git refuses this repository (dubious ownership): ${cwd} — run "git config --global --add safe.directory ${cwd}" if you trust it`;
  }
  if (/abort/i.test(text)) {
    return 'Collecting git evidence was cancelled';
  }
  const lines = text.split('\n').map((l) => l.trim());
  const line = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines.find((l) => l) ?? text;
  return clipText(`git failed: ${line.replace(/^(fatal|error):\s*/, '')}`, 400);
}

/** `input`: stdin for the commands that read it. */
export interface ClientOptions {
  readonly binary?: string;
  readonly signal?: AbortSignal;
  readonly input?: (commands: readonly string[]) => string | undefined;
}

/** Untrimmed output, `core.quotePath=false`, no colour, at most 3 git processes. */
export function gitClient(baseDir: string, opts: ClientOptions): SimpleGit {
  const options: Partial<SimpleGitOptions> = {
    baseDir,
    binary: opts.binary ?? 'git',
    maxConcurrentProcesses: 3,
    trimmed: false,
    timeout: { block: GIT_BLOCK_TIMEOUT_MS },
    // Done when the output is closed, not shortly after exit (simple-git's default), which could cut a large status
    // short; the exit bound stays for a process that leaves the pipe open.
    completion: { onClose: true, onExit: GIT_EXIT_GRACE_MS },
    config: ['core.quotePath=false', 'color.ui=false'],
  };
  if (opts.signal) {
    options.abort = opts.signal;
  }
  if (opts.input) {
    options.input = opts.input;
  }
  // Required on first use: the bundles load simple-git from its own file (dist/vendor).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('simple-git') as typeof SimpleGitModule).simpleGit(options);
}

/** As bytes: simple-git's UTF-8 decoding would turn a name that is not valid UTF-8 into U+FFFD. */
export async function rawBytes(repoRoot: string, opts: ClientOptions, args: string[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await gitClient(repoRoot, opts)
    .outputHandler((_cmd, stdout) => {
      stdout.on('data', (c: Buffer) => chunks.push(c));
    })
    .raw(args);
  return Buffer.concat(chunks);
}
