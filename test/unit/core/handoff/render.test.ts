import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { renderFrontmatter, splitFrontmatter } from '../../../../src/core/handoff/frontmatter';
import { HANDOFF_SECTIONS, handoffFrontmatter, renderHandoff } from '../../../../src/core/handoff/render';
import { codeSpan } from '../../../../src/core/handoff/codeSpan';
import { parseHandoff, splitSections } from '../../../../src/core/handoff/parse';
import { HandoffFrontmatterSchema, type HandoffFrontmatter } from '../../../../src/core/handoff/schema';
import { META, evidence, files, pkgFrom, reviewer } from '../../../helpers/packages';

describe('handoff rendering and frontmatter', () => {
  it('writes the ten sections of DESIGN §5 in order', () => {
    const text = renderHandoff(pkgFrom({ summary: 'S', decisions: ['d'], next_steps: ['n'] }, evidence({ touchedFiles: files(2) })), META, reviewer);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, [...HANDOFF_SECTIONS]);
  });

  it('round-trips the frontmatter losslessly, including strings YAML would read as other types', () => {
    const tricky = [
      'x\u2029---\u2029y',
      'a\u2028---',
      'null',
      'true',
      'yes',
      '0123',
      '1e3',
      '2026-05-26',
      ': colon',
      '- dash',
      '#hash',
      "quote's",
      '"dq"',
      'multi\nline\n',
      '  lead',
      'trail  ',
      '日本語',
      '',
      '~',
      '*alias',
      '&anchor',
      '!tag',
      '{a: 1}',
      '[x]',
      '@at',
      '`bt`',
      '%pct',
    ];
    for (const s of tricky) {
      // Set on the package, past request validation: a file written elsewhere may hold any string.
      const pkg = { ...pkgFrom({ topic: 'auth', handover_reason: s }), return_condition: s || 'r', from: s || 'x' };
      const fm = handoffFrontmatter({ ...pkg, topic_title: s }, META);
      const text = renderHandoff({ ...pkg, topic_title: s }, META, reviewer);
      const parsed = parseHandoff(text);
      assert.ok(parsed.ok, `parse failed for ${JSON.stringify(s)}: ${!parsed.ok ? parsed.message : ''}`);
      assert.deepEqual(parsed.handoff.frontmatter, fm, JSON.stringify(s));
    }
  });

  it('round-trips every field of a full frontmatter (dropped, chain, nulls, numbers)', () => {
    const pkg = {
      ...pkgFrom({ summary: 'x' }),
      dropped: [{ section: 'diff_excerpt' as const, count: 120, tokens: 3456 }],
      chain: ['codebase_explorer', 'quality_reviewer'],
      hop: 2,
      parent_id: '2026-05-26T14-00-00.000Z_codebase_explorer',
      correlation_id: '2026-05-26T13-00-00.000Z_codebase_explorer',
      estimated_tokens: 2999,
      oversize_warning: true,
      tokens_estimated: true,
      base_commit: null,
    };
    const meta = { ...META, historyFile: `history/${META.id}.md` };
    const fm = handoffFrontmatter(pkg, meta);
    const back = parseHandoff(renderHandoff(pkg, meta, reviewer));
    assert.ok(back.ok);
    assert.deepEqual(back.handoff.frontmatter, fm);
    assert.equal(back.handoff.frontmatter.root_id, '2026-05-26T13-00-00.000Z_codebase_explorer');
  });

  it('keeps unknown frontmatter keys written by other tools', () => {
    const fm = handoffFrontmatter(pkgFrom({}), META);
    const text = renderFrontmatter({ ...fm, itervox_profile: 'reviewer', extra: { a: [1, 2] } }) + '\n# body\n';
    const back = parseHandoff(text);
    assert.ok(back.ok);
    const loose = back.handoff.frontmatter as HandoffFrontmatter & Record<string, unknown>;
    assert.equal(loose.itervox_profile, 'reviewer');
    assert.deepEqual(loose.extra, { a: [1, 2] });
  });

  it('frontmatter is valid YAML for the schema', () => {
    const text = renderFrontmatter(handoffFrontmatter(pkgFrom({}), META));
    const data = parseYaml(text.replace(/^---\n|---\n$/g, ''));
    assert.ok(HandoffFrontmatterSchema.safeParse(data).success);
  });

  it('reports malformed handoff files by field, never throws', () => {
    const cases: Array<[string, RegExp]> = [
      ['no frontmatter', /no frontmatter/],
      ['---\nid: [\n---\n', /not valid YAML/],
      ['---\nschema: 1\n', /not closed/],
      ['---\nschema: 1\nid: x\n---\n', /field "created"/],
      ['---\n- a list\n---\n', /frontmatter field/],
      ['\u0000\u0001binary\u00ff', /no frontmatter/],
    ];
    for (const [text, re] of cases) {
      const r = parseHandoff(text);
      assert.equal(r.ok, false);
      assert.match(!r.ok ? r.message : '', re);
    }
    const fm = handoffFrontmatter(pkgFrom({}), META);
    const wrongType = renderFrontmatter({ ...fm, hop: 'two' });
    const r = parseHandoff(wrongType);
    assert.ok(!r.ok && /field "hop"/.test(r.message));
  });

  it('splits sections and ignores ## inside fenced code', () => {
    const s = splitSections('## A\ntext\n```diff\n## not a heading\n```\n## B\nmore');
    assert.deepEqual([...s.keys()], ['A', 'B']);
    assert.match(s.get('A') ?? '', /## not a heading/);
  });

  it('keeps a diff excerpt containing ``` inside a longer fence', () => {
    const pkg = pkgFrom({}, evidence({ diffExcerpt: ' ```js\n+code\n ```\n' }));
    const text = renderHandoff(pkg, META, reviewer);
    assert.match(text, /````diff\n ```js/);
    const back = parseHandoff(text);
    assert.ok(back.ok);
    assert.deepEqual([...back.handoff.sections.keys()], [...HANDOFF_SECTIONS]);
  });

  it('shows paths with backticks, spaces and newlines safely in code spans', () => {
    assert.equal(codeSpan('a b.txt'), '`a b.txt`');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`x'), '`` `x ``');
    assert.equal(codeSpan('line\nbreak'), '`line\\nbreak`');
  });

  it('says how many touched files were left out', () => {
    const pkg = pkgFrom({}, evidence({ touchedFiles: files(3), touchedFilesOmitted: 312 }));
    assert.match(renderHandoff(pkg, META, reviewer), /- … and 312 more/);
  });

  it('splitFrontmatter accepts a file without frontmatter and a BOM', () => {
    const a = splitFrontmatter('# just markdown');
    assert.ok(a.ok && !a.hasFrontmatter && a.body === '# just markdown');
    const b = splitFrontmatter('\uFEFF---\nid: x\n---\nbody');
    assert.ok(b.ok && b.hasFrontmatter && b.body === 'body');
  });
});
