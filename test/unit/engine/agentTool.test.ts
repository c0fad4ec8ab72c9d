/**
 * `handover_to_specialist` (src/engine/agents/agentTool.ts): Agent Zero's signature validated, the
 * evidence collected by the engine, the result object returned, every failure an
 * `ERROR:` text; and the loop guard of agent calls — a hop past the depth limit and a
 * return to a visited specialist with the code unchanged are refused, a return after
 * progress is allowed and recorded. Real git repositories in temporary folders.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseHandoff } from '../../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../../src/core/handoff/schema';
import { HANDOVER_TOOL_NAME, handoverToolJsonSchema, parseToolInput, runHandoverTool, type ToolContext } from '../../../src/engine/agents/agentTool';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';
import { seedArguments } from '../../helpers/toolSeed';

function repo(): string {
  const dir = initRepo(tempDir('handoff-tool-'));
  write(dir, 'src/hero.tsx', 'export const Hero = () => null;\n');
  commitAll(dir, 'initial');
  write(dir, 'src/hero.tsx', 'export const Hero = () => "bold";\n');
  return dir;
}

function context(root: string, extra: Partial<ToolContext> = {}): ToolContext {
  return { defaultRoot: root, environment: (r) => ({ workspaceRoot: r, sessionLog: { mode: 'none' } }), ...extra };
}

describe(`the ${HANDOVER_TOOL_NAME} tool`, function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it("hands over with the seed's example arguments: files written, the result object returned, evidence from git", async () => {
    const ws = repo();
    const out = await runHandoverTool(seedArguments(ws), context(ws));
    assert.ok(out.ok, out.ok ? '' : out.text);
    const result = HandoverOkSchema.parse(out.result);
    assert.equal(result.persona_marker, '[frontend designer]');
    assert.equal(result.package.specialist, 'frontend_designer');
    assert.equal(result.package.from, 'agent');
    assert.ok(existsSync(result.handoff_file) && existsSync(result.briefing.path));
    assert.deepEqual(JSON.parse(out.text.split('\nWARNING:')[0]), JSON.parse(JSON.stringify(result)), 'the text is the result object');
    // "ROLE: text" turns keep their roles, as the CLI's --turn does.
    assert.deepEqual(
      result.package.recent_turns.map((t) => [t.role, t.text]),
      [
        ['user', 'make the hero bolder'],
        ['assistant', 'drafted three variants in hero.tsx'],
      ],
    );
    // Evidence comes from git, not from the model.
    assert.deepEqual(
      result.package.touched_files.map((f) => f.path),
      ['src/hero.tsx'],
    );
    const parsed = parseHandoff(readFileSync(result.handoff_file, 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.handoff.frontmatter.return_condition, 'When the hero has a design the user approved');
  });

  it('returns ERROR texts, never throws: unknown profile, missing fields, relative or foreign roots, unknown fields, wrong types', async () => {
    const ws = repo();
    const other = tempDir('handoff-elsewhere-');
    const cases: Array<[unknown, RegExp, Partial<ToolContext>?]> = [
      [{ ...seedArguments(ws), specialist_profile: 'frontend_desginer' }, /^ERROR: unknown specialist "frontend_desginer" — did you mean: frontend_designer/],
      [{ topic: 'x' }, /^ERROR: specialist_profile is required$/],
      [{ specialist_profile: 'hacker' }, /^ERROR: topic is required$/],
      [{ specialist_profile: '  ', topic: 'x' }, /^ERROR: specialist_profile is required$/],
      [{ ...seedArguments(ws), project_root: 'relative/dir' }, /^ERROR: project_root must be absolute/],
      [{ ...seedArguments(ws), project_root: path.join(ws, 'missing') }, /^ERROR: project_root .* does not exist$/],
      [{ ...seedArguments(ws), project_root: other }, /^ERROR: project_root .* is not a folder of this workspace/, { allowedRoots: [ws] }],
      [{ ...seedArguments(ws), max_context_tokens: 0 }, /^ERROR: max_context_tokens must be positive$/],
      [{ ...seedArguments(ws), max_context_tokens: '3000' }, /^ERROR: max_context_tokens must be a number$/],
      [{ ...seedArguments(ws), recent_turns: 'one turn' }, /^ERROR: recent_turns must be a list of strings$/],
      [{ ...seedArguments(ws), specialist: 'hacker' }, /^ERROR: unknown field specialist — the tool takes: specialist_profile, topic/],
      [{ ...seedArguments(ws), reason_kind: 'boredom' }, /^ERROR: reason_kind must be one of: capability_boundary/],
      [null, /^ERROR: the input must be an object/],
      ['hand over please', /^ERROR: the input must be an object/],
      [{}, /^ERROR: specialist_profile is required$/],
    ];
    for (const [input, expected, extra] of cases) {
      const out = await runHandoverTool(input, context(ws, extra));
      assert.equal(out.ok, false, `${JSON.stringify(input)} should fail`);
      assert.match(out.text, expected, JSON.stringify(input));
    }
    // No root at all: the message says how to fix it.
    const none = await runHandoverTool({ specialist_profile: 'hacker', topic: 'x' }, { defaultRoot: undefined, environment: (r) => ({ workspaceRoot: r }) });
    assert.match(none.text, /^ERROR: project_root is required: no workspace folder is open/);
    // An engine that throws is still an ERROR text.
    const thrown = await runHandoverTool(seedArguments(ws), {
      defaultRoot: ws,
      environment: () => {
        throw new Error('settings exploded');
      },
    });
    assert.match(thrown.text, /^ERROR: internal error in handover_to_specialist: settings exploded$/);
  });

  it("publishes a JSON Schema with the seed's fields, the two required ones, and no others", () => {
    const schema = handoverToolJsonSchema() as { type: string; required: string[]; properties: Record<string, unknown>; additionalProperties: boolean };
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required.sort(), ['specialist_profile', 'topic']);
    for (const f of [
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
      assert.ok(f in schema.properties, `${f} is in the schema`);
    }
    assert.equal(schema.additionalProperties, false);
    assert.equal(parseToolInput({ specialist_profile: 'x', topic: 'y', summary: 'z' }).ok, true);
  });

  describe('the loop guard of agent calls', () => {
    const call = (ws: string, specialist: string, extra: Record<string, unknown> = {}) =>
      runHandoverTool({ specialist_profile: specialist, topic: 'loop', summary: `to ${specialist}`, project_root: ws, ...extra }, context(ws));

    it('continues the open chain: the next call by an agent is the next hop', async () => {
      const ws = repo();
      const first = await call(ws, 'solution_architect');
      assert.ok(first.ok, first.text);
      const second = await call(ws, 'implementation_engineer');
      assert.ok(second.ok, second.text);
      assert.equal(second.result.package.hop, 2);
      assert.equal(second.result.package.parent_id, first.result.package.id);
      assert.deepEqual(second.result.package.chain, ['solution_architect', 'implementation_engineer']);
      const fresh = await call(ws, 'hacker', { parent: 'none' });
      assert.ok(fresh.ok, fresh.text);
      assert.equal(fresh.result.package.hop, 1);
    });

    it('refuses a return to a visited specialist while the code is unchanged, allows it after progress', async () => {
      const ws = repo();
      assert.ok((await call(ws, 'implementation_engineer')).ok);
      assert.ok((await call(ws, 'quality_reviewer')).ok);
      const back = await call(ws, 'implementation_engineer');
      assert.equal(back.ok, false);
      assert.match(
        back.text,
        /^ERROR: progress guard: this chain already handed the work to implementation_engineer in \S+_implementation_engineer, and the code is exactly as it was then/,
      );
      assert.match(back.text, /make progress first, or hand over to a different specialist$/);
      // Progress: the reviewer's fix changes the worktree; now the return goes through, recorded.
      write(ws, 'src/hero.tsx', 'export const Hero = () => "bold and reviewed";\n');
      const after = await call(ws, 'implementation_engineer');
      assert.ok(after.ok, after.ok ? '' : after.text);
      assert.equal(after.result.package.hop, 3);
      assert.deepEqual(after.result.package.hop_guard, { reasons: ['cycle'], max_depth: 3, confirmed: true, allowed_by: 'progress' });
      assert.match(
        readFileSync(after.result.handoff_file, 'utf8'),
        /allowed because the code changed since the chain last handed work to this specialist \(progress guard\)\./,
      );
      assert.ok(
        after.result.warnings.some((w) => /returns to implementation_engineer; allowed because the code changed/.test(w)),
        after.result.warnings.join('\n'),
      );
    });

    it(`refuses hop 4 with the default depth of 3, naming the chain and the setting`, async () => {
      const ws = repo();
      for (const s of ['solution_architect', 'implementation_engineer', 'quality_reviewer']) {
        const r = await call(ws, s);
        assert.ok(r.ok, r.ok ? '' : r.text);
      }
      const fourth = await call(ws, 'test_debug_engineer');
      assert.equal(fourth.ok, false);
      assert.match(
        fourth.text,
        /^ERROR: loop guard: hop 4 would exceed the limit of 3 hops \(handoff\.maxHandoverDepth\) in the chain solution_architect → implementation_engineer → quality_reviewer → test_debug_engineer/,
      );
      // A person can still go on (with the confirmation the panel asks for); the agent's limit is a setting.
      const deeper = await runHandoverTool(
        { specialist_profile: 'test_debug_engineer', topic: 'loop', project_root: ws },
        context(ws, { environment: (r) => ({ workspaceRoot: r, sessionLog: { mode: 'none' }, maxHandoverDepth: 5 }) }),
      );
      assert.ok(deeper.ok, deeper.ok ? '' : deeper.text);
      assert.equal(deeper.result.package.hop, 4);
    });
  });
});
