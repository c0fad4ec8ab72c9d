/**
 * Runs the CLI in-process for tests: its exit code and what it printed on stdout and
 * stderr (lines joined with "\n").
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
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

/**
 * Runs the CLI from source in `cwd` with `home` as the user's home: its XDG state and config folders inside it, no
 * system or global git configuration, so only the agents' folders a test writes under `home` are found. `xdgData`
 * false leaves XDG_DATA_HOME unset, so the agents' default `~/.local/share` is the one searched.
 */
export function runCliInHome(cwd: string, home: string, args: readonly string[], opts: { xdgData?: boolean } = {}): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    ...(opts.xdgData === false ? {} : { XDG_DATA_HOME: path.join(home, 'data') }),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  return spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd, env, encoding: 'utf8', timeout: 100_000 });
}
