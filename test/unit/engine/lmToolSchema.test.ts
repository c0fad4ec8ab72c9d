/**
 * The language model tool's contribution in package.json against the engine: the input
 * schema VS Code and the models see is exactly the one generated from the tool's zod
 * schema (so they never drift), and the names and description are the engine's. Also the
 * chat participant's and the MCP server definition provider's contributions.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HANDOVER_TOOL_DESCRIPTION, HANDOVER_TOOL_NAME, handoverToolJsonSchema, parseToolInput } from '../../../src/engine/agents/agentTool';
import { HISTORY_TOOL_DESCRIPTION, HISTORY_TOOL_NAME, historyToolJsonSchema, parseHistoryInput } from '../../../src/engine/timeline/historyTool';

interface Contributes {
  languageModelTools?: Array<Record<string, unknown>>;
  chatParticipants?: Array<{ id: string; name: string; commands?: Array<{ name: string }> }>;
  mcpServerDefinitionProviders?: Array<{ id: string; label: string }>;
}

const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: Contributes };

describe('package.json contributions for agents', () => {
  const tools = pkg.contributes.languageModelTools ?? [];
  const tool = tools.find((t) => t.name === HANDOVER_TOOL_NAME);

  it(`contributes the language model tool ${HANDOVER_TOOL_NAME} once`, () => {
    assert.equal(tools.filter((t) => t.name === HANDOVER_TOOL_NAME).length, 1);
  });

  it('declares exactly the input schema generated from the tool’s zod schema', () => {
    assert.ok(tool, 'tool contributed');
    assert.deepStrictEqual(tool.inputSchema, handoverToolJsonSchema());
  });

  it('gives the model the engine’s description, and the user a #handover reference', () => {
    assert.ok(tool);
    assert.equal(tool.modelDescription, HANDOVER_TOOL_DESCRIPTION);
    assert.equal(tool.toolReferenceName, 'handover');
    assert.equal(tool.canBeReferencedInPrompt, true);
    for (const key of ['displayName', 'userDescription', 'icon']) {
      assert.equal(typeof tool[key], 'string', `${key} is set`);
      assert.ok((tool[key] as string).length > 0, `${key} is not empty`);
    }
  });

  it('the schema requires what the tool requires and refuses unknown fields, as the tool does', () => {
    const schema = handoverToolJsonSchema() as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    assert.deepEqual(schema.required, ['specialist_profile', 'topic']);
    assert.equal(schema.additionalProperties, false);
    assert.equal(parseToolInput({ specialist_profile: 'quality_reviewer', topic: 't', nope: 1 }).ok, false);
    for (const field of [
      'specialist_profile',
      'topic',
      'summary',
      'recent_turns',
      'decisions',
      'artifacts',
      'return_condition',
      'handover_reason',
      'project_root',
      'max_context_tokens',
      'include_recent_turns',
    ]) {
      assert.ok(field in schema.properties, `Agent Zero's argument ${field} is in the schema`);
    }
    // The budget presets, as the request and the CLI's --budget take them.
    assert.deepEqual((schema.properties.budget as { enum: string[] }).enum, ['small', 'default', 'large']);
    assert.equal(parseToolInput({ specialist_profile: 'quality_reviewer', topic: 't', budget: 'small' }).ok, true);
    assert.equal(parseToolInput({ specialist_profile: 'quality_reviewer', topic: 't', budget: 1000 }).ok, false);
  });

  it(`contributes ${HISTORY_TOOL_NAME} once, with the generated input schema and the engine's description (issue 18)`, () => {
    const history = tools.filter((t) => t.name === HISTORY_TOOL_NAME);
    assert.equal(history.length, 1);
    assert.deepStrictEqual(history[0].inputSchema, historyToolJsonSchema());
    assert.equal(history[0].modelDescription, HISTORY_TOOL_DESCRIPTION);
    assert.equal(history[0].toolReferenceName, 'fullHistory');
    assert.equal(parseHistoryInput({ nope: 1 }).ok, false);
    assert.deepEqual(parseHistoryInput({ max_tokens: 999 }), { ok: false, text: 'ERROR: max_tokens must be at least 1,000' });
    assert.deepEqual(parseHistoryInput(undefined), { ok: true, data: {} });
  });

  it('contributes the @handoff chat participant with /handover, /timeline and /prompt', () => {
    const p = (pkg.contributes.chatParticipants ?? []).find((c) => c.id === 'specialist-handoff.handoff');
    assert.ok(p, 'participant contributed');
    assert.equal(p.name, 'handoff');
    assert.deepEqual(
      p.commands?.map((c) => c.name),
      ['handover', 'timeline', 'prompt'],
    );
  });

  it('declares the MCP server definition provider id the extension registers', () => {
    assert.deepEqual(
      pkg.contributes.mcpServerDefinitionProviders?.map((p) => p.id),
      ['specialist-handoff.mcp-server'],
    );
  });
});
