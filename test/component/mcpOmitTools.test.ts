/**
 * The MCP server VS Code starts from the extension's server definition lists each tool once
 * in the chat (issue 17): the definition's arguments (`mcpServerSpecs`, the same builder the
 * VS Code adapter uses) run the real CLI from the sources through the MCP SDK's own client;
 * `tools/list` leaves out `handover_to_specialist` and `request_full_history` (issue 18), which
 * the extension's language model tools offer, and a call to either is refused by name. Started without the flag, as other
 * agents start it, the server keeps every tool. A name that is no tool is bad input.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpServerSpecs } from '../../src/core/agents/mcpServerDefinition';
import { HANDOVER_TOOL_NAME } from '../../src/engine/agents/agentTool';
import { HISTORY_TOOL_NAME, LANGUAGE_MODEL_TOOL_NAMES } from '../../src/engine/timeline/historyTool';
import { MCP_TOOL_NAMES } from '../../src/mcp/tools';
import { cli, CLI_FROM_SOURCE } from '../helpers/cli';
import { cleanupTempDirs, commitAll, initRepo, write } from '../helpers/repo';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Connects the SDK's client to the CLI from the sources started with `mcpArgs` (what follows `cli.js`). */
async function connect(mcpArgs: readonly string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI_FROM_SOURCE, ...mcpArgs],
    cwd: REPO_ROOT,
    env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'omit-tools-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('MCP server: tools the VS Code definition omits', function () {
  this.timeout(30_000);
  let repo: string;
  const clients: Client[] = [];

  before(() => {
    repo = initRepo();
    write(repo, 'a.txt', 'a\n');
    commitAll(repo, 'first');
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    cleanupTempDirs();
  });

  it("started as VS Code's definition says, it lists every tool but the language model tools', and refuses a call to those", async () => {
    // The omitted tools are the ones src/vscode/agents/mcpServerDefinitionProvider.ts passes (issue 18 adds request_full_history).
    const [spec] = mcpServerSpecs({
      execPath: process.execPath,
      extensionPath: '/ext',
      folders: [{ name: 'repo', path: repo }],
      version: '0.1.0',
      omitTools: LANGUAGE_MODEL_TOOL_NAMES,
    });
    assert.equal(spec.args[0], path.join('/ext', 'dist', 'cli.js'));
    assert.deepEqual(spec.args.slice(1), ['mcp', '--cwd', repo, '--omit-tool', 'handover_to_specialist', '--omit-tool', 'request_full_history']);
    const client = await connect(spec.args.slice(1));
    clients.push(client);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['list_specialists', 'prior_handoffs', 'record_result'],
    );
    const refused = (await client.callTool({ name: HANDOVER_TOOL_NAME, arguments: { specialist_profile: 'hacker', topic: 't' } })) as CallToolResult;
    assert.equal(refused.isError, true);
    const first = refused.content[0];
    assert.ok(first?.type === 'text');
    assert.match(
      first.text,
      /^ERROR: handover_to_specialist is not offered by this server \(started with --omit-tool handover_to_specialist;.*\) — the tools here are: list_specialists, prior_handoffs, record_result$/,
    );
    const history = (await client.callTool({ name: HISTORY_TOOL_NAME, arguments: {} })) as CallToolResult;
    assert.equal(history.isError, true);
    assert.ok(history.content[0]?.type === 'text' && history.content[0].text.startsWith('ERROR: request_full_history is not offered by this server'));
    const listed = (await client.callTool({ name: 'list_specialists', arguments: {} })) as CallToolResult;
    assert.notEqual(listed.isError, true, 'the other tools still answer');
  });

  it('started without the flag (the CLI for other agents), it lists every tool', async () => {
    const client = await connect(['mcp', '--cwd', repo]);
    clients.push(client);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...MCP_TOOL_NAMES],
    );
    assert.ok(MCP_TOOL_NAMES.includes(HANDOVER_TOOL_NAME));
  });

  it('--omit-tool with a name that is no tool exits 2 naming the tools, and serves nothing', async () => {
    const r = await cli(['mcp', '--cwd', repo, '--omit-tool', 'handover', '--omit-tool', 'record_result'], repo);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.equal(
      r.err,
      'ERROR: --omit-tool "handover" names no tool of this server — pass one of handover_to_specialist, list_specialists, prior_handoffs, record_result, request_full_history',
    );
  });
});
