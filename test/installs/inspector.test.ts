/**
 * The MCP server checked by the MCP Inspector's own CLI (`@modelcontextprotocol/inspector
 * --cli`, the version package.json pins, on the Node it needs), offline: `tools/list`, and a
 * `tools/call` of every tool against the CLI built from the sources, in a real git repository
 * with a Claude Code transcript in Claude Code's own place. The handover writes its handoff
 * and briefing; the prior handoffs name it; the hand-back records a result; the full history
 * reads the session back.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff } from '../../src/core/handoff/parse';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import { clientEnv, inspectorCommand, pinnedVersion, versionOf } from '../helpers/clients';
import { writeClaudeSession } from '../helpers/claudeSession';
import { buildDist } from '../helpers/dist';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

/** The tools the server lists, in its order. */
const TOOLS = ['handover_to_specialist', 'list_specialists', 'prior_handoffs', 'record_result', 'request_full_history'];

interface InspectorResult {
  readonly result?: {
    tools?: Array<{ name: string; inputSchema: { type: string } }>;
    content?: Array<{ type: string; text: string }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  readonly error?: unknown;
}

describe('MCP Inspector CLI against `specialist-handoff mcp`', function () {
  this.timeout(300_000);
  let cli: string;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  const [node, launcher] = inspectorCommand();

  /** `inspector --cli --format json <node> <cli.js> mcp --cwd <repo> <args>`: its exit code and parsed output. */
  const inspect = (args: string[]): { code: number | null; json: InspectorResult; err: string } => {
    const r = spawnSync(node, [...launcher, '--format', 'json', process.execPath, cli, 'mcp', '--cwd', repo, ...args], {
      cwd: repo,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    let json: InspectorResult;
    try {
      json = JSON.parse(r.stdout) as InspectorResult;
    } catch {
      throw new Error(`the Inspector printed no JSON (exit ${r.status}): ${r.stdout.slice(0, 500)}\n${r.stderr.slice(0, 2000)}`);
    }
    return { code: r.status, json, err: r.stderr };
  };
  const call = (tool: string, args: Record<string, unknown> = {}) =>
    inspect(['--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(args)]);
  const text = (r: { json: InspectorResult }) => (r.json.result?.content ?? []).map((c) => c.text).join('\n');

  before(async () => {
    cli = path.join((await buildDist()).dist, 'cli.js');
    repo = initRepo(tempDir('handoff-inspector-'));
    write(repo, 'src/cart.ts', 'export const total = 0;\n');
    commitAll(repo, 'cart');
    write(repo, 'src/cart.ts', 'export const total = (items: number[]) => items.reduce((a, b) => a + b, 0);\n');
    const home = tempDir('handoff-inspector-home-');
    env = clientEnv(home);
    const projects = path.join(home, '.claude', 'projects', claudeProjectDirName(repo));
    mkdirSync(projects, { recursive: true });
    writeClaudeSession(projects, repo);
  });
  after(cleanupTempDirs);

  it('is the version package.json pins', () => {
    assert.equal(versionOf(node, launcher, env), pinnedVersion('@modelcontextprotocol/inspector'));
  });

  it('tools/list: the five tools, each with an object input schema', () => {
    const r = inspect(['--method', 'tools/list']);
    assert.equal(r.code, 0, r.err);
    const tools = r.json.result?.tools ?? [];
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS,
    );
    for (const t of tools) assert.equal(t.inputSchema.type, 'object', t.name);
  });

  it('tools/call list_specialists: the built-in specialists', () => {
    const r = call('list_specialists');
    assert.equal(r.code, 0, r.err);
    assert.notEqual(r.json.result?.isError, true, text(r));
    const ids = (JSON.parse(text(r)) as { specialists: Array<{ id: string; source: string }> }).specialists.map((s) => s.id);
    for (const id of ['quality_reviewer', 'implementation_engineer', 'solution_architect']) assert.ok(ids.includes(id), id);
  });

  it('tools/call handover_to_specialist: writes the handoff and the briefing, with the touched file from git and the session from the transcript', () => {
    const r = call('handover_to_specialist', {
      specialist_profile: 'quality_reviewer',
      topic: 'Cart total',
      summary: 'The cart total sums the items.',
      next_steps: ['Review src/cart.ts'],
      decisions: ['Totals in cents'],
    });
    assert.equal(r.code, 0, r.err);
    assert.notEqual(r.json.result?.isError, true, text(r));
    const result = JSON.parse(text(r)) as { status: string; handoff_file: string; briefing: { path: string }; persona_marker: string };
    assert.equal(result.status, 'ok');
    assert.equal(result.persona_marker, '[quality reviewer]');
    assert.ok(existsSync(result.handoff_file) && existsSync(result.briefing.path), 'both files are there');
    const parsed = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.handoff.frontmatter.specialist, 'quality_reviewer');
    assert.equal(parsed.handoff.frontmatter.status, 'pending');
    assert.ok((parsed.handoff.sections.get('Touched files') ?? '').includes('`src/cart.ts`'));
    assert.deepEqual(
      parsed.handoff.frontmatter.session_sources.map((s) => s.source),
      ['claude-code'],
      'the transcript was read',
    );
    assert.ok(readFileSync(result.briefing.path, 'utf8').includes('The cart total sums the items.'));
  });

  it('tools/call prior_handoffs: the handoff just written', () => {
    const r = call('prior_handoffs');
    assert.equal(r.code, 0, r.err);
    const handoffs = readdirSync(path.join(repo, '.handoff', 'handoffs'));
    assert.equal(handoffs.length, 1);
    assert.ok(text(r).startsWith('## Prior Agent Handoffs'), text(r).slice(0, 100));
    assert.ok(text(r).includes(handoffs[0]), 'names the handoff file');
  });

  it('tools/call request_full_history: the session behind the handoff, read back from its transcript', () => {
    const r = call('request_full_history', { handoff: 'latest' });
    assert.equal(r.code, 0, `${text(r)}\n${r.err}`);
    assert.notEqual(r.json.result?.isError, true, text(r));
    assert.ok(text(r).includes('Add a cart total to the checkout page and make the tests pass.'), text(r).slice(0, 400));
  });

  it('tools/call record_result: hands back, a result file beside the handoff', () => {
    const r = call('record_result', { specialist: 'quality_reviewer', summary: 'Reviewed: the total is right.', criteria_met: 'all' });
    assert.equal(r.code, 0, r.err);
    assert.notEqual(r.json.result?.isError, true, text(r));
    const files = readdirSync(path.join(repo, '.handoff', 'handoffs')).sort();
    assert.equal(files.length, 2, files.join(', '));
    const result = parseHandoff(readFileSync(path.join(repo, '.handoff', 'handoffs', files[1]), 'utf8'));
    assert.ok(result.ok);
    assert.equal(result.handoff.frontmatter.kind, 'result');
  });

  it('a failing call is a tool result the Inspector reports, not a protocol error', () => {
    const r = call('handover_to_specialist', { specialist_profile: 'no_such_specialist', topic: 'x' });
    assert.notEqual(r.code, 0, 'the Inspector exits non-zero on a tool error');
    assert.equal(r.json.result?.isError, true);
    assert.match(text(r), /^ERROR: .*no_such_specialist/);
    assert.match(text(r), /quality_reviewer|specialist/);
  });
});
