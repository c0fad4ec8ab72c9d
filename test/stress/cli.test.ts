/**
 * The stress suite (`npm run test:stress`): the built CLI (`dist/cli.js`, as users run it) on the
 * machine's Node and on the current LTS, under load, on the largest real transcripts of
 * ../shared/fixtures/real-logs (read in place). Counts only, no timed assertion:
 * - 3 concurrent streams × 10 `handover --draft` and 10 `hook` (SessionEnd) each, beside a
 *   busy loop: every process exits 0, no process crashes, every handoff is written whole with its
 *   briefing section, nothing is left behind;
 * - on the LTS: one MCP server answering 50 `tools/call` (handovers among them) while two CLI
 *   processes write handoffs: every call answered, the server still up; 100 `record-result` in
 *   flight on one handoff: each either wrote its result with its status change, or failed with
 *   an ERROR and wrote nothing; no change lost;
 * - 20 `handover` and 20 `record-result` killed with SIGKILL at random moments: nothing
 *   half-written under a handoff's name, no result without its status, and the next runs clean
 *   up and succeed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseHandoff } from '../../src/core/handoff/parse';
import { readStatusEvents } from '../../src/store/handoffs/statusEvents';
import { handover } from '../../src/engine/handover/handover';
import { buildDist } from '../helpers/dist';
import { cliNodes } from '../helpers/nodeLts';
import { alive } from '../helpers/process';
import { seededRandom } from '../helpers/random';
import { cleanupTempDirs, commitAll, git, initRepo, tempDir, write } from '../helpers/repo';

const REAL_LOGS = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'real-logs');

/** The largest transcript of an agent's folder in ../shared/fixtures/real-logs. */
function largest(agent: string): string {
  const dir = path.join(REAL_LOGS, agent);
  const files = readdirSync(dir)
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile() && /\.jsonl?$/.test(f));
  files.sort((a, b) => statSync(b).size - statSync(a).size);
  assert.ok(files[0], `a transcript in ${dir}`);
  return files[0];
}

/** What one CLI process did. */
interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall-clock milliseconds from spawn to exit. */
  readonly ms: number;
}

/** A V8 or Node fatal error, or a signal the process did not ask for. */
function crashed(r: Run, killed = false): boolean {
  return (
    (!killed && r.signal !== null) ||
    (r.code !== null && r.code >= 128) ||
    /Check failed|FATAL ERROR|Segmentation fault|Illegal instruction|Native stack trace/.test(r.stderr)
  );
}

/** Runs `node dist/cli.js …`; `killAfterMs` sends SIGKILL after that long (if it still runs). */
function runCli(node: string, dist: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; killAfterMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, [path.join(dist, 'cli.js'), ...args], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    const timer = opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
    child.stdin.on('error', () => undefined); // killed before it read its input
    child.stdin.end(opts.input ?? '');
  });
}

/** Our leftovers of interrupted writes anywhere under `root`: temporary files, lock folders and their queues. */
function leftoversUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const full = path.join(dir, name);
      if (/\.tmp$/.test(name) || /\.lock(-queue)?$/.test(name)) out.push(path.relative(root, full));
      else if (statSync(full).isDirectory()) walk(full);
    }
  };
  walk(root);
  return out;
}

/** The handoff files of a workspace: complete ones parsed (kind, id, parent), and the names of partial ones. */
function handoffsOf(ws: string): {
  complete: Array<{ file: string; kind: string; id: string; parent: string | null; status: string }>;
  partial: string[];
  broken: string[];
} {
  const dir = path.join(ws, '.handoff', 'handoffs');
  const complete = [];
  const partial = [];
  const broken = [];
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
    if (name.endsWith('.partial.md')) partial.push(name);
    else if (name.endsWith('.md')) {
      const parsed = parseHandoff(readFileSync(path.join(dir, name), 'utf8'));
      if (!parsed.ok) broken.push(`${name}: ${parsed.message}`);
      else
        complete.push({
          file: path.join(dir, name),
          kind: parsed.handoff.frontmatter.kind,
          id: parsed.handoff.frontmatter.id,
          parent: parsed.handoff.frontmatter.parent_id,
          status: parsed.handoff.frontmatter.status,
        });
    }
  }
  return { complete, partial, broken };
}

/** The briefing section files of a workspace, by handoff id. */
function briefingSections(ws: string): Set<string> {
  const root = path.join(ws, '.handoff', 'briefings');
  const ids = new Set<string>();
  for (const folder of existsSync(root) ? readdirSync(root) : []) {
    const dir = path.join(root, folder);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir)) if (name.endsWith('.md') && !name.startsWith('.')) ids.add(name.replace(/\.md$/, ''));
  }
  return ids;
}

/** A project with a commit and work on top, as a session leaves it. */
function project(): string {
  const dir = initRepo();
  write(dir, 'src/board.ts', 'export const size = 8;\n');
  write(dir, 'README.md', '# chess\n');
  commitAll(dir, 'board');
  write(dir, 'src/board.ts', 'export const size = 8;\nexport const squares = size * size;\n');
  write(dir, 'src/moves.ts', 'export const moves: string[] = [];\n');
  return dir;
}

/** A process that keeps one core busy until stopped. */
function busyLoop(node: string): ChildProcess {
  return spawn(node, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

describe('stress: the CLI as users run it, under load', function () {
  this.timeout(900_000);
  after(cleanupTempDirs);

  let dist = '';
  const codex = largest('codex');
  const claude = largest('claude-code');
  before(async () => {
    dist = (await buildDist()).dist;
  });

  /** An environment of its own: no real agent logs discovered, a CLI state folder of its own. */
  const envFor = (): NodeJS.ProcessEnv => {
    const home = tempDir('handoff-stress-home-');
    return {
      ...process.env,
      HOME: home,
      XDG_STATE_HOME: path.join(home, 'state'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_DATA_HOME: path.join(home, 'data'),
      CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
      CODEX_HOME: path.join(home, 'codex'),
    };
  };

  const nodes = cliNodes();
  for (const [at, { bin: node, version }] of nodes.entries()) {
    // The cases of locks and of one long-lived server depend on no Node release: run on the current LTS only.
    const lts = at === nodes.length - 1;
    describe(`Node ${version}`, () => {
      it('3 streams × (10 handover --draft + 10 hook) on the largest real transcripts beside a busy loop: all exit 0, every handoff whole', async () => {
        const ws = project();
        const busy = busyLoop(node);
        const runs: Array<Run & { hook?: boolean }> = [];
        try {
          await Promise.all(
            [0, 1, 2].map(async (stream) => {
              const env = envFor();
              for (let i = 0; i < 10; i++) {
                runs.push(
                  await runCli(
                    node,
                    dist,
                    ['handover', '--draft', '--session-log', codex, '--specialist', 'implementation_engineer', '--topic', `Stream ${stream} run ${i}`],
                    { cwd: ws, env },
                  ),
                );
                const input = JSON.stringify({
                  session_id: `stress-${stream}-${i}`,
                  transcript_path: claude,
                  cwd: ws,
                  hook_event_name: 'SessionEnd',
                  reason: 'exit',
                });
                runs.push({ ...(await runCli(node, dist, ['hook'], { cwd: ws, env, input })), hook: true });
              }
            }),
          );
        } finally {
          busy.kill('SIGKILL');
        }
        const crashes = runs.filter((r) => crashed(r));
        const failed = runs.filter((r) => r.code !== 0);
        const { complete, partial, broken } = handoffsOf(ws);
        const sections = briefingSections(ws);
        const leftovers = leftoversUnder(path.join(ws, '.handoff'));
        const untrackedTemps = git(ws, 'status', '--porcelain', '--untracked-files=all')
          .split('\n')
          .filter((l) => /\.tmp$|\.lock/.test(l));
        const hookMs = runs
          .filter((r) => r.hook)
          .map((r) => r.ms)
          .sort((a, b) => a - b);
        console.log(
          `    figures: stress streams (${version}): ${runs.length} processes, hook wall time median ${Math.round(hookMs[hookMs.length >> 1] ?? 0)} ms, max ${Math.round(hookMs.at(-1) ?? 0)} ms, exit 0: ${runs.length - failed.length}, crashes: ${crashes.length}, handoffs whole: ${complete.length}, partial: ${partial.length}, broken: ${broken.length}, briefing sections: ${complete.filter((h) => sections.has(h.id)).length}/${complete.length}, leftovers: ${leftovers.length}`,
        );
        assert.deepEqual(
          crashes.map((r) => r.stderr.slice(0, 500)),
          [],
          'no crash',
        );
        assert.deepEqual(
          failed.map((r) => `${r.code}: ${r.stderr.slice(0, 300)}`),
          [],
          'every process exits 0',
        );
        assert.equal(complete.length, runs.length, 'one whole handoff per run');
        assert.deepEqual([partial, broken], [[], []]);
        assert.equal(new Set(complete.map((h) => h.id)).size, complete.length, 'distinct ids');
        assert.deepEqual(
          complete.filter((h) => !sections.has(h.id)).map((h) => h.id),
          [],
          'each with its briefing section',
        );
        assert.deepEqual(leftovers, [], 'nothing left behind');
        assert.deepEqual(untrackedTemps, [], 'git sees no temporary file');
      });

      if (lts) {
        it('one MCP server answers 50 tools/call (15 handovers among them) while two CLI processes write handoffs', async () => {
          const ws = project();
          const env = envFor();
          const transport = new StdioClientTransport({
            command: node,
            args: [path.join(dist, 'cli.js'), 'mcp', '--cwd', ws],
            cwd: ws,
            env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
            stderr: 'pipe',
          });
          let serverStderr = '';
          transport.stderr?.on('data', (d: Buffer) => (serverStderr += d.toString()));
          const client = new Client({ name: 'stress-client', version: '1.0.0' });
          await client.connect(transport);
          const pid = transport.pid;
          let calls: Array<{ isError?: boolean; text: string }>;
          const cliRuns: Run[] = [];
          try {
            const writers = [0, 1].map(async (w) => {
              for (let i = 0; i < 4; i++) {
                cliRuns.push(
                  await runCli(node, dist, ['handover', '--draft', '--session-log', codex, '--specialist', 'quality_reviewer', '--topic', `CLI ${w} ${i}`], {
                    cwd: ws,
                    env: envFor(),
                  }),
                );
              }
            });
            const tools = Array.from({ length: 50 }, (_, i) => {
              if (i % 10 < 3)
                return {
                  name: 'handover_to_specialist',
                  arguments: { specialist_profile: 'test_debug_engineer', topic: `MCP call ${i}`, summary: `Handed over by call ${i} of the stress run.` },
                };
              if (i % 10 < 6) return { name: 'prior_handoffs', arguments: {} };
              return { name: 'list_specialists', arguments: {} };
            });
            const answered = tools.map(async (t) => {
              const r = await client.callTool(t, undefined, { timeout: 600_000 });
              const first = (r.content as Array<{ type: string; text?: string }>)[0];
              return { isError: r.isError === true, text: first?.text ?? '' };
            });
            calls = await Promise.all(answered);
            await Promise.all(writers);
            assert.ok(pid !== null && pid !== undefined && alive(pid), 'the server is still up after the calls');
          } finally {
            await client.close();
          }
          const { complete, partial, broken } = handoffsOf(ws);
          const errors = calls.filter((c) => c.isError);
          console.log(
            `    figures: stress MCP (${version}): ${calls.length} calls answered, errors: ${errors.length}, CLI processes beside it: ${cliRuns.length} (exit 0: ${cliRuns.filter((r) => r.code === 0).length}), handoffs whole: ${complete.length}, partial: ${partial.length}`,
          );
          assert.equal(calls.length, 50);
          assert.deepEqual(
            errors.map((c) => c.text.slice(0, 300)),
            [],
            `every call succeeds (server stderr: ${serverStderr.slice(0, 500)})`,
          );
          assert.deepEqual(
            cliRuns.filter((r) => r.code !== 0).map((r) => r.stderr.slice(0, 300)),
            [],
          );
          assert.equal(complete.length, 15 + cliRuns.length, 'the 15 handovers of the calls and the CLI runs');
          assert.deepEqual([partial, broken], [[], []]);
          assert.deepEqual(leftoversUnder(path.join(ws, '.handoff')), []);
        });

        it('100 record-result in flight on one handoff: each wrote its result with its status change, or failed and wrote nothing', async () => {
          const ws = project();
          const first = await runCli(
            node,
            dist,
            [
              'handover',
              '--specialist',
              'implementation_engineer',
              '--topic',
              'Contended',
              '--summary',
              'One handoff, answered by many.',
              '--next',
              'Implement the moves',
              '--session-log',
              'none',
            ],
            { cwd: ws, env: envFor() },
          );
          assert.equal(first.code, 0, first.stderr);
          const target = handoffsOf(ws).complete[0];
          const outcomes = ['--met all', '--blocker no-access', ''];
          const runs = await Promise.all(
            Array.from({ length: 100 }, (_, i) =>
              runCli(
                node,
                dist,
                [
                  'record-result',
                  '--specialist',
                  'implementation_engineer',
                  '--handoff',
                  target.id,
                  '--proceed-if-taken',
                  '--summary',
                  `Result ${i}.`,
                  '--session-log',
                  'none',
                  ...outcomes[i % 3].split(' ').filter(Boolean),
                ],
                { cwd: ws, env: envFor() },
              ),
            ),
          );
          const ok = runs.filter((r) => r.code === 0);
          const failed = runs.filter((r) => r.code !== 0);
          const results = handoffsOf(ws).complete.filter((h) => h.kind === 'result');
          const events = await readStatusEvents(target.file);
          const withResult = new Set(events.map((e) => e.event.result_id));
          const chainBroken = events.filter((e, i) => i > 0 && e.event.from !== events[i - 1].event.to);
          console.log(
            `    figures: stress status (${version}): 100 record-result in flight, applied: ${ok.length}, failed with an ERROR: ${failed.length}, results: ${results.length}, status events: ${events.length}, results without their status: ${results.filter((r) => !withResult.has(r.id)).length}, lost updates: ${chainBroken.length}`,
          );
          assert.deepEqual(
            runs.filter((r) => crashed(r)).map((r) => r.stderr.slice(0, 300)),
            [],
          );
          for (const r of failed) assert.match(r.stderr + r.stdout, /ERROR|no result was written/, 'a failure says so');
          assert.equal(results.length, ok.length, 'a result for each success, none for a failure');
          assert.deepEqual(
            results.filter((r) => !withResult.has(r.id)).map((r) => r.id),
            [],
            'every result with its status change',
          );
          assert.equal(events.length, ok.length, 'one change per result');
          assert.deepEqual(chainBroken, [], 'each change starts from the status the one before left');
          assert.equal(failed.length, 0, 'none had to give up: the queue moved');
          assert.deepEqual(leftoversUnder(path.join(ws, '.handoff')), []);
        });
      }

      it('20 handover and 20 record-result killed at random moments: nothing half-written read as a handoff, no result without its status; the next runs clean up and succeed', async () => {
        const ws = project();
        const seed = Number(process.env.STRESS_SEED ?? Date.now() % 100_000);
        const rnd = seededRandom(seed);
        const targets: string[] = [];
        const newTarget = async (topic: string): Promise<string> => {
          const r = await handover(
            { specialist: 'implementation_engineer', topic, summary: 'To be answered.', next_steps: ['Answer it'] },
            { workspaceRoot: ws, sessionLog: { mode: 'none' } },
          );
          assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
          return r.status === 'ok' ? r.package.id : '';
        };
        const handoverArgs = (topic: string) => ['handover', '--draft', '--session-log', codex, '--specialist', 'quality_reviewer', '--topic', topic];
        const resultArgs = (target: string, summary: string) => [
          'record-result',
          '--specialist',
          'implementation_engineer',
          '--handoff',
          target,
          '--met',
          'all',
          '--summary',
          summary,
          '--session-log',
          'none',
        ];
        // Kill moments spread over a whole run (30%-110% of it), from start-up to the last write. A
        // whole run is measured first and again by every run that ends before its kill, so the
        // moments follow the machine's load.
        const whole = await runCli(node, dist, handoverArgs('Measured run'), { cwd: ws, env: envFor() });
        assert.equal(whole.code, 0, whole.stderr);
        const measuredTarget = await newTarget('Measured target');
        const wholeResult = await runCli(node, dist, resultArgs(measuredTarget, 'Measured result.'), { cwd: ws, env: envFor() });
        assert.equal(wholeResult.code, 0, wholeResult.stderr);
        const lasts = { handover: whole.ms, result: wholeResult.ms };
        const kills = { handover: 0, result: 0 };
        let attempts = 0;
        for (; attempts < 60 && (kills.handover < 20 || kills.result < 20); attempts++) {
          const runs: Array<[keyof typeof kills, Promise<Run>]> = [];
          if (kills.handover < 20)
            runs.push([
              'handover',
              runCli(node, dist, handoverArgs(`Killed ${attempts}`), { cwd: ws, env: envFor(), killAfterMs: lasts.handover * (0.3 + rnd() * 0.8) }),
            ]);
          if (kills.result < 20) {
            const target = await newTarget(`Target ${attempts}`);
            targets.push(target);
            runs.push([
              'result',
              runCli(node, dist, resultArgs(target, `Killed result ${attempts}.`), { cwd: ws, env: envFor(), killAfterMs: lasts.result * (0.3 + rnd() * 0.8) }),
            ]);
          }
          for (const [kind, running] of runs) {
            const run = await running;
            if (run.signal === 'SIGKILL') kills[kind]++;
            else {
              assert.equal(run.code, 0, run.stderr);
              lasts[kind] = run.ms;
            }
          }
        }
        const check = async () => {
          const { complete, partial, broken } = handoffsOf(ws);
          const results = complete.filter((h) => h.kind === 'result' && targets.includes(h.parent ?? ''));
          const unpaired: string[] = [];
          for (const t of targets) {
            const file = complete.find((h) => h.id === t)?.file;
            assert.ok(file, `${t} is still there`);
            const answers = results.filter((r) => r.parent === t);
            const events = await readStatusEvents(file);
            const status = events.at(-1)?.event.to ?? 'pending';
            for (const a of answers) if (!events.some((e) => e.event.result_id === a.id)) unpaired.push(`${a.id} answers ${t} without its status`);
            if (answers.length === 0 && status !== 'pending') unpaired.push(`${t} is ${status} without a result`);
          }
          return { complete, partial, broken, results, unpaired };
        };
        const after = await check();
        // The next runs: a handover and the answers that did not get through.
        const next = await runCli(
          node,
          dist,
          ['handover', '--draft', '--session-log', codex, '--specialist', 'quality_reviewer', '--topic', 'After the kills'],
          { cwd: ws, env: envFor() },
        );
        assert.equal(next.code, 0, next.stderr);
        let answered = 0;
        for (const t of targets) {
          if (after.results.some((r) => r.parent === t)) continue;
          const r = await runCli(
            node,
            dist,
            [
              'record-result',
              '--specialist',
              'implementation_engineer',
              '--handoff',
              t,
              '--met',
              'all',
              '--summary',
              'Answered after the kills.',
              '--session-log',
              'none',
            ],
            { cwd: ws, env: envFor() },
          );
          assert.equal(r.code, 0, r.stderr);
          answered++;
        }
        const final = await check();
        const leftovers = leftoversUnder(path.join(ws, '.handoff'));
        const sections = briefingSections(ws);
        const partialWithSection = final.partial.filter((name) => sections.has(name.replace(/\.partial\.md$/, '')));
        console.log(
          `    figures: stress kills (${version}, seed ${seed}): a whole handover ${Math.round(whole.ms)} ms, record-result ${Math.round(wholeResult.ms)} ms; SIGKILLs: ${kills.handover} handover and ${kills.result} record-result in ${attempts} rounds, whole handoffs and results after them: ${after.complete.length}, interrupted ones kept as .partial.md: ${after.partial.length} (with a briefing section after the next runs: ${partialWithSection.length}), half-written under a handoff's name: ${after.broken.length}, results without their status (or status without result): ${after.unpaired.length}; next runs: handover ok, ${answered} answers ok, leftovers after them: ${leftovers.length}`,
        );
        assert.deepEqual(kills, { handover: 20, result: 20 }, `20 of each killed mid-way in ${attempts} rounds`);
        assert.deepEqual(after.broken, [], 'nothing half-written under a handoff name');
        assert.deepEqual(after.unpaired, []);
        assert.deepEqual(final.unpaired, []);
        assert.equal(final.results.length, targets.length, 'every target answered once in the end');
        assert.deepEqual(leftovers, [], 'the next runs removed what the killed ones left');
        assert.deepEqual(partialWithSection, [], 'no briefing section names a handoff that is only partial');
      });
    });
  }
});
