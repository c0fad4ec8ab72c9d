import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT_FOLDERS, agentFileName, normaliseAgentId, type AgentTarget } from '../../../../src/core/specialists/agentFiles';
import { HANDOFF_TARGETS, handoffEntriesFor, renderClaudeAgent, renderGitHubAgent } from '../../../../src/core/specialists/agentFileRender';
import { parseAgentFile, parseClaudeAgent, parseGitHubAgent, sameSpecialist } from '../../../../src/core/specialists/agentFileParse';
import { BUILTIN_SPECIALIST_IDS, SpecialistRegistry, type Specialist } from '../../../../src/core/specialists/registry';
import { exportAgents, exportAgentsExitCode, formatExportSummary } from '../../../../src/engine/agents/exportAgents';
import { loadRegistry } from '../../../../src/engine/project/project';
import { exportSpecialists } from '../../../../src/store/specialists/agentFolders';
import { MAX_SPECIALIST_FILE_BYTES, discoverAgentSpecialists, loadCustomSpecialists } from '../../../../src/store/specialists/specialistFiles';
import { cli } from '../../../helpers/cli';
import { cleanupTempDirs, initRepo, tempDir, write } from '../../../helpers/repo';

const CUSTOM = `---
id: data_migrator
label: Data migrator
description: Moves data between schemas safely, with a rollback for every step.
icon: database
return_condition: The migration ran on a copy and the rollback was tested.
---
Work on a copy of the database first.

## Rollback

Every step has a tested rollback; "## Return condition" in a line like this one is just text.
`;

/** A workspace with one custom specialist, and its registry. */
async function workspace(): Promise<{ dir: string; registry: SpecialistRegistry }> {
  const dir = tempDir('agents-');
  write(dir, '.handoff/specialists/data_migrator.md', CUSTOM);
  const { registry, warnings } = await loadRegistry(path.join(dir, '.handoff'), dir);
  assert.deepEqual(warnings, []);
  return { dir, registry };
}

/** The fields a round trip must keep. */
function identity(s: Specialist) {
  return {
    id: s.id,
    label: s.label,
    personaMarker: s.personaMarker,
    icon: s.icon,
    mandate: s.mandate,
    returnCondition: s.returnCondition,
    instructions: s.instructions?.trim(),
  };
}

function targetDir(dir: string, target: AgentTarget): string {
  return path.join(dir, target === 'github' ? '.github/agents' : '.claude/agents');
}

describe('agent files: export to and discovery from .github/agents and .claude/agents', () => {
  after(cleanupTempDirs);

  describe('round trip (the Done-when line)', () => {
    for (const target of ['github', 'claude'] as const) {
      it(`our registry exported to ${target === 'github' ? '.github/agents' : '.claude/agents'} reads back identical`, async () => {
        const { dir, registry } = await workspace();
        const summary = await exportSpecialists(dir, registry, { targets: [target] });
        const ours = registry.all();
        assert.equal(ours.length, 13);
        assert.deepEqual(summary.skipped, []);
        assert.deepEqual(summary.failed, []);
        assert.equal(summary.written.length, 13);
        assert.deepEqual(readdirSync(targetDir(dir, target)).sort(), ours.map((s) => agentFileName(target, s.id)).sort());

        // Read back file by file: same ids, labels, persona markers, mandates, return conditions, instructions, handoffs.
        for (const s of ours) {
          const name = agentFileName(target, s.id);
          const text = readFileSync(path.join(targetDir(dir, target), name), 'utf8');
          const parsed = target === 'github' ? parseGitHubAgent(name, text, `x/${name}`, ours) : parseClaudeAgent(name, text, `x/${name}`);
          assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
          assert.deepEqual(identity(parsed.agent.specialist), identity(s));
          assert.equal(parsed.agent.generated, true);
          assert.deepEqual(parsed.agent.notes, []);
          if (target === 'github') {
            const expected = handoffEntriesFor(s, registry);
            assert.deepEqual(
              parsed.agent.handoffs.map(({ label, agent, prompt, send }) => ({ label, agent, prompt, send })),
              expected,
            );
            assert.deepEqual(
              parsed.agent.handoffs.map((h) => h.target),
              (HANDOFF_TARGETS[s.id] ?? ['a0_software_orchestrator']).filter((t) => t !== s.id),
            );
          }
        }

        // And as discovery reads them, with nothing known beforehand: the same specialists, from the folder.
        const found = await discoverAgentSpecialists(dir, []);
        assert.deepEqual(found.warnings, []);
        assert.deepEqual(
          found.specialists.map(identity),
          ours.map(identity).sort((a, b) => (a.id < b.id ? -1 : 1)),
        );
        for (const s of found.specialists) {
          assert.equal(s.source, target === 'github' ? 'github-agent' : 'claude-agent');
          assert.equal(s.file, `${target === 'github' ? '.github/agents' : '.claude/agents'}/${agentFileName(target, s.id)}`);
        }

        // With the registry loaded as usual, the exported copies repeat known ids and are skipped silently.
        const again = await loadRegistry(path.join(dir, '.handoff'), dir);
        assert.deepEqual(again.warnings, []);
        assert.deepEqual(again.registry.all().map(identity), ours.map(identity));
        assert.deepEqual(
          again.registry.all().map((s) => s.source),
          ours.map((s) => s.source),
        );
      });
    }

    it('a hand-over button names its target by the label the target agent carries as its name', async () => {
      const registry = new SpecialistRegistry();
      const impl = registry.get('implementation_engineer') as Specialist;
      const entries = handoffEntriesFor(impl, registry);
      assert.deepEqual(
        entries.map((e) => e.label),
        ['Hand over to Quality reviewer', 'Hand over to Test & debug engineer'],
      );
      for (const e of entries) {
        const target = registry.all().find((s) => s.label === e.agent) as Specialist;
        assert.match(renderGitHubAgent(target, registry), new RegExp(`^---\\nname: "${target.label}"\\n`));
        assert.equal(e.send, false);
        assert.ok(
          e.prompt.includes('handover_to_specialist') && e.prompt.includes(`specialist_profile "${target.id}"`) && e.prompt.includes(target.personaMarker),
        );
      }
      // Claude names are identifiers: lowercase and hyphens.
      assert.match(renderClaudeAgent(impl, registry), /^---\nname: "implementation-engineer"\ndescription: "/);
    });

    it('every table entry names built-in specialists only, never itself', () => {
      for (const [from, to] of Object.entries(HANDOFF_TARGETS)) {
        assert.ok(BUILTIN_SPECIALIST_IDS.includes(from), from);
        for (const t of to) assert.ok(BUILTIN_SPECIALIST_IDS.includes(t) && t !== from, `${from} → ${t}`);
      }
      assert.deepEqual(Object.keys(HANDOFF_TARGETS).sort(), [...BUILTIN_SPECIALIST_IDS].sort());
    });
  });

  describe("discovery of other tools' agents", () => {
    it('maps VS Code agents, chat modes and Claude subagents to specialists, after built-in and custom ones', async () => {
      const { dir } = await workspace();
      write(
        dir,
        '.github/agents/Code Reviewer.agent.md',
        `---\nname: Code reviewer\ndescription: Reviews pull requests for style.\ntools: ['search', 'read']\nmodel: ['GPT-5 (copilot)']\nhandoffs:\n  - label: Escalate\n    agent: Quality reviewer\n    prompt: Look deeper.\n    send: true\n  - label: Fix it\n    agent: agent\n---\nBe brief.\n`,
      );
      write(
        dir,
        '.github/chatmodes/planner.chatmode.md',
        '---\ndescription: Plans features\ntools: [search]\n---\n# Planning\n\nWrite a plan.\n\n## Return condition\n\nA plan with numbered steps.\n\n## Notes\n\nNone.\n',
      );
      write(
        dir,
        '.claude/agents/db-expert.md',
        '---\nname: db-expert\ndescription: Use for SQL questions.\ntools: Read, Grep, Bash\nmodel: sonnet\n---\nYou know PostgreSQL well.\n',
      );
      write(dir, '.claude/agents/notes.txt', 'not an agent');
      const { registry, warnings } = await loadRegistry(path.join(dir, '.handoff'), dir);
      assert.deepEqual(warnings, []);
      const all = registry.all();
      assert.deepEqual(all.map((s) => s.id).slice(12), ['data_migrator', 'code_reviewer', 'planner', 'db-expert']);
      assert.deepEqual(all.map((s) => s.source).slice(11), ['builtin', 'custom', 'github-agent', 'github-agent', 'claude-agent']);

      const code = registry.get('code_reviewer') as Specialist;
      assert.deepEqual(identity(code), {
        id: 'code_reviewer',
        label: 'Code reviewer',
        personaMarker: '[code reviewer]',
        icon: 'copilot',
        mandate: 'Reviews pull requests for style.',
        returnCondition: 'user_request',
        instructions: 'Be brief.',
      });
      assert.equal(code.file, '.github/agents/Code Reviewer.agent.md');

      const planner = registry.get('planner') as Specialist;
      assert.equal(planner.label, 'Planner');
      assert.equal(planner.mandate, 'Plans features');
      assert.equal(planner.returnCondition, 'A plan with numbered steps.');

      const db = registry.get('db-expert') as Specialist;
      assert.deepEqual(
        [db.label, db.personaMarker, db.icon, db.mandate, db.instructions],
        ['Db expert', '[db expert]', 'robot', 'Use for SQL questions.', 'You know PostgreSQL well.'],
      );

      const parsed = parseGitHubAgent(
        'Code Reviewer.agent.md',
        readFileSync(path.join(dir, '.github/agents/Code Reviewer.agent.md'), 'utf8'),
        'x',
        registry.all(),
      );
      assert.ok(parsed.ok);
      assert.deepEqual(parsed.agent.tools, ['search', 'read']);
      assert.deepEqual(parsed.agent.model, ['GPT-5 (copilot)']);
      assert.deepEqual(
        parsed.agent.handoffs.map((h) => [h.label, h.target, h.send, h.prompt]),
        [
          ['Escalate', 'quality_reviewer', true, 'Look deeper.'],
          ['Fix it', null, false, ''],
        ],
      );
      const claude = parseClaudeAgent('db-expert.md', readFileSync(path.join(dir, '.claude/agents/db-expert.md'), 'utf8'), 'x');
      assert.ok(claude.ok);
      assert.deepEqual(claude.agent.tools, ['Read', 'Grep', 'Bash']);
      assert.equal(claude.agent.model, 'sonnet');
    });

    it('a file without frontmatter is an agent named by its file; the first paragraph is its mandate', () => {
      const r = parseAgentFile(
        'claude-agent',
        'helper.md',
        '<!-- a note -->\n# Helper\n\nHelps with odd jobs.\nAlways politely.\n\nMore.\n',
        '.claude/agents/helper.md',
      );
      assert.ok(r.ok);
      assert.deepEqual(
        [r.agent.specialist.id, r.agent.specialist.label, r.agent.specialist.mandate],
        ['helper', 'Helper', 'Helps with odd jobs. Always politely.'],
      );
    });

    it('precedence: built-in > .handoff/specialists > .github/agents > .github/chatmodes > .claude/agents; a different copy is skipped with a warning naming the file', async () => {
      const { dir, registry } = await workspace();
      await exportSpecialists(dir, registry, {});
      // A hand-edited copy of a built-in and of the custom specialist.
      const qr = path.join(dir, '.github/agents/quality_reviewer.agent.md');
      writeFileSync(qr, readFileSync(qr, 'utf8').replace('name: "Quality reviewer"', 'name: "Nitpicker"'));
      const dm = path.join(dir, '.claude/agents/data_migrator.md');
      writeFileSync(dm, readFileSync(dm, 'utf8').replace('The migration ran on a copy', 'The migration ran on production'));
      // The same foreign agent in three folders: identical twice (silent), then different (warned).
      const foreign = '---\ndescription: Writes docs.\n---\nDocument everything.\n';
      write(dir, '.github/agents/docs.agent.md', foreign);
      write(dir, '.github/chatmodes/docs.chatmode.md', foreign);
      write(dir, '.claude/agents/docs!.md', foreign); // normalises to "docs" too
      write(dir, '.claude/agents/docs.md', '---\nname: docs\ndescription: Writes other docs.\n---\nDocument nothing.\n');

      const { registry: loaded, warnings } = await loadRegistry(path.join(dir, '.handoff'), dir);
      assert.equal(loaded.get('quality_reviewer')?.label, 'Quality reviewer');
      assert.equal(loaded.get('quality_reviewer')?.source, 'builtin');
      assert.equal(loaded.get('data_migrator')?.source, 'custom');
      assert.equal(loaded.get('data_migrator')?.returnCondition, 'The migration ran on a copy and the rollback was tested.');
      assert.equal(loaded.get('docs')?.file, '.github/agents/docs.agent.md');
      assert.equal(warnings.length, 3, warnings.join('\n'));
      assert.match(
        warnings[0],
        /^\.github\/agents\/quality_reviewer\.agent\.md: skipped — "quality_reviewer" is a built-in specialist, .*export-agents --force/,
      );
      assert.match(
        warnings[1],
        /^\.claude\/agents\/data_migrator\.md: skipped — "data_migrator" is already defined in \.handoff\/specialists\/data_migrator\.md, .*--force/,
      );
      assert.match(
        warnings[2],
        /^\.claude\/agents\/docs\.md: skipped — "docs" is already defined in \.github\/agents\/docs\.agent\.md, .*rename one of the two files/,
      );
    });

    it("a discovered agent whose persona marker is another specialist's is skipped (hop guard)", async () => {
      const dir = tempDir('agents-');
      write(dir, '.github/agents/qr.agent.md', '---\nname: Quality Reviewer\ndescription: Another reviewer.\n---\n');
      const { registry, warnings } = await loadRegistry(path.join(dir, '.handoff'), dir);
      assert.equal(registry.get('qr'), undefined);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /^\.github\/agents\/qr\.agent\.md: its persona marker \[quality reviewer\] is already quality_reviewer's/);
    });

    it('malformed files are warnings that name the file and the fix, never fatal', async () => {
      const dir = tempDir('agents-');
      const bad: Record<string, string | Buffer> = {
        '.github/agents/unclosed.agent.md': '---\nname: X\n',
        '.github/agents/yaml.agent.md': '---\nname: [unclosed\n---\n',
        '.github/agents/number.agent.md': '---\nname: 42\n---\n',
        '.github/agents/list.agent.md': '---\n- a\n- b\n---\n',
        '.github/agents/….agent.md': '---\ndescription: x\n---\n',
        '.github/agents/bidi.agent.md': '---\nname: "Evil\u202eer"\n---\n',
        '.github/agents/long.agent.md': `---\ndescription: "${'x'.repeat(4001)}"\n---\n`,
        '.github/agents/big.agent.md': `---\ndescription: big\n---\n${'x'.repeat(MAX_SPECIALIST_FILE_BYTES + 1)}`,
        '.claude/agents/handoffs.md': '---\nname: handoffs\ndescription: Fine.\nhandoffs: nonsense\n---\n',
        '.github/agents/handoffs.agent.md': '---\nname: Handy\ndescription: Fine.\nhandoffs: nonsense\n---\n',
        '.github/agents/ok.agent.md': '---\nname: Okay agent\ndescription: Fine.\n---\n',
      };
      for (const [rel, text] of Object.entries(bad)) write(dir, rel, text);
      mkdirSync(path.join(dir, '.claude/agents/folder.md'));
      const { registry, warnings } = await loadRegistry(path.join(dir, '.handoff'), dir);
      assert.deepEqual(
        registry
          .all()
          .slice(12)
          .map((s) => s.id),
        ['handoffs', 'ok'],
      );
      const byFile = (f: string) => warnings.filter((w) => w.startsWith(f));
      assert.match(byFile('.github/agents/unclosed.agent.md')[0], /frontmatter is not closed/);
      assert.match(byFile('.github/agents/yaml.agent.md')[0], /not valid YAML/);
      assert.match(byFile('.github/agents/number.agent.md')[0], /field "name" must be text — quote it/);
      assert.match(byFile('.github/agents/list.agent.md')[0], /not a set of "key: value" fields/);
      assert.match(byFile('.github/agents/….agent.md')[0], /no usable specialist id — rename it/);
      assert.match(byFile('.github/agents/bidi.agent.md')[0], /visible text/);
      assert.match(byFile('.github/agents/long.agent.md')[0], /longer than 4,000 characters — shorten it/);
      assert.match(byFile('.github/agents/big.agent.md')[0], /larger than 256 KiB/);
      assert.match(byFile('.github/agents/handoffs.agent.md')[0], /"handoffs" list was ignored — each entry needs/);
      assert.match(byFile('.claude/agents/folder.md')[0], /not a regular file/);
      assert.equal(byFile('.claude/agents/handoffs.md').length, 1);
      assert.match(
        byFile('.claude/agents/handoffs.md')[0],
        /"handoffs" is already defined in \.github\/agents\/handoffs\.agent\.md, .*rename one of the two files/,
      );
      assert.equal(warnings.length, 11, warnings.join('\n'));
    });

    it('a folder that is a symbolic link out of the workspace is not read', async function () {
      if (process.platform === 'win32') this.skip();
      const outside = tempDir('outside-');
      write(outside, 'spy.agent.md', '---\ndescription: Reads what it should not.\n---\n');
      const dir = tempDir('agents-');
      mkdirSync(path.join(dir, '.github'));
      symlinkSync(outside, path.join(dir, '.github/agents'));
      const found = await loadCustomSpecialists(path.join(dir, '.handoff'), dir);
      assert.deepEqual(found.specialists, []);
      assert.equal(found.warnings.length, 1);
      assert.match(found.warnings[0], /^\.github\/agents: not read — .*outside the workspace/);
    });

    it('ids come from file names, normalised to the id pattern', () => {
      assert.equal(normaliseAgentId('Code Reviewer'), 'code_reviewer');
      assert.equal(normaliseAgentId('speckit.plan'), 'speckit_plan');
      assert.equal(normaliseAgentId('quality-reviewer'), 'quality-reviewer');
      assert.equal(normaliseAgentId('Résumé Writer!'), 'resume_writer');
      assert.equal(normaliseAgentId('_hidden'), 'hidden');
      assert.equal(normaliseAgentId('x'.repeat(80)), 'x'.repeat(64));
      assert.equal(normaliseAgentId('…'), undefined);
      assert.equal(AGENT_FOLDERS.map((f) => f.dir).join(' '), '.github/agents .github/chatmodes .claude/agents');
    });

    it('sameSpecialist ignores where a specialist came from', () => {
      const registry = new SpecialistRegistry();
      const s = registry.get('hacker') as Specialist;
      assert.ok(sameSpecialist(s, { ...s, source: 'claude-agent', file: 'x', icon: 'robot' }));
      assert.ok(!sameSpecialist(s, { ...s, mandate: 'Other.' }));
      assert.ok(!sameSpecialist(s, { ...s, instructions: 'More.' }));
    });
  });

  describe('export', () => {
    it('never overwrites a file edited by hand unless forced, and says which and how', async () => {
      const { dir, registry } = await workspace();
      const first = await exportSpecialists(dir, registry, {});
      assert.equal(first.written.length, 26);
      const file = path.join(dir, '.github/agents/solution_architect.agent.md');
      const edited = readFileSync(file, 'utf8').replace('## Mandate', '## Mandate\n\nAlso draw diagrams.');
      writeFileSync(file, edited);

      const second = await exportSpecialists(dir, registry, {});
      assert.deepEqual(second.written, []);
      assert.equal(second.unchanged.length, 25);
      assert.deepEqual(
        second.skipped.map((s) => s.file),
        ['.github/agents/solution_architect.agent.md'],
      );
      assert.match(second.skipped[0].reason, /^\.github\/agents\/solution_architect\.agent\.md differs .* kept; export again with --force to replace it$/);
      assert.equal(readFileSync(file, 'utf8'), edited);

      const forced = await exportSpecialists(dir, registry, { force: true });
      assert.deepEqual(forced.written, ['.github/agents/solution_architect.agent.md']);
      assert.equal(readFileSync(file, 'utf8'), renderGitHubAgent(registry.get('solution_architect') as Specialist, registry));
      assert.deepEqual(
        readdirSync(path.dirname(file)).filter((n) => n.startsWith('.')),
        [],
        'no temporary file left',
      );
    });

    it('never writes through a symbolic link, even with force', async function () {
      if (process.platform === 'win32') this.skip();
      const { dir, registry } = await workspace();
      const victim = path.join(tempDir('victim-'), 'target.txt');
      writeFileSync(victim, 'keep me');
      mkdirSync(path.join(dir, '.claude/agents'), { recursive: true });
      symlinkSync(victim, path.join(dir, '.claude/agents/hacker.md'));
      const r = await exportSpecialists(dir, registry, { targets: ['claude'], force: true });
      assert.deepEqual(
        r.skipped.map((s) => s.file),
        ['.claude/agents/hacker.md'],
      );
      assert.match(r.skipped[0].reason, /is a symbolic link — kept/);
      assert.equal(readFileSync(victim, 'utf8'), 'keep me');
      assert.equal(r.written.length, 12);
    });

    it('writes only the chosen target, and never re-exports discovered agents', async () => {
      const { dir, registry } = await workspace();
      write(dir, '.github/agents/docs.agent.md', '---\ndescription: Writes docs.\n---\n');
      const loaded = await loadRegistry(path.join(dir, '.handoff'), dir);
      assert.ok(loaded.registry.get('docs'));
      const r = await exportSpecialists(dir, loaded.registry, { targets: ['claude'] });
      assert.equal(r.written.length, registry.all().length);
      assert.ok(!existsSync(path.join(dir, '.claude/agents/docs.md')));
      assert.deepEqual(readdirSync(path.join(dir, '.github/agents')), ['docs.agent.md']);
    });

    it('a file where the folder should be fails every file of that target, and the other target is still written', async () => {
      const { dir, registry } = await workspace();
      write(dir, '.claude', 'a file, not a folder');
      const r = await exportSpecialists(dir, registry, {});
      assert.equal(r.written.length, 13);
      assert.equal(r.failed.length, 13);
      assert.match(r.failed[0].reason, /^ERROR: a file stands where a folder is needed/);
    });
  });

  describe("exportAgents (the CLI's `export-agents` and the command)", () => {
    it('exits 2 for bad input, 1 for a disk or internal error', () => {
      assert.equal(exportAgentsExitCode({ status: 'error', message: 'ERROR: target must be github, claude or all', field: 'target' }), 2);
      assert.equal(exportAgentsExitCode({ status: 'error', message: 'ERROR: cannot list .handoff: permission denied', field: 'io' }), 1);
      assert.equal(exportAgentsExitCode({ status: 'error', message: 'ERROR: internal error while exporting the specialists: x', field: 'internal' }), 1);
    });

    it('exports, reports in words and JSON-ready lists, and exits 0', async () => {
      const { dir } = await workspace();
      const r = await exportAgents({ target: 'all' }, { workspaceRoot: dir });
      assert.equal(r.status, 'ok');
      if (r.status !== 'ok') return;
      assert.deepEqual(r.targets, ['github', 'claude']);
      assert.equal(r.specialists, 13);
      assert.equal(exportAgentsExitCode(r), 0);
      assert.equal(formatExportSummary(r), 'Exported 13 specialists to .github/agents and .claude/agents: 26 written, 0 unchanged.');
      writeFileSync(path.join(dir, '.claude/agents/hacker.md'), 'mine');
      const again = await exportAgents({ target: 'CLAUDE' }, { workspaceRoot: dir });
      assert.ok(again.status === 'ok');
      if (again.status !== 'ok') return;
      assert.equal(exportAgentsExitCode(again), 0);
      assert.equal(
        formatExportSummary(again),
        'Exported 13 specialists to .claude/agents: 0 written, 12 unchanged, 1 skipped.\nskipped: .claude/agents/hacker.md differs from what Specialist Handoff writes for hacker (edited by hand?) — kept; export again with --force to replace it',
      );
      const forced = await exportAgents({ target: 'claude', force: true }, { workspaceRoot: dir });
      assert.ok(forced.status === 'ok' && forced.written.length === 1);
    });

    it('bad input is an ERROR naming the fix, with exit code 2', async () => {
      const dir = tempDir('agents-');
      const bad = await exportAgents({ target: 'cursor' }, { workspaceRoot: dir });
      assert.deepEqual(bad, {
        status: 'error',
        message: 'ERROR: unknown export target "cursor" — use --target github (.github/agents), claude (.claude/agents) or all',
        field: 'target',
      });
      assert.equal(exportAgentsExitCode(bad), 2);
      const rel = await exportAgents({}, { workspaceRoot: 'relative/dir' });
      assert.ok(rel.status === 'error' && rel.field === 'project_root');
      const out = await exportAgents({}, { workspaceRoot: dir, handoffDirectory: '../elsewhere' });
      assert.ok(out.status === 'error' && out.field === 'handoff.directory');
      assert.ok(!existsSync(path.join(dir, '.github')), 'nothing written');
    });

    it('passes registry warnings on and exits 1 when a file cannot be written', async () => {
      const dir = tempDir('agents-');
      write(dir, '.handoff/specialists/broken.md', 'no frontmatter');
      write(dir, '.github', 'a file');
      const r = await exportAgents({ target: 'github' }, { workspaceRoot: dir });
      assert.ok(r.status === 'ok');
      if (r.status !== 'ok') return;
      assert.equal(exportAgentsExitCode(r), 1);
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0], /^WARNING: \.handoff\/specialists\/broken\.md: field "id"/);
    });
  });

  describe('the CLI: specialist-handoff export-agents', () => {
    it('exports, reports unchanged on a second run, and maps bad input to exit 2 with the flag named', async () => {
      const dir = initRepo();
      const first = await cli(['export-agents'], dir);
      assert.equal(first.code, 0, first.err);
      assert.match(first.out, /^Exported \d+ specialists to \.github\/agents and \.claude\/agents: \d+ written, 0 unchanged\./);
      assert.ok(existsSync(path.join(dir, '.github', 'agents', 'quality_reviewer.agent.md')));
      assert.ok(existsSync(path.join(dir, '.claude', 'agents', 'quality_reviewer.md')));
      const again = await cli(['export-agents', '--target', 'github', '--json'], dir);
      assert.equal(again.code, 0, again.err);
      const json = JSON.parse(again.out) as { status: string; written: string[]; unchanged: string[] };
      assert.equal(json.status, 'ok');
      assert.equal(json.written.length, 0);
      assert.ok(json.unchanged.length > 0);
      const bad = await cli(['export-agents', '--target', 'cursor'], dir);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /^ERROR: unknown export target "cursor" — use --target github/);
      // The specialists list names where discovered ones come from.
      write(
        dir,
        '.claude/agents/db-tuner.md',
        '---\nname: db-tuner\ndescription: Tunes slow SQL queries and indexes.\n---\nMeasure before you change an index.\n',
      );
      const list = await cli(['specialists'], dir);
      assert.equal(list.code, 0, list.err);
      assert.match(list.out, /^db-tuner +\[db tuner\] \(claude-agent: \.claude\/agents\/db-tuner\.md\)$/m);
    });
  });
});
