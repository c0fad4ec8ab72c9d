/**
 * The CLI rows: `specialist-handoff handover` and `specialist-handoff hook` as a hook or a
 * terminal runs them — a whole `node dist/cli.js …` process on a small real git repository —
 * beside a bare `node -e 0` of the same Node (the process start no CLI can avoid), on the
 * machine's Node and on the current LTS (Node 24, test/helpers/nodeLts.ts). Goal on the LTS:
 * each ≤ 5× the bare start (Claude Code gives its SessionEnd hooks 1.5 s together unless one
 * declares a longer timeout; a loaded machine stretches every hook); on Node 20, past its end of
 * life, the rows are shown without a goal. Peak RSS of each process too (`/proc/<pid>/status`
 * VmHWM, read by a wrapper as the process exits; Linux only, else not shown). Two more rows, without a
 * goal, load the CLI's tokenizer alone and count once, in the process and on a worker thread as
 * dist/cli.js starts it: the floors under the other two (every handoff states its exact token count).
 *
 * Each run gets a fresh temporary HOME and XDG folders, so the session-log discovery reads
 * none of the real home's agent logs, and the CLI's state (the session id, the session-log
 * position) starts empty every run; the repository's .handoff folder is removed before each
 * run, so every run writes the project's first handoff. `hook` reads a Claude Code `SessionEnd` hook input (the
 * documented fields: session_id, transcript_path, cwd, hook_event_name, reason) pointing at a
 * small Claude Code transcript (test/helpers/claudeSession.ts, Claude Code's JSONL).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeClaudeSession } from '../test/helpers/claudeSession';
import { ENV } from './repo';

/** The goal on the Node LTS: the whole CLI process ≤ 5 × `node -e 0`. */
export const CLI_GOAL_RATIO = 5;

/** Runs of each command and of the bare start per row (interleaved; medians): one process varies a lot from run to run on a 2-core machine. */
export const CLI_RUNS = 25;

/** One measured command: median wall time (ms) and the largest peak RSS seen (bytes, NaN when not measurable). */
interface Figure {
  ms: number;
  rssBytes: number;
}

/** One row for bench/run.ts. */
export interface CliRow {
  name: string;
  ours: number;
  baseline: number;
  /** Peak RSS of ours and of the bare start (bytes; NaN when /proc is not there). */
  oursRss: number;
  baselineRss: number;
  /** Whether the row has the goal (the LTS) and meets it; undefined on a Node without a goal. */
  met: boolean | undefined;
}

/**
 * Runs `node <args>` with `env` and `stdin`, and returns its wall time and peak RSS. The peak
 * is read from inside the process as it exits (a `-r` preload reading `/proc/self/status`
 * VmHWM on `exit`), so it is the process's own high-water mark, not the bench's.
 */
function runNode(
  node: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string; preload: string; rssFile: string },
): Promise<Figure> {
  return new Promise((resolve, reject) => {
    rmSync(opts.rssFile, { force: true });
    const started = process.hrtime.bigint();
    const child = spawn(node, ['-r', opts.preload, ...args], {
      cwd: opts.cwd,
      env: { ...opts.env, BENCH_RSS_FILE: opts.rssFile },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) {
        reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
        return;
      }
      let rssBytes = NaN;
      try {
        rssBytes = Number(readFileSync(opts.rssFile, 'utf8')) * 1024;
      } catch {
        // no /proc: not measured
      }
      resolve({ ms, rssBytes });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A small project: five committed files, one edited, one new (what a short session leaves). */
function createSmallRepository(dir: string): void {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: ENV, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  for (let i = 1; i <= 5; i++) writeFileSync(path.join(dir, 'src', `m${i}.ts`), `export const a${i} = ${i};\n`);
  writeFileSync(path.join(dir, 'README.md'), '# small\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  writeFileSync(path.join(dir, 'src', 'm1.ts'), 'export const a1 = 1;\nexport const total = (cents: number) => cents / 100;\n');
  writeFileSync(path.join(dir, 'src', 'checkout.ts'), 'export const checkout = () => 0;\n');
}

/**
 * The CLI rows: `handover` and `hook` (`SessionEnd`) on each Node of `nodes`, each beside that
 * Node's `node -e 0`, medians of `runs` runs interleaved after one warm-up each (the warm-up
 * fills the OS file cache and Node's compile cache).
 * @param nodes the Node binaries with their versions (`v24.…`) and whether the goal applies there
 */
export async function cliRows(
  log: (m: string) => void,
  runs: number,
  nodes: ReadonlyArray<{ bin: string; version: string; goal: boolean }>,
): Promise<CliRow[]> {
  const cli = path.resolve(__dirname, '..', 'dist', 'cli.js');
  const root = path.join(tmpdir(), `handoff-bench-cli-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  const repo = path.join(root, 'repo');
  const transcripts = path.join(root, 'transcripts');
  mkdirSync(transcripts, { recursive: true });
  createSmallRepository(repo);
  const transcript = writeClaudeSession(transcripts, repo);
  const preload = path.join(root, 'peak-rss.js');
  writeFileSync(
    preload,
    "process.on('exit', () => { try { const m = /VmHWM:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8')); if (m) require('fs').writeFileSync(process.env.BENCH_RSS_FILE, m[1]); } catch {} });\n",
  );
  const rssFile = path.join(root, 'rss');
  let n = 0;
  /** A fresh home per run: no real agent logs are discovered, no CLI state carries over. */
  const freshEnv = (): NodeJS.ProcessEnv => {
    const home = path.join(root, `home${n++}`);
    mkdirSync(home, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...ENV,
      HOME: home,
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
    };
    for (const k of ['CODEX_HOME', 'GEMINI_CLI_HOME', 'CLAUDE_CONFIG_DIR']) delete env[k];
    return env;
  };
  const hookInput = JSON.stringify({
    session_id: '7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d',
    transcript_path: transcript,
    cwd: repo,
    permission_mode: 'default',
    hook_event_name: 'SessionEnd',
    reason: 'exit',
  });
  // The floor under both rows: every handoff states its exact token count, so the CLI loads this tokenizer whatever else it saves.
  const tokenizerAlone = path.join(root, 'tokenizer-alone.js');
  writeFileSync(
    tokenizerAlone,
    `require('node:module').enableCompileCache?.();\nrequire(${JSON.stringify(path.resolve(__dirname, '..', 'dist', 'tokenizers', 'o200k_base.js'))}).countTokens('One count.');\n`,
  );
  // The floor under the CLI's own start: the same load and count on a worker thread, as dist/cli.js does it so that
  // the rest of the CLI starts beside it; the main thread only waits for the count.
  const tokenizerOnWorker = path.join(root, 'tokenizer-on-worker.js');
  writeFileSync(
    tokenizerOnWorker,
    `require('node:module').enableCompileCache?.();\nconst { Worker } = require('node:worker_threads');\nnew Worker(${JSON.stringify(
      `require('node:worker_threads').parentPort.postMessage(require(${JSON.stringify(path.resolve(__dirname, '..', 'dist', 'tokenizers', 'o200k_base.js'))}).countTokens('One count.'));`,
    )}, { eval: true }).once('message', () => process.exit(0));\n`,
  );
  const commands = (version: string): Array<{ name: string; args: string[]; stdin?: string; noGoal?: true }> => [
    {
      name: `CLI \`handover\` on a small repository, whole process, vs bare \`node -e 0\` (Node ${version})`,
      args: [cli, 'handover', '--specialist', 'quality_reviewer', '--topic', 't', '--summary', 's'],
    },
    { name: `CLI \`hook\` (SessionEnd, small transcript), whole process, vs bare \`node -e 0\` (Node ${version})`, args: [cli, 'hook'], stdin: hookInput },
    {
      name: `the CLI's tokenizer alone (o200k_base loaded, one count), whole process, vs bare \`node -e 0\` (Node ${version})`,
      args: [tokenizerAlone],
      noGoal: true,
    },
    {
      name: `the CLI's tokenizer alone on its worker thread (one count), whole process, vs bare \`node -e 0\` (Node ${version})`,
      args: [tokenizerOnWorker],
      noGoal: true,
    },
  ];
  const out: CliRow[] = [];
  try {
    for (const node of nodes) {
      const bare = () => runNode(node.bin, ['-e', '0'], { cwd: repo, env: freshEnv(), preload, rssFile });
      for (const c of commands(node.version)) {
        // Every run writes its first handoff: the same work each time, not a growing history to scan.
        const ours = () => {
          rmSync(path.join(repo, '.handoff'), { recursive: true, force: true });
          return runNode(node.bin, c.args, { cwd: repo, env: freshEnv(), stdin: c.stdin, preload, rssFile });
        };
        await ours();
        await bare();
        const a: Figure[] = [];
        const b: Figure[] = [];
        for (let i = 0; i < runs; i++) {
          if (i % 2 === 0) {
            a.push(await ours());
            b.push(await bare());
          } else {
            b.push(await bare());
            a.push(await ours());
          }
        }
        const ms = median(a.map((f) => f.ms));
        const baseline = median(b.map((f) => f.ms));
        const row: CliRow = {
          name: c.name,
          ours: ms,
          baseline,
          oursRss: Math.max(...a.map((f) => f.rssBytes)),
          baselineRss: Math.max(...b.map((f) => f.rssBytes)),
          met: node.goal && !c.noGoal ? ms <= CLI_GOAL_RATIO * baseline : undefined,
        };
        log(
          `${c.name}: ${row.ours.toFixed(0)} ms vs ${row.baseline.toFixed(0)} ms, peak RSS ${(row.oursRss / 2 ** 20).toFixed(0)} MB vs ${(row.baselineRss / 2 ** 20).toFixed(0)} MB`,
        );
        out.push(row);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return out;
}
