/**
 * The output boundary (docs/DESIGN.md §7 "The gate", Outputs): what the CLI prints and what
 * the MCP tools return pass the output gate, even when a file they read was edited by hand
 * to hold a secret and control characters after it was written — the gate does not rely on
 * the files being clean. Tokens are generated (GitHub's `ghp_` + 36 base62 shape).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { gateToolResult, callMcpTool, type McpServerContext } from '../../src/mcp/server';
import { handover } from '../../src/engine/handover/handover';
import { randomString } from '../helpers/fakeSecrets';
import { cli } from '../helpers/cli';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

const TOKEN = `ghp_${randomString(1433, 36)}`;
const PLANTED = `pasted ${TOKEN} \u001b]0;retitled\u0007 \u202eevil`;

/** A repository with one handoff whose summary was then edited to hold {@link PLANTED}. */
async function repoWithEditedHandoff(): Promise<string> {
  const ws = initRepo(tempDir('handoff-output-gate-'));
  write(ws, 'a.txt', 'a\n');
  commitAll(ws, 'c1');
  const r = await handover({ specialist: 'quality_reviewer', topic: 'Output gate', summary: 'SUMMARY_HERE' }, { workspaceRoot: ws });
  assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
  if (r.status === 'ok') writeFileSync(r.handoff_file, readFileSync(r.handoff_file, 'utf8').replace('SUMMARY_HERE', PLANTED));
  return ws;
}

function assertClean(label: string, text: string): void {
  assert.ok(!text.includes(TOKEN), `${label} carries the token`);
  // eslint-disable-next-line no-control-regex
  assert.ok(!/[\u0007\u001b\u202e]/.test(text), `${label} carries a raw control or bidi character: ${JSON.stringify(text.slice(0, 200))}`);
}

describe('the output gate (CLI and MCP)', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('the CLI prompt, plain and --json, prints no secret and no control character from an edited handoff', async () => {
    const ws = await repoWithEditedHandoff();
    const plain = await cli(['prompt', '-s', 'quality_reviewer', '--no-take'], ws);
    assert.equal(plain.code, 0, plain.err);
    assertClean('stdout', plain.out);
    assertClean('stderr', plain.err);
    const json = await cli(['prompt', '-s', 'quality_reviewer', '--json', '--no-take'], ws);
    assert.equal(json.code, 0, json.err);
    const parsed = JSON.parse(json.out);
    assert.equal(parsed.status, 'ok', 'the JSON still parses');
    assertClean('--json stdout', json.out);
  });

  it('MCP prior_handoffs returns no secret and no control character, in its text and its structured content', async () => {
    const ws = await repoWithEditedHandoff();
    const ctx: McpServerContext = {
      version: 'test',
      defaultRoot: ws,
      allowedRoots: [ws],
      environment: (r) => ({ workspaceRoot: r, sessionLog: { mode: 'none' } }),
    };
    const r = await callMcpTool('prior_handoffs', {}, ctx);
    assert.ok(!r.isError, JSON.stringify(r.content));
    assertClean('MCP result', JSON.stringify(r));
  });

  it('gateToolResult sanitizes every text part and every string of the structured content', async () => {
    const r = await gateToolResult({ content: [{ type: 'text', text: PLANTED }], structuredContent: { deep: [{ note: PLANTED, count: 2 }] } });
    assertClean('gated result', JSON.stringify(r));
    assert.deepEqual((r.structuredContent as { deep: Array<{ count: number }> }).deep[0].count, 2);
    assert.match((r.content[0] as { text: string }).text, /\[REDACTED:github-token\]/);
  });
});
