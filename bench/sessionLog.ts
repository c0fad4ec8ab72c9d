/**
 * Session-log rows of `npm run bench`: a generated Claude Code transcript of 200 MB read
 * in full and incrementally (after a 1 MB append), each beside `wc -l` on the same file (the
 * floor: it parses nothing); the full read also beside jq extracting the same fields from
 * the same file, the tool a user would pick (issue 19: goal ≤ 1.0×); and the peak RSS of
 * reading a 1 GB transcript beside an idle node process (issue 19: goal ≤ 130 MB). The reading
 * child is built with the product's own esbuild options (esbuild.mjs: minified, zod's English
 * locale only, the shell parser a separate vendor file required on first use), so it loads
 * what dist/extension.js and dist/cli.js load; both peaks are each process's own (VmHWM).
 */
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';

const run = promisify(execFile);

/** One generated exchange: a user turn, an assistant turn with a Bash call, its result, an edit (about 4 KB). */
function exchange(i: number): string {
  const t = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 86400)).toISOString();
  const out = `line of output ${i} `.repeat(80);
  return (
    [
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: `Please run the tests for module ${i} and fix what fails.` },
        timestamp: t,
        cwd: '/ws',
      }),
      JSON.stringify({
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: `Running the tests for module ${i}.` },
            { type: 'tool_use', id: `b${i}`, name: 'Bash', input: { command: i % 10 === 0 ? 'npm test' : `grep -rn "module${i}" src` } },
          ],
        },
        timestamp: t,
      }),
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `b${i}`, content: `${out}\nTests:       ${i % 3} failed, 40 passed, 42 total`, is_error: i % 3 !== 0 }],
        },
        toolUseResult: { stdout: out, stderr: '', interrupted: false },
        timestamp: t,
      }),
      JSON.stringify({
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `e${i}`, name: 'Edit', input: { file_path: `/ws/src/module${i % 500}.ts`, old_string: 'a', new_string: 'b' } }],
        },
        timestamp: t,
      }),
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `e${i}`, content: 'updated', is_error: false }] },
        timestamp: t,
      }),
    ].join('\n') + '\n'
  );
}

/** Writes a transcript of at least `bytes` bytes; returns the exchanges written. */
export function generateTranscript(file: string, bytes: number, from = 0): number {
  const fd = openSync(file, from === 0 ? 'w' : 'a');
  let written = 0;
  let i = from;
  try {
    while (written < bytes) {
      let chunk = '';
      for (let k = 0; k < 200; k++) chunk += exchange(i++);
      written += writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
  return i;
}

/**
 * Builds ./readTranscript.ts into `outDir` as the product is built (esbuild.mjs's
 * `extensionBuild` options, and `vendorBuild` for ./vendor/mvdan-sh.js beside it): a child
 * bundled with esbuild's defaults carried the 3 MB shell parser and zod's 40 locales inline,
 * ~16 MB of peak RSS the extension and the CLI do not have.
 */
async function buildChild(outDir: string): Promise<string> {
  const root = path.join(__dirname, '..');
  const { extensionBuild, vendorBuild } = (await import(pathToFileURL(path.join(root, 'esbuild.mjs')).href)) as {
    extensionBuild: esbuild.BuildOptions;
    vendorBuild: esbuild.BuildOptions;
  };
  const out = path.join(outDir, 'readTranscript.js');
  await esbuild.build({ ...extensionBuild, absWorkingDir: root, entryPoints: [path.join(__dirname, 'readTranscript.ts')], outfile: out, logLevel: 'warning' });
  await esbuild.build({ ...vendorBuild, absWorkingDir: root, outdir: path.join(outDir, 'vendor'), logLevel: 'warning' });
  return out;
}

/**
 * An idle node process's own peak RSS (MB), read as ./readTranscript.ts `ownPeakRssMb` reads
 * the child's: VmHWM on Linux (getrusage's maxRSS there holds the bench process's peak,
 * inherited across fork + exec), maxRSS elsewhere.
 */
const PEAK_RSS_JS =
  "let m;try{m=/^VmHWM:\\s+(\\d+) kB$/m.exec(require('fs').readFileSync('/proc/self/status','utf8'))}catch{}process.stdout.write(JSON.stringify(m?Number(m[1])/1024:process.resourceUsage().maxRSS/1024))";

interface ChildResult {
  ms: number;
  maxRssMb: number;
  events: number;
  lines: number;
  endOffset: number;
}

async function readInChild(child: string, file: string, offset = 0): Promise<ChildResult> {
  const { stdout } = await run(process.execPath, [child, file, String(offset)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as ChildResult;
}

async function wcLines(file: string): Promise<number> {
  const t = process.hrtime.bigint();
  await run('wc', ['-l', file]);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/**
 * What a user would write with jq to get what our reader keeps from a Claude Code transcript:
 * each user and assistant line's type, time and folder, its text, its tool calls (name and
 * command) and its tool results (error flag and output), one compact JSON object per line.
 */
export const JQ_FILTER =
  'select(.type == "user" or .type == "assistant") | {type, timestamp, cwd, content: (.message.content | if type == "string" then . else [.[] | {type, text, name, command: .input.command, is_error, content}] end)}';

/** Time (ms) jq takes to run {@link JQ_FILTER} over `file`, its output discarded; undefined when jq is not installed. */
async function jqExtract(file: string): Promise<number | undefined> {
  const t = process.hrtime.bigint();
  const code = await new Promise<number | null | 'missing'>((resolve) => {
    const child = spawn('jq', ['-c', JQ_FILTER, file], { stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', () => resolve('missing'));
    child.on('close', (c) => resolve(c));
  });
  if (code === 'missing') return undefined;
  if (code !== 0) throw new Error(`jq exited ${code} on ${file}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A bench row: name, our figure, the baseline, and a note. */
export interface SessionRow {
  name: string;
  ours: number;
  baseline: number;
  unit: 'ms' | 'MB';
  note?: string;
}

/** Runs the session-log benchmarks; sizes in MB via BENCH_TRANSCRIPT_MB (default 200) and BENCH_BIG_TRANSCRIPT_MB (default 1024). */
export async function sessionLogRows(log: (s: string) => void): Promise<SessionRow[]> {
  const dir = path.join(tmpdir(), `handoff-bench-log-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const rows: SessionRow[] = [];
  try {
    const child = await buildChild(dir);
    const mb = Number(process.env.BENCH_TRANSCRIPT_MB ?? 200);
    const file = path.join(dir, 'session.jsonl');
    log(`generating a ${mb} MB Claude Code transcript …`);
    const exchanges = generateTranscript(file, mb * 1024 * 1024);
    const size = statSync(file).size;
    const full: ChildResult[] = [];
    const wcFull: number[] = [];
    for (let k = 0; k < 3; k++) {
      full.push(await readInChild(child, file));
      wcFull.push(await wcLines(file));
    }
    const f = full[0];
    const oursFull = median(full.map((x) => x.ms));
    rows.push({
      name: `session log: ${mb} MB Claude Code transcript, full read (vs wc -l, the floor)`,
      ours: oursFull,
      baseline: median(wcFull),
      unit: 'ms',
      note: `${f.lines.toLocaleString('en')} lines, ${f.events.toLocaleString('en')} events kept`,
    });
    const jq: number[] = [];
    for (let k = 0; k < 3; k++) {
      const ms = await jqExtract(file);
      if (ms === undefined) break;
      jq.push(ms);
    }
    if (jq.length) {
      const ratio = oursFull / median(jq);
      rows.push({
        name: `session log: ${mb} MB Claude Code transcript, full read (vs jq extracting the same fields)`,
        ours: oursFull,
        baseline: median(jq),
        unit: 'ms',
        note: `goal ≤ 1.0×: ${ratio <= 1 ? 'met' : 'NOT met'}`,
      });
    } else {
      log('jq is not installed: the jq row is left out (apt install jq)');
    }
    generateTranscript(file, 1024 * 1024, exchanges);
    appendFileSync(file, '');
    const inc: ChildResult[] = [];
    const wcInc: number[] = [];
    for (let k = 0; k < 3; k++) {
      inc.push(await readInChild(child, file, size));
      wcInc.push(await wcLines(file));
    }
    rows.push({
      name: 'session log: incremental read after a 1 MB append (vs wc -l of the whole file)',
      ours: median(inc.map((x) => x.ms)),
      baseline: median(wcInc),
      unit: 'ms',
      note: `${inc[0].lines.toLocaleString('en')} new lines`,
    });
    rmSync(file, { force: true });

    const bigMb = Number(process.env.BENCH_BIG_TRANSCRIPT_MB ?? 1024);
    const big = path.join(dir, 'big.jsonl');
    log(`generating a ${bigMb} MB transcript for the peak-RSS row …`);
    generateTranscript(big, bigMb * 1024 * 1024);
    const bigRead = await readInChild(child, big);
    const idle = JSON.parse((await run(process.execPath, ['-e', PEAK_RSS_JS])).stdout) as number;
    rows.push({
      name: `session log: peak RSS reading a ${bigMb} MB transcript (vs an idle node process)`,
      ours: bigRead.maxRssMb,
      baseline: idle,
      unit: 'MB',
      note: `goal ≤ 130 MB: ${bigRead.maxRssMb <= 130 ? 'met' : 'NOT met'}; read in ${(bigRead.ms / 1000).toFixed(1)} s`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
