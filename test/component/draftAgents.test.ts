/**
 * The agents' ways in draft what their caller did not give (issue 15): the tool
 * `handover_to_specialist` (the LM tool's and the MCP server's engine, src/engine/agents/agentTool.ts),
 * the real MCP server over stdio finding the Claude Code transcript on its own, and the
 * Claude Code hook (src/engine/agents/hook.ts) — on real temporary git repositories with a real
 * Claude Code transcript. A field the caller gives is never replaced.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseUserRequests } from '../../src/core/handoff/draftSections';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import { runHandoverTool } from '../../src/engine/agents/agentTool';
import { runClaudeHook } from '../../src/engine/agents/hook';
import { CLI_FROM_SOURCE } from '../helpers/cli';
import { SESSION_REQUESTS, writeClaudeSession } from '../helpers/claudeSession';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const OPEN_STEPS = ['(in progress) Add the cart total', 'Run the tests', 'Keep the old API format'];

function repo(): string {
  const ws = initRepo(tempDir('handoff-draft-agents-'));
  write(ws, 'src/checkout.ts', 'export const total = 0;\n');
  commitAll(ws, 'Render the checkout line items');
  write(ws, 'src/checkout.ts', 'export const total = 1;\n');
  return ws;
}

describe('agents draft what they did not give: the tool, the MCP server, the Claude Code hook', function () {
  this.timeout(60_000);
  const savedXdg = process.env.XDG_STATE_HOME;
  before(() => {
    process.env.XDG_STATE_HOME = tempDir('handoff-draft-agents-xdg-');
  });
  after(() => {
    if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = savedXdg;
    cleanupTempDirs();
  });

  it('handover_to_specialist drafts the summary, next steps, done items and user requests, and keeps what the agent gave', async () => {
    const ws = repo();
    const transcript = writeClaudeSession(tempDir('handoff-draft-agents-t-'), ws);
    const ctx = { defaultRoot: ws, allowedRoots: [ws], environment: (root: string) => ({ workspaceRoot: root, sessionLog: { mode: transcript } }) };
    const bare = await runHandoverTool({ specialist_profile: 'quality_reviewer', topic: 'cart total' }, ctx);
    assert.ok(bare.ok, bare.text);
    const p = bare.result.package;
    assert.deepEqual(p.next_steps, OPEN_STEPS);
    assert.deepEqual(p.completed, ['Read the checkout page', 'Show cents']);
    assert.deepEqual(
      p.user_requests.map((u) => u.text),
      [...SESSION_REQUESTS],
    );
    assert.deepEqual(
      p.commands_run.map((c) => [c.command, c.exit_code]),
      [['npm run build', 2]],
    );
    assert.match(p.summary, /^Asked: "No — show the total in cents/);
    assert.deepEqual(p.drafted, ['summary', 'next_steps', 'completed', 'user_requests', 'commands_run']);

    const given = await runHandoverTool(
      {
        specialist_profile: 'test_debug_engineer',
        topic: 'cart tests',
        parent: 'none',
        summary: 'The agent’s own summary.',
        next_steps: ['Fix the cents rounding'],
        completed: ['Wrote the total'],
      },
      ctx,
    );
    assert.ok(given.ok, given.text);
    const g = given.result.package;
    assert.equal(g.summary, 'The agent’s own summary.');
    assert.deepEqual(g.next_steps, ['Fix the cents rounding']);
    assert.deepEqual(g.completed, ['Wrote the total']);
    assert.deepEqual(g.drafted, ['user_requests', 'commands_run']);
  });

  it('the MCP server finds the workspace’s Claude Code transcript and drafts from it', async () => {
    const ws = repo();
    const claudeHome = tempDir('handoff-draft-agents-claude-');
    const projects = path.join(claudeHome, 'projects', claudeProjectDirName(ws));
    mkdirSync(projects, { recursive: true });
    writeClaudeSession(projects, ws);
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
      CLAUDE_CONFIG_DIR: claudeHome,
      HOME: tempDir('handoff-draft-agents-home-'),
    };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_FROM_SOURCE, 'mcp', '--cwd', ws],
      cwd: REPO_ROOT,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'draft-test-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({
        name: 'handover_to_specialist',
        arguments: { specialist_profile: 'implementation_engineer', topic: 'cart total', decisions: ['Cents as integers'] },
      })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      const first = r.content[0];
      assert.ok(first?.type === 'text');
      const result = HandoverOkSchema.parse(JSON.parse(first.text.split('\nWARNING:')[0]));
      assert.deepEqual(result.package.next_steps, OPEN_STEPS);
      assert.deepEqual(
        result.package.decisions.map((d) => d.text),
        ['Cents as integers'],
      );
      const file = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
      assert.ok(file.ok);
      assert.equal(parseUserRequests(file.handoff.sections.get('User requests')!).at(-1)?.text, SESSION_REQUESTS[1]);
    } finally {
      await client.close();
    }
  });

  it('the Claude Code hook writes a safety net whose summary says so, then drafts the rest from the transcript', async () => {
    const ws = repo();
    const transcript = writeClaudeSession(tempDir('handoff-draft-agents-hook-'), ws);
    const input = {
      session_id: '7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d',
      transcript_path: transcript,
      cwd: ws,
      hook_event_name: 'SessionEnd',
      reason: 'prompt_input_exit',
    };
    const out = await runClaudeHook(JSON.stringify(input));
    assert.equal(out.status, 'written', JSON.stringify(out));
    if (out.status !== 'written') return;
    const p = out.result.package;
    assert.match(p.summary, /^Written automatically by the Claude Code SessionEnd/);
    assert.match(p.summary, /\n\nAsked: "No — show the total in cents[^\n]*\nDone: 2 plan items completed/);
    assert.deepEqual(p.next_steps, OPEN_STEPS);
    assert.deepEqual(p.completed, ['Read the checkout page', 'Show cents']);
    assert.deepEqual(
      p.user_requests.map((u) => u.text),
      [...SESSION_REQUESTS],
    );
    assert.ok(
      ['summary', 'next_steps', 'completed', 'user_requests'].every((f) => (p.drafted as string[]).includes(f)),
      p.drafted.join(', '),
    );
  });
});
