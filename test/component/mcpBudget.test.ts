/**
 * The budget presets of `handover_to_specialist` over MCP: the SDK's own `Client` over
 * `StdioClientTransport` spawns the real CLI (`mcp --cwd <repo>`) on a real repository with 300
 * changed files, more than a small budget holds. `budget: "small"` writes a handoff of at most
 * 1,000 tokens that still names every changed file (rolled up into folders with counts),
 * `"large"` one with the 8,000-token budget; a preset beside `max_context_tokens`, or a name
 * that is no preset, comes back as `isError` with the `ERROR:` text naming the tool's arguments.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { BUDGET_PRESETS } from '../../src/core/handoff/limits';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { CLI_FROM_SOURCE } from '../helpers/cli';
import { cleanupTempDirs, commitAll, initRepo, write } from '../helpers/repo';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Changed files: three folders of 100. */
const FOLDERS = ['src/api', 'src/ui', 'test/unit'];

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.ok(first && first.type === 'text', 'the first content item is text');
  return first.text;
}

describe('MCP server: budget presets of handover_to_specialist', function () {
  this.timeout(60_000);
  let repo: string;
  let client: Client;

  before(async () => {
    repo = initRepo();
    write(repo, 'README.md', '# app\n');
    commitAll(repo, 'initial');
    for (const folder of FOLDERS)
      for (let i = 0; i < 100; i++) write(repo, `${folder}/module-${String(i).padStart(3, '0')}.ts`, `export const m${i} = ${i};\n`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_FROM_SOURCE, 'mcp', '--cwd', repo],
      cwd: REPO_ROOT,
      env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
      stderr: 'pipe',
    });
    client = new Client({ name: 'mcp-budget-test', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    cleanupTempDirs();
  });

  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({
      name: 'handover_to_specialist',
      arguments: { specialist_profile: 'quality_reviewer', parent: 'none', ...args },
    })) as CallToolResult;

  it('lists budget as an enum of the presets beside max_context_tokens', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'handover_to_specialist')?.inputSchema;
    const budget = schema?.properties?.budget as { type: string; enum: string[]; description: string } | undefined;
    assert.ok(budget, 'budget is an argument');
    assert.equal(budget.type, 'string');
    assert.deepEqual(budget.enum, ['small', 'default', 'large']);
    assert.match(budget.description, /small \(1,000 tokens/);
    assert.ok(schema?.properties && 'max_context_tokens' in schema.properties);
  });

  it('budget "small" writes a handoff within 1,000 tokens that still names every changed file, rolled up', async () => {
    const r = await call({ topic: 'small budget', budget: 'small' });
    assert.notEqual(r.isError, true, text(r));
    const ok = HandoverOkSchema.parse(r.structuredContent);
    assert.equal(ok.package.max_context_tokens, BUDGET_PRESETS.small);
    assert.ok(ok.package.estimated_tokens <= BUDGET_PRESETS.small, `${ok.package.estimated_tokens} tokens`);
    const parsed = parseHandoff(readFileSync(ok.handoff_file, 'utf8'));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    assert.equal(parsed.handoff.frontmatter.max_context_tokens, BUDGET_PRESETS.small);
    const touched = parsed.handoff.sections.get('Touched files') ?? '';
    for (const folder of FOLDERS) assert.ok(touched.includes(`- \`${folder}/\` — 100 files (? 100)`), `${folder} rolled up with its count:\n${touched}`);
    assert.ok(
      ok.package.dropped.some((d) => d.section === 'touched_files' && (d.shortened ?? 0) === 300),
      JSON.stringify(ok.package.dropped),
    );
  });

  it('budget "large" hands over with 8,000 tokens', async () => {
    const r = await call({ topic: 'large budget', budget: 'large' });
    assert.notEqual(r.isError, true, text(r));
    const ok = HandoverOkSchema.parse(r.structuredContent);
    assert.equal(ok.package.max_context_tokens, BUDGET_PRESETS.large);
    assert.ok(ok.package.estimated_tokens <= BUDGET_PRESETS.large, `${ok.package.estimated_tokens} tokens`);
  });

  it('refuses a preset beside max_context_tokens, and a name that is no preset, as isError naming the arguments', async () => {
    const both = await call({ topic: 'both', budget: 'small', max_context_tokens: 2000 });
    assert.equal(both.isError, true);
    assert.match(
      text(both),
      /^ERROR: budget and max_context_tokens are both given — give one of them: a preset \(small, default, large\) or a number of tokens/,
    );
    const unknown = await call({ topic: 'unknown', budget: 'huge' });
    assert.equal(unknown.isError, true);
    assert.equal(text(unknown), 'ERROR: budget must be one of: small, default, large');
  });
});
