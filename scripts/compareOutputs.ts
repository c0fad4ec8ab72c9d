/**
 * Runs the same CLI, MCP and hook cases against two builds and compares every output byte for
 * byte: standard output, standard error, exit codes, MCP results and the files each case leaves.
 * For a refactoring that must not change behaviour (docs/DEVELOPING.md, "Comparing two builds").
 *
 *   tsx scripts/compareOutputs.ts OLD_CHECKOUT NEW_CHECKOUT   (each with a built dist/)
 *
 * Both builds run in the same folders with the clock frozen by libfaketime (FAKETIME_LIB, the
 * path of libfaketimeMT.so.1 from Debian's libfaketime package), so times, commit hashes and
 * paths are equal. Random ids (UUIDs, a verification file's random suffix) are numbered in
 * the order they appear.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = '/tmp/specialist-handoff-compare';
const APP = path.join(ROOT, 'app');
const WS = path.join(ROOT, 'ws');
const HOME = path.join(ROOT, 'home');
const REAL_LOGS = path.resolve(__dirname, '../../shared/fixtures/real-logs');
const CLAUDE_LOG = path.join(REAL_LOGS, 'claude-code/claude-reliability-coverage-test-fix.jsonl');
const CODEX_LOG = path.join(REAL_LOGS, 'codex/rtchess-exported-session-no-token-count.jsonl');

interface Outcome {
  name: string;
  text: string;
}

function fakeTimeEnv(): NodeJS.ProcessEnv {
  const lib = process.env.FAKETIME_LIB;
  if (!lib || !existsSync(lib)) {
    throw new Error('Set FAKETIME_LIB to libfaketimeMT.so.1 (apt-get download libfaketime; dpkg -x it into a folder).');
  }
  return {
    PATH: process.env.PATH,
    HOME,
    XDG_STATE_HOME: path.join(HOME, '.local/state'),
    XDG_CONFIG_HOME: path.join(HOME, '.config'),
    XDG_DATA_HOME: path.join(HOME, '.local/share'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Compare Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Compare Author',
    GIT_COMMITTER_EMAIL: 'author@example.com',
    LD_PRELOAD: lib,
    FAKETIME: '2026-11-30 10:20:30',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}

function git(env: NodeJS.ProcessEnv, ...args: string[]): void {
  execFileSync('git', args, { cwd: WS, env, stdio: 'ignore' });
}

function writeFile(rel: string, text: string): void {
  const file = path.join(WS, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A workspace with history, uncommitted work and a Claude Code transcript where Claude Code keeps it. */
function makeWorkspace(env: NodeJS.ProcessEnv): void {
  mkdirSync(WS, { recursive: true });
  git(env, 'init', '-q', '-b', 'main');
  writeFile('src/cart.ts', 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n');
  writeFile('README.md', '# Shop\n');
  git(env, 'add', '-A');
  git(env, 'commit', '-q', '-m', 'Initial shop');
  writeFile('src/cart.ts', 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0) / 100;\n}\n');
  writeFile('src/checkout.ts', "import { total } from './cart';\nexport const label = (xs: number[]) => `Total: ${total(xs)}`;\n");
  git(env, 'add', '-A');
  git(env, 'commit', '-q', '-m', 'Show the total in cents');
  writeFile('src/cart.test.ts', "import { total } from './cart';\n// AWS key in a fixture: AKIAIOSFODNN7EXAMPLE\n");
  writeFile('src/checkout.ts', "import { total } from './cart';\nexport const label = (xs: number[]) => `Total: ${total(xs).toFixed(2)}`;\n");
  mkdirSync(path.dirname(TRANSCRIPT), { recursive: true });
  const lines = readFileSync(CLAUDE_LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      if ('cwd' in record) record.cwd = WS;
      return JSON.stringify(record);
    });
  writeFileSync(TRANSCRIPT, lines.join('\n') + '\n');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const RANDOM_SUFFIX = /(\.verification-[0-9TZ.-]+|status\/[^/\s]+\/[0-9TZ.-]+)_[0-9a-f]{8}\b/g;

/** Numbers random ids in the order they first appear, the same way on both sides. */
function maskRandom(text: string, seen: Map<string, string>): string {
  const number = (id: string, kind: string) => {
    if (!seen.has(id)) seen.set(id, `<${kind}-${seen.size + 1}>`);
    return seen.get(id)!;
  };
  return text.replace(UUID, (id) => number(id, 'uuid')).replace(RANDOM_SUFFIX, (_m, head: string) => `${head}_${number(_m, 'suffix')}`);
}

function cli(env: NodeJS.ProcessEnv, args: string[], input?: string): string {
  const run = spawnSync(process.execPath, [path.join(APP, 'dist/cli.js'), ...args], { cwd: WS, env, input, encoding: 'utf8', timeout: 120_000 });
  return `exit ${run.status}${run.signal ? ` signal ${run.signal}` : ''}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}

const TRANSCRIPT = path.join(HOME, '.claude/projects', WS.replace(/[^A-Za-z0-9]/g, '-'), 'session-compare.jsonl');
const hookEvent = (name: string) => JSON.stringify({ session_id: 'hook-session-1', transcript_path: TRANSCRIPT, cwd: WS, hook_event_name: name });

const CLI_CASES: [string, string[], string?][] = [
  ['version', ['--version']],
  ['help', ['--help']],
  ['handover help', ['handover', '--help']],
  ['specialists', ['specialists', '--json']],
  ['draft', ['draft', '--json']],
  ['draft codex', ['draft', '--session-log', CODEX_LOG]],
  ['handover drafted', ['handover', '-s', 'quality_reviewer', '-t', 'Cart total in cents', '--draft', '--session-id', 'compare-1', '--json']],
  [
    'handover fields',
    [
      'handover',
      '-s',
      'test_debug_engineer',
      '-t',
      'Cart tests',
      '--summary',
      'Cents shown; key AKIAIOSFODNN7EXAMPLE in a fixture.',
      '--decision',
      'Keep cents',
      '--next',
      'Add tests',
      '--blocker',
      'None',
      '--session-id',
      'compare-2',
      '--budget',
      'small',
    ],
  ],
  ['hook SessionStart', ['hook'], hookEvent('SessionStart')],
  ['handover unknown specialist', ['handover', '-s', 'nobody', '-t', 'x', '--session-id', 'compare-3']],
  ['handover no topic', ['handover', '-s', 'quality_reviewer', '--session-id', 'compare-3']],
  ['handover bad budget', ['handover', '-s', 'quality_reviewer', '-t', 'x', '--max-tokens', 'many']],
  ['prompt', ['prompt', '--session-id', 'compare-4', '--json']],
  ['prompt text no take', ['prompt', '--no-take', '--handoff', 'latest']],
  ['history', ['history', '--json']],
  ['verify', ['verify', '--session-id', 'compare-5', '--json']],
  [
    'record-result',
    ['record-result', '-s', 'quality_reviewer', '--summary', 'Reviewed the cents change.', '--met', 'all', '--session-id', 'compare-6', '--json'],
  ],
  ['insights', ['insights', '--json']],
  ['insights text', ['insights']],
  ['continue print', ['continue', '--agent', 'claude', '--print', '--no-take', '--session-id', 'compare-7']],
  ['export-agents', ['export-agents', '--target', 'all', '--json']],
  ['hook Stop', ['hook'], hookEvent('Stop')],
  ['hook PreCompact', ['hook', '--specialist', 'quality_reviewer'], hookEvent('PreCompact')],
  ['hook SessionEnd', ['hook', '--topic', 'End of the cart work'], hookEvent('SessionEnd')],
  ['hook bad input', ['hook'], '{not json'],
  ['unknown command', ['frobnicate']],
];

async function mcpCases(env: NodeJS.ProcessEnv, seen: Map<string, string>): Promise<Outcome[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(APP, 'dist/cli.js'), 'mcp', '--cwd', WS],
    env: env as Record<string, string>,
    cwd: WS,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'compare', version: '1.0.0' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await client.connect(transport);
  const out: Outcome[] = [];
  const record = (name: string, value: unknown) => out.push({ name: `mcp ${name}`, text: maskRandom(JSON.stringify(value, null, 2), seen) });
  record('tools', await client.listTools());
  const calls: [string, Record<string, unknown>][] = [
    ['prior_handoffs', {}],
    [
      'handover_to_specialist',
      {
        specialist_profile: 'security_data_engineer',
        topic: 'Check the fixture key',
        summary: 'A fixture holds an AWS-looking key.',
        next_steps: ['Rotate it'],
      },
    ],
    ['handover_to_specialist', { specialist_profile: 'nobody', topic: 'x' }],
    ['request_full_history', {}],
    ['record_result', { specialist: 'security_data_engineer', summary: 'Looked at it.', criteria_met: 'all' }],
    ['prior_handoffs', {}],
  ];
  for (const [tool, args] of calls) {
    try {
      record(tool, await client.callTool({ name: tool, arguments: args }));
    } catch (error) {
      record(tool, { thrown: String(error) });
    }
  }
  await client.close();
  record('stderr', stderr);
  return out;
}

function filesUnder(dir: string, skip: (rel: string) => boolean, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const rel = path.relative(base, file);
    if (skip(rel)) continue;
    if (statSync(file).isDirectory()) out.push(...filesUnder(file, skip, base));
    else out.push(rel);
  }
  return out;
}

async function runSide(checkout: string): Promise<Outcome[]> {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(APP, { recursive: true });
  cpSync(path.join(checkout, 'dist'), path.join(APP, 'dist'), { recursive: true });
  cpSync(path.join(checkout, 'package.json'), path.join(APP, 'package.json'));
  const env = fakeTimeEnv();
  makeWorkspace(env);
  const seen = new Map<string, string>();
  const out: Outcome[] = [];
  for (const [name, args, input] of CLI_CASES) out.push({ name: `cli ${name}`, text: maskRandom(cli(env, args, input), seen) });
  out.push(...(await mcpCases(env, seen)));
  for (const rel of filesUnder(WS, (r) => r === '.git'))
    out.push({ name: `file ${maskRandom(rel, seen)}`, text: maskRandom(readFileSync(path.join(WS, rel), 'utf8'), seen) });
  const state = path.join(HOME, '.local/state');
  if (existsSync(state))
    for (const rel of filesUnder(state, () => false))
      out.push({ name: `state ${maskRandom(rel, seen)}`, text: maskRandom(readFileSync(path.join(state, rel), 'utf8'), seen) });
  return out;
}

async function main(): Promise<void> {
  const [oldCheckout, newCheckout] = process.argv.slice(2).map((p) => path.resolve(p));
  if (!oldCheckout || !newCheckout) throw new Error('Usage: tsx scripts/compareOutputs.ts OLD_CHECKOUT NEW_CHECKOUT');
  const before = await runSide(oldCheckout);
  const after = await runSide(newCheckout);
  if (process.env.COMPARE_SHOW)
    for (const [side, outcomes] of [
      ['old', before],
      ['new', after],
    ] as const)
      writeFileSync(`/tmp/compare-${side}.txt`, outcomes.map((o) => `=== ${o.name}\n${o.text}`).join('\n'));
  const names = [...new Set([...before.map((o) => o.name), ...after.map((o) => o.name)])];
  let differing = 0;
  for (const name of names) {
    const a = before.find((o) => o.name === name)?.text;
    const b = after.find((o) => o.name === name)?.text;
    const same = a === b;
    if (!same) differing++;
    console.log(`${same ? 'identical' : 'DIFFERENT'}  ${name}  (${Buffer.byteLength(a ?? '')} bytes)`);
  }
  console.log(`${names.length} cases, ${names.length - differing} identical, ${differing} different`);
  rmSync(ROOT, { recursive: true, force: true });
  process.exitCode = differing ? 1 : 0;
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
