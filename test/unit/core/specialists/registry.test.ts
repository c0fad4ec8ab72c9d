import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BUILTIN_SPECIALISTS,
  BUILTIN_SPECIALIST_IDS,
  SPECIALIST_ID_PATTERN,
  SpecialistRegistry,
  parseCustomSpecialist,
} from '../../../../src/core/specialists/registry';
import { loadCustomSpecialists } from '../../../../src/store/specialists/specialistFiles';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const DESIGN_IDS = [
  'a0_software_orchestrator',
  'codebase_explorer',
  'implementation_engineer',
  'quality_reviewer',
  'release_auditor',
  'requirements_analyst',
  'runtime_devops_engineer',
  'security_data_engineer',
  'solution_architect',
  'test_debug_engineer',
  'hacker',
  'frontend_designer',
];

describe('specialist registry', () => {
  after(cleanupTempDirs);

  it('has exactly the twelve built-in ids of DESIGN §3', () => {
    assert.deepEqual([...BUILTIN_SPECIALIST_IDS].sort(), [...DESIGN_IDS].sort());
  });

  for (const id of DESIGN_IDS) {
    it(`built-in ${id} has label, persona marker, codicon, mandate and return condition`, () => {
      const r = new SpecialistRegistry();
      const found = r.lookup(id);
      assert.ok(found.ok, `lookup of ${id} failed`);
      const s = found.specialist;
      assert.equal(s.id, id);
      assert.match(s.id, SPECIALIST_ID_PATTERN);
      assert.ok(s.label.length > 2 && /^[A-Z]/.test(s.label), `label of ${id}: ${s.label}`);
      assert.equal(s.personaMarker, `[${s.label.toLowerCase()}]`);
      assert.match(s.icon, /^[a-z0-9-]+$/);
      assert.ok(s.mandate.length > 60, `mandate of ${id} is a paragraph`);
      assert.ok(s.returnCondition.length > 10);
      assert.equal(s.source, 'builtin');
    });
  }

  it('quality_reviewer has the marker [quality reviewer] (DESIGN §3 example)', () => {
    const s = BUILTIN_SPECIALISTS.find((x) => x.id === 'quality_reviewer');
    assert.equal(s?.label, 'Quality reviewer');
    assert.equal(s?.personaMarker, '[quality reviewer]');
  });

  it('an unknown id is an ERROR that names the closest ids', () => {
    const r = new SpecialistRegistry().lookup('quality_reviwer');
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.message.startsWith('ERROR: unknown specialist "quality_reviwer"'));
    assert.ok(!r.ok && r.message.includes('did you mean: quality_reviewer'), !r.ok ? r.message : '');
  });

  it('suggests by substring too ("reviewer" → quality_reviewer)', () => {
    const r = new SpecialistRegistry().lookup('reviewer');
    assert.ok(!r.ok && r.message.includes('quality_reviewer'));
  });

  it('lists all ids when nothing is close', () => {
    const r = new SpecialistRegistry().lookup('zzzzzzzzzzzzzzzzzzzzzzzzzzzz');
    assert.ok(!r.ok && r.message.includes('known ids: a0_software_orchestrator'));
  });

  it('an empty id is required', () => {
    const r = new SpecialistRegistry().lookup('  ');
    assert.ok(!r.ok && r.message.startsWith('ERROR: specialist is required'));
  });

  it('absolute, traversal and uppercase ids are unknown', () => {
    const r = new SpecialistRegistry();
    for (const id of ['/etc/passwd', '../hacker', 'HACKER', 'C:\\x', 'hacker\0']) {
      assert.equal(r.lookup(id).ok, false, id);
    }
  });

  it('parses a custom specialist file', () => {
    const text = '---\nid: data_migrator\nlabel: Data migrator\ndescription: Moves data safely.\nicon: database\n---\nAlways write a rollback.\n';
    const r = parseCustomSpecialist('data_migrator.md', text, '.handoff/specialists/data_migrator.md');
    assert.ok(r.ok);
    assert.equal(r.specialist.personaMarker, '[data migrator]');
    assert.equal(r.specialist.icon, 'database');
    assert.equal(r.specialist.mandate, 'Moves data safely.');
    assert.equal(r.specialist.instructions, 'Always write a rollback.');
    assert.equal(r.specialist.returnCondition, 'user_request');
    const reg = new SpecialistRegistry([r.specialist]);
    assert.deepEqual(
      reg
        .all()
        .map((s) => s.id)
        .slice(-1),
      ['data_migrator'],
    );
    assert.ok(reg.lookup('data_migrator').ok);
  });

  it('refuses custom files that are malformed, mis-named, or redefine a built-in', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['x.md', '---\nid: "../x"\n---\n', /field "id" must be 1–64 characters/],
      ['x.md', '---\nid: x\nicon: "bad icon"\n', /frontmatter is not closed/],
      ['x.md', '---\nid: [x\n---\n', /not valid YAML/],
      ['y.md', '---\nid: x\n---\n', /must match its id/],
      ['hacker.md', '---\nid: hacker\n---\n', /built-in/],
      ['x.md', 'no frontmatter at all', /field "id"/],
    ];
    for (const [name, text, re] of cases) {
      const r = parseCustomSpecialist(name, text, `.handoff/specialists/${name}`);
      assert.equal(r.ok, false, text);
      assert.match(!r.ok ? r.message : '', re);
      assert.ok(!r.ok && r.message.startsWith(`.handoff/specialists/${name}`));
    }
  });

  it('loads custom specialists from .handoff/specialists and reports bad files as warnings', async () => {
    const ws = tempDir();
    const dir = path.join(ws, '.handoff', 'specialists');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'data_migrator.md'), '---\nid: data_migrator\n---\nBody.\n');
    writeFileSync(path.join(dir, 'broken.md'), '---\nid: [\n---\n');
    writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    const r = await loadCustomSpecialists(path.join(ws, '.handoff'), ws);
    assert.deepEqual(
      r.specialists.map((s) => s.id),
      ['data_migrator'],
    );
    assert.equal(r.specialists[0].label, 'Data migrator');
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0], /^\.handoff\/specialists\/broken\.md: frontmatter is not valid YAML/);
  });
});
