/**
 * Runs the CLI in-process for tests: its exit code and what it printed on stdout and
 * stderr (lines joined with "\n").
 */
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import { commitAll, initRepo, write } from './repo';

/** Node arguments that run the CLI from its TypeScript source (`node …CLI_FROM_SOURCE <subcommand> …`), for tests that need a real process. */
export const CLI_FROM_SOURCE: readonly string[] = ['--require', require.resolve('tsx/cjs'), path.resolve(__dirname, '..', '..', 'src', 'cli', 'main.ts')];

/** Output of one in-process CLI run. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `specialist-handoff ARGS` in `cwd`, in this process. */
export async function cli(args: string[], cwd: string): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A temporary repository with one commit and work on top: a modified `a.txt` and an untracked `b c.txt`. */
export function repoWithWork(): string {
  const dir = initRepo();
  write(dir, 'a.txt', 'a\n');
  commitAll(dir, 'c1');
  write(dir, 'a.txt', 'a\nb\n');
  write(dir, 'b c.txt', 'new\n');
  return dir;
}
