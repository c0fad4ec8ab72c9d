/**
 * The MCP server's answers to malformed calls (issue 16): `arguments` that is not an
 * object gets a tool result with `isError` and the `ERROR:` text (not a JSON-RPC error
 * carrying zod's raw issue list), and a list item over the documented length (20,000
 * characters, src/core/handoff/limits.ts, docs/DESIGN.md §4 "Limits") is refused, as the
 * CLI and the panel refuse it. The SDK's own `Client` talks to the server of src/mcp/server.ts
 * over the SDK's in-memory transport, on a real temporary git repository.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_ITEM_CHARS } from '../../src/core/handoff/limits';
import { createMcpServer } from '../../src/mcp/server';
import { MCP_TOOL_NAMES } from '../../src/mcp/tools';
import { repoWithWork } from '../helpers/cli';
import { cleanupTempDirs } from '../helpers/repo';

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.ok(first && first.type === 'text');
  return first.text;
}

describe('MCP server: malformed calls get tool errors in our words', function () {
  this.timeout(30_000);
  let repo: string;
  let client: Client;

  before(async () => {
    repo = repoWithWork();
    const server = createMcpServer({
      version: '0.0.0',
      defaultRoot: repo,
      allowedRoots: [repo],
      environment: (root) => ({ workspaceRoot: root, sessionLog: { mode: 'none' } }),
    });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'edge-test-client', version: '1.0.0' });
    await client.connect(clientSide);
  });

  after(async () => {
    await client?.close();
    cleanupTempDirs();
  });

  /** A raw tools/call, as a client that does not check its own arguments sends it. */
  async function call(name: string, args: unknown): Promise<CallToolResult> {
    return client.request({ method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } }, CallToolResultSchema);
  }

  it('arguments that are not an object: isError with one ERROR line naming what came, for every tool', async () => {
    const cases: Array<[unknown, string]> = [
      ['quality_reviewer', 'a string'],
      [['quality_reviewer'], 'a list'],
      [null, 'null'],
      [42, 'a number'],
      [true, 'a boolean'],
    ];
    for (const name of MCP_TOOL_NAMES) {
      for (const [args, got] of cases) {
        const r = await call(name, args);
        assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.equal(
          text(r),
          `ERROR: arguments must be an object of the tool's fields (got ${got}) — send them as {"field": value, …}, as the tool's input schema lists them`,
        );
      }
    }
    assert.equal(existsSync(path.join(repo, '.handoff', 'handoffs')), false, 'nothing written');
  });

  it('a recent_turns or decisions item over 20,000 characters is refused naming the item; at the limit it is written', async () => {
    for (const field of ['recent_turns', 'decisions', 'next_steps']) {
      const r = await call('handover_to_specialist', { specialist_profile: 'quality_reviewer', topic: 'limits', [field]: ['short', 'x'.repeat(300_000)] });
      assert.equal(r.isError, true, field);
      assert.equal(text(r), `ERROR: ${field}.1 items must be at most ${MAX_ITEM_CHARS.toLocaleString('en')} characters`);
    }
    assert.equal(existsSync(path.join(repo, '.handoff', 'handoffs')), false, 'nothing written');
    const ok = await call('handover_to_specialist', {
      specialist_profile: 'quality_reviewer',
      topic: 'limits',
      recent_turns: [`user: ${'y'.repeat(MAX_ITEM_CHARS - 6)}`],
      include_recent_turns: 1,
      max_context_tokens: 100_000,
    });
    assert.equal(ok.isError, undefined, text(ok));
    const turns = (ok.structuredContent as { package: { recent_turns: Array<{ role: string; text: string }> } }).package.recent_turns;
    assert.deepEqual(
      turns.map((t) => [t.role, t.text.length]),
      [['user', MAX_ITEM_CHARS - 6]],
    );
  });

  it('record_result refuses a criteria_met item over the limit the same way', async () => {
    const r = await call('record_result', { specialist: 'quality_reviewer', criteria_met: ['z'.repeat(MAX_ITEM_CHARS + 1)] });
    assert.equal(r.isError, true);
    assert.match(text(r), /^ERROR: criteria_met\.0 must be at most 20,000 characters/);
  });
});
