/**
 * `specialist-handoff mcp` (src/mcp/server.ts) end to end: the MCP SDK's own `Client`
 * over `StdioClientTransport` spawns the real CLI from the sources (`node -r tsx/cjs
 * src/cli/main.ts mcp --cwd <repo>`) on a real temporary git repository, lists the tools and
 * calls each one — the handover returns the same result object as `runHandoverTool` in
 * this process, failures come back as `isError` with an `ERROR:` text.
 */
import assert from 'node:assert/strict';
import { CLI_FROM_SOURCE } from '../helpers/cli';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema, type HandoverOk } from '../../src/core/handoff/schema';
import { BUILTIN_SPECIALISTS } from '../../src/core/specialists/registry';
import { PRIOR_HANDOFFS_HEADING } from '../../src/core/timeline/chains';
import { runHandoverTool, toolResultText } from '../../src/engine/agents/agentTool';
import { readHandoffHead } from '../../src/engine/handover/handoffFiles';
import { MCP_TOOL_NAMES } from '../../src/mcp/tools';
import { cleanupTempDirs, commitAll, initRepo, write } from '../helpers/repo';
import { seedArguments } from '../helpers/toolSeed';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A repository with one commit and work on top: a changed and a new file. */
function repoWithHero(): string {
  const dir = initRepo();
  write(dir, 'src/hero.tsx', 'export const Hero = () => null;\n');
  commitAll(dir, 'hero stub');
  write(dir, 'src/hero.tsx', 'export const Hero = () => <h1>Bold</h1>;\n');
  write(dir, 'src/hero.css', '.hero { font-weight: 800; }\n');
  return dir;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.ok(first && first.type === 'text', 'the first content item is text');
  return first.text;
}

/** Every key of an object, nested keys as `a.b`, sorted (arrays by their first element). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], `${prefix}[]`) : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value)
    .flatMap(([k, v]) => [`${prefix}${k}`, ...keyPaths(v, `${prefix}${k}.`)])
    .sort();
}

describe('MCP server (stdio, SDK client)', function () {
  this.timeout(30_000);
  let repo: string;
  let client: Client;
  let stderr = '';
  let handed: HandoverOk;

  before(async () => {
    repo = repoWithHero();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_FROM_SOURCE, 'mcp', '--cwd', repo],
      cwd: REPO_ROOT,
      // The test setup's temporary state and transcript folders, not the developer's.
      env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'mcp-test-client', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    cleanupTempDirs();
  });

  it('lists the five tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...MCP_TOOL_NAMES],
    );
    // Issue 18 adds request_full_history.
    assert.deepEqual(MCP_TOOL_NAMES, ['handover_to_specialist', 'list_specialists', 'prior_handoffs', 'record_result', 'request_full_history']);
    const byName = new Map<string, Tool>(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok((t.description ?? '').length > 80, `${t.name} has a real description`);
      assert.ok(t.inputSchema.properties && 'project_root' in t.inputSchema.properties, `${t.name} takes project_root`);
    }
    const handover = byName.get('handover_to_specialist')!;
    assert.deepEqual([...(handover.inputSchema.required ?? [])].sort(), ['specialist_profile', 'topic']);
    for (const k of [
      'summary',
      'recent_turns',
      'decisions',
      'artifacts',
      'return_condition',
      'handover_reason',
      'max_context_tokens',
      'include_recent_turns',
    ]) {
      assert.ok(k in handover.inputSchema.properties!, k);
    }
    const record = byName.get('record_result')!;
    assert.deepEqual(record.inputSchema.required, ['specialist']);
    assert.ok(!('tests_run' in record.inputSchema.properties!), 'tests come from the session log, not the model');
    assert.equal((byName.get('prior_handoffs')!.inputSchema.properties!.max_entries as { type: string }).type, 'integer');
    const history = byName.get('request_full_history')!;
    assert.deepEqual(Object.keys(history.inputSchema.properties!).sort(), ['handoff', 'max_tokens', 'project_root']);
    assert.equal((history.inputSchema.properties!.max_tokens as { maximum: number }).maximum, 50_000);
    assert.equal(history.annotations?.readOnlyHint, true);
    assert.equal(byName.get('list_specialists')!.annotations?.readOnlyHint, true);
  });

  it("handover_to_specialist with the seed's example arguments returns the result object of runHandoverTool", async () => {
    const result = (await client.callTool({ name: 'handover_to_specialist', arguments: seedArguments(repo) })) as CallToolResult;
    assert.notEqual(result.isError, true, text(result));
    handed = HandoverOkSchema.parse(result.structuredContent);
    assert.equal(text(result), toolResultText(handed), 'the text is the result object (and its WARNING lines)');
    assert.deepEqual(JSON.parse(text(result).split('\nWARNING:')[0]), result.structuredContent);
    assert.equal(handed.persona_marker, '[frontend designer]');
    assert.equal(handed.package.specialist, 'frontend_designer');
    assert.equal(handed.package.topic, 'landing-page-hero');
    assert.ok(existsSync(handed.handoff_file), handed.handoff_file);
    assert.ok(existsSync(handed.briefing.path), handed.briefing.path);
    assert.ok(handed.handoff_file.startsWith(path.join(repo, '.handoff', 'handoffs')));
    assert.deepEqual(handed.package.touched_files.map((f) => [f.path, f.status]).sort(), [
      ['src/hero.css', '?'],
      ['src/hero.tsx', 'M'],
    ]);
    const parsed = parseHandoff(readFileSync(handed.handoff_file, 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.handoff.frontmatter.from, 'mcp-test-client', "from: the client's name from the handshake");
    assert.equal(parsed.handoff.frontmatter.return_condition, 'When the hero has a design the user approved');

    // The same call in this process, on a twin repository: the same result object.
    const twin = repoWithHero();
    const local = await runHandoverTool(seedArguments(twin), {
      defaultRoot: twin,
      from: 'mcp-test-client',
      environment: (root) => ({ workspaceRoot: root, sessionLog: { mode: 'none' } }),
    });
    assert.ok(local.ok, local.ok ? '' : local.text);
    assert.deepEqual(keyPaths(handed), keyPaths(local.result));
    const stable = (r: HandoverOk) => ({
      persona_marker: r.persona_marker,
      specialist: r.package.specialist,
      topic: r.package.topic,
      summary: r.package.summary,
      decisions: r.package.decisions,
      artifacts: r.package.artifacts,
      return_condition: r.package.return_condition,
      touched: r.package.touched_files,
      handoff: path.relative(path.dirname(path.dirname(r.handoff_file)), r.handoff_file).replace(/^handoffs\/.*_/, 'handoffs/*_'),
      // One file per section (issue 20): the briefing is the folder, the file is named by the handoff's id.
      briefing: { ...r.briefing, path: path.basename(path.dirname(r.briefing.path)) },
    });
    assert.deepEqual(stable(handed), stable(local.result));
  });

  it('returns isError with an ERROR: text for bad calls, never a protocol error', async () => {
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
    const unknown = await call('handover_to_specialist', { ...seedArguments(repo), specialist_profile: 'frontend_desiner' });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /^ERROR: unknown specialist "frontend_desiner" — did you mean: frontend_designer/);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['handover_to_specialist', { topic: 't' }, /^ERROR: specialist_profile is required/],
      ['handover_to_specialist', { specialist_profile: 'hacker', topic: 't', project_root: 'relative/dir' }, /^ERROR: project_root must be absolute/],
      ['handover_to_specialist', { specialist_profile: 'hacker', topic: 't', tests_run: [] }, /^ERROR: unknown field tests_run/],
      ['list_specialists', { project_root: path.join(repo, 'missing') }, /^ERROR: project_root .* does not exist/],
      ['prior_handoffs', { max_entries: -1 }, /^ERROR: max_entries must be 0 or more/],
      ['record_result', { summary: 'x' }, /^ERROR: specialist is required/],
      ['record_result', { specialist: 'hacker', tests_run: [] }, /^ERROR: unknown field tests_run — the tool takes: specialist, /],
      ['record_result', { specialist: 'nobody' }, /^ERROR: unknown specialist "nobody"/],
      ['no_such_tool', {}, /^ERROR: unknown tool "no_such_tool" — the tools are: handover_to_specialist, /],
    ];
    for (const [name, args, expected] of cases) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(text(r), expected);
      assert.equal(r.structuredContent, undefined);
    }
  });

  it('list_specialists lists every built-in with its marker, mandate and return condition', async () => {
    const result = (await client.callTool({ name: 'list_specialists', arguments: {} })) as CallToolResult;
    assert.notEqual(result.isError, true, text(result));
    const listed = (result.structuredContent as { specialists: Array<Record<string, string>> }).specialists;
    assert.deepEqual(JSON.parse(text(result)), result.structuredContent);
    for (const s of BUILTIN_SPECIALISTS) {
      const got = listed.find((x) => x.id === s.id);
      assert.ok(got, s.id);
      assert.deepEqual(
        [got.label, got.persona_marker, got.mandate, got.return_condition, got.source],
        [s.label, s.personaMarker, s.mandate, s.returnCondition, 'builtin'],
      );
    }
  });

  it('prior_handoffs holds the handoff just written; record_result hands back', async () => {
    assert.ok(handed, 'the handover test ran first');
    const name = path.basename(handed.handoff_file);
    const prior = (await client.callTool({ name: 'prior_handoffs', arguments: { project_root: repo } })) as CallToolResult;
    assert.notEqual(prior.isError, true, text(prior));
    assert.ok(text(prior).startsWith(`${PRIOR_HANDOFFS_HEADING}\n`));
    assert.ok(text(prior).includes(`### ${name}`), 'the handoff is in the block');
    assert.ok(text(prior).includes('Keep the existing colour tokens'));
    const structured = prior.structuredContent as { entries: Array<Record<string, unknown>>; included: number; budget_bytes: number };
    assert.equal(structured.budget_bytes, 30 * 1024);
    assert.ok(structured.included >= 1);
    assert.deepEqual(
      {
        name: structured.entries[0].name,
        kind: structured.entries[0].kind,
        id: structured.entries[0].id,
        status: structured.entries[0].status,
        specialist: structured.entries[0].specialist,
      },
      { name, kind: 'handoff', id: handed.package.id, status: 'pending', specialist: 'frontend_designer' },
    );

    const back = (await client.callTool({
      name: 'record_result',
      arguments: { specialist: 'frontend_designer', summary: 'Hero approved by the user.', criteria_met: 'all' },
    })) as CallToolResult;
    assert.notEqual(back.isError, true, text(back));
    const outcome = back.structuredContent as { entries: Array<{ handoff_id: string; result_file: string; status: string }>; note_file: string | null };
    assert.equal(outcome.entries.length, 1);
    assert.equal(outcome.entries[0].handoff_id, handed.package.id);
    assert.equal(outcome.entries[0].status, 'complete');
    assert.equal(outcome.note_file, null);
    assert.ok(existsSync(outcome.entries[0].result_file));
    assert.match(text(back), /^result: \.handoff\/handoffs\/.+_frontend_designer\.md \(.+: complete\)$/m);
    // The status is an event beside the handoff (issue 20), read with the handoff's head.
    const answered = await readHandoffHead(handed.handoff_file);
    assert.equal(answered?.frontmatter.status, 'complete');

    const after = (await client.callTool({ name: 'prior_handoffs', arguments: { max_entries: 1 } })) as CallToolResult;
    const newest = after.structuredContent as { entries: Array<Record<string, unknown>>; entries_omitted: number };
    assert.equal(newest.entries.length, 1);
    assert.equal(newest.entries[0].kind, 'result');
    assert.equal(newest.entries[0].parent_id, handed.package.id);
    assert.equal(newest.entries_omitted, 1);
    // Issue 17: VS Code logs an MCP server's stderr as warnings, so nothing is printed at
    // start or for a call that succeeds; only the failed calls (the test above) are.
    const lines = stderr.trimEnd().split('\n');
    assert.ok(lines.length > 0 && lines.every((l) => /^specialist-handoff mcp: \w+: ERROR: /.test(l)), `stderr holds only the failed calls:\n${stderr}`);
  });

  it('answers a call piped before the end of its input, then exits 0; stdout holds only JSON-RPC', () => {
    const dir = repoWithHero();
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'piped', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'handover_to_specialist', arguments: { specialist_profile: 'hacker', topic: 'piped call' } },
      },
    ];
    const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, 'mcp', '--cwd', dir], {
      cwd: REPO_ROOT,
      input: messages.map((m) => `${JSON.stringify(m)}\n`).join(''),
      encoding: 'utf8',
      env: process.env,
      timeout: 25_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'nothing on stderr when the server starts and its calls succeed (VS Code logs MCP stderr as warnings)');
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: CallToolResult });
    assert.deepEqual(
      lines.map((l) => l.id),
      [1, 2],
    );
    const handed = HandoverOkSchema.parse(lines[1].result.structuredContent);
    assert.ok(existsSync(handed.handoff_file));
    const parsed = parseHandoff(readFileSync(handed.handoff_file, 'utf8'));
    assert.ok(parsed.ok && parsed.handoff.frontmatter.from === 'piped');
  });
});
