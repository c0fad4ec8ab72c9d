/**
 * Runs the CLI in-process for tests: its exit code and what it printed on stdout and
 * stderr (lines joined with "\n").
 */
import { runCli } from '../../src/cli/main';
import { commitAll, initRepo, write } from './repo';

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
