import assert from 'node:assert/strict';
import { renderFrontmatter } from '../../../../src/core/handoff/frontmatter';
import {
  HEAD_KEYS,
  HandoffHeadSchema,
  PLAIN,
  asciiPlain,
  coreTagTests,
  isPlain,
  parseHandoffHead,
  parseHandoffHeadWithYaml,
  readHead,
  type HeadReadPath,
} from '../../../../src/core/handoff/frontmatterHead';
import { handoffFrontmatter, renderHandoff } from '../../../../src/core/handoff/render';
import { META, pkgFrom, reviewer } from '../../../helpers/packages';
import { seededRandom } from '../../../helpers/random';

/** Runs the fast reader and the yaml library on `text`, asserts the same head, and says which path answered. */
function same(text: string, label = text.slice(0, 200)): HeadReadPath {
  const fast = readHead(text);
  const full = parseHandoffHeadWithYaml(text);
  assert.deepStrictEqual(fast.head, full, `fast ≠ yaml for ${JSON.stringify(label)}`);
  return fast.path;
}

/** Counts of the paths taken over a run of {@link same}. */
function tally(): { fast: number; yaml: number; add(p: HeadReadPath): void } {
  return {
    fast: 0,
    yaml: 0,
    add(p) {
      this[p]++;
    },
  };
}

/** Strings a person, an agent or another tool may put in a field, and the ones YAML reads as something else. */
const TRICKY = [
  'plain words',
  'auth-refresh',
  'Auth: refresh the token',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  '#hash',
  ' lead',
  'trail ',
  '  two  ',
  'in  between',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'null',
  'Null',
  'NULL',
  '~',
  'true',
  'True',
  'TRUE',
  'false',
  'FALSE',
  '',
  ' ',
  '0',
  '007',
  '0123',
  '1e3',
  '1E3',
  '-1',
  '+1',
  '.5',
  '5.',
  '1_000',
  '0x1F',
  '0o17',
  '0b101',
  '.inf',
  '-.Inf',
  '.nan',
  '.NaN',
  '12:30',
  '12:30:45',
  '2026-05-26',
  '2026-05-26T14:30:45.123Z',
  '- dash',
  '-dash',
  '--',
  '---',
  '...',
  '? q',
  '?q',
  ':colon',
  'colon:',
  '[x]',
  '[a, b]',
  '{a: 1}',
  'a [b] c',
  'a {b} c',
  'a, b',
  '*alias',
  '&anchor',
  '!tag',
  '!!str 1',
  '@at',
  '`bt`',
  '%pct',
  '|',
  '>',
  '|-',
  'a | b',
  'a > b',
  "quote's",
  "'single'",
  '"dq"',
  'q"uote',
  'both \' and "',
  'back\\slash',
  'C:\\path\\x',
  '\\n',
  'tab\there',
  '\t',
  'multi\nline',
  'multi\nline\n',
  'x\n\ny',
  '\n',
  'cr\rhere',
  'crlf\r\nhere',
  '日本語のトピック',
  'рефакторинг',
  'émoji 🙂',
  '🙂',
  'nbsp\u00a0x',
  '\u00a0',
  'nel\u0085x',
  'ls\u2028x',
  'x\u2029---\u2029y',
  'zw\u200bj',
  'bom\ufeffx',
  'bidi\u202ex',
  'x'.repeat(300),
  'a '.repeat(100).trim(),
  '# heading',
  '## Summary',
  '<script>',
  '&amp;',
  'https://example.com/a?b=c#d',
  'key: value # comment',
];

/** A rich frontmatter object our renderer writes (every list and map filled), from a composed package. */
function richFrontmatter(): Record<string, unknown> {
  const pkg = pkgFrom({ summary: 'S', next_steps: ['n'] });
  return {
    ...handoffFrontmatter(
      {
        ...pkg,
        hop: 3,
        chain: ['codebase_explorer', 'implementation_engineer', 'quality_reviewer'],
        parent_id: '2026-05-26T14-00-00.000Z_codebase_explorer',
        correlation_id: '2026-05-26T13-00-00.000Z_codebase_explorer',
        hop_guard: { reasons: ['depth', 'cycle'], max_depth: 5, confirmed: true, allowed_by: 'confirmation' },
        dropped: [{ section: 'diff_excerpt', count: 120, tokens: 3456 }],
        redactions: { 'aws-access-key': 2, github: 1 },
      },
      META,
    ),
    status_history: [
      { from: 'pending', to: 'accepted', at: '2026-05-26T15:00:00.000Z', session_id: 'session-2' },
      { from: 'accepted', to: 'complete', at: '2026-05-27T09:10:11.000Z', session_id: 'session-3' },
    ],
    acceptance: [
      { criterion: 'tests pass: all of them', met: true },
      { criterion: 'no "regressions"', met: false },
    ],
    return_condition: 'A review grouped by severity.\nOr a plain statement that nothing needs to change.\n',
    session_sources: [
      {
        source: 'claude-code',
        file: '/home/u/.claude/projects/x/abc.jsonl',
        commands: 3,
        commands_kept: 3,
        test_runs: 1,
        turns: 12,
        edits: 4,
        malformed: 0,
        skipped: 0,
      },
    ],
  };
}

describe('the head reader (fast path) gives the yaml library’s answer', function () {
  // Thousands of full yaml parses: seconds on an idle machine, longer on a loaded one.
  this.timeout(300_000);
  it('on files our renderer writes: an ordinary handoff takes the fast path', () => {
    const text = renderHandoff(pkgFrom({ summary: 'S', next_steps: ['one', 'two'] }), META, reviewer);
    assert.equal(same(text), 'fast');
    const head = parseHandoffHead(text);
    assert.equal(head?.id, META.id);
    assert.equal(head?.root_id, META.id);
    assert.equal(head?.parent_id, null);
    assert.equal(head?.hop, 1);
    assert.deepEqual(Object.keys(head ?? {}).sort(), [...HEAD_KEYS].sort(), 'every head field, nothing else');
  });

  it('on rendered handoffs with tricky strings in every string field (topics with quotes, colons, #, unicode, YAML words)', () => {
    const t = tally();
    for (const s of TRICKY) {
      const pkg = { ...pkgFrom({ topic: 'auth', handover_reason: s }), return_condition: s || 'r', from: s || 'x', to: s || null, session_id: s || 's' };
      t.add(same(renderHandoff({ ...pkg, topic_title: s }, META, reviewer), s));
      // Ids and links: only id characters are valid, but numbers and YAML words are ids too.
      const id = s.replace(/[^A-Za-z0-9._:-]/g, '') || 'x';
      t.add(same(renderHandoff({ ...pkg, parent_id: id, correlation_id: id }, { ...META, id, created: s }, reviewer), `id ${id}`));
      t.add(
        same(
          renderFrontmatter({ ...handoffFrontmatter(pkg, META), topic: s, specialist: s, kind: s, status: s, hop_guard: s, tests_run_count: s }),
          `types ${s}`,
        ),
      );
    }
    assert.ok(t.fast > TRICKY.length, `the fast path answers most of them (fast ${t.fast}, yaml ${t.yaml})`);
    assert.ok(t.yaml > 20, `and the library the ones it does not recognise (fast ${t.fast}, yaml ${t.yaml})`);
  });

  it('on rendered frontmatters with every list and map filled (status history, hop guard, acceptance, sources, redactions, block scalars)', () => {
    const rich = richFrontmatter();
    const text = renderFrontmatter(rich);
    assert.match(text, /^status_history:\n {2}- from: pending\n {4}to: accepted\n/m, 'the renderer writes the block form');
    assert.match(text, /^return_condition: [|>]/m, 'a multi-line value is a block scalar (skipped: not a head field)');
    assert.equal(same(text), 'fast');
    const head = parseHandoffHead(text);
    assert.deepEqual(head?.status_history, rich.status_history);
    assert.deepEqual(head?.hop_guard, rich.hop_guard);
    // Numbers and hop values the schema refuses, and ones it takes.
    for (const hop of [0, -1, 2.5, 1e21, Number.MAX_SAFE_INTEGER, 3]) same(renderFrontmatter({ ...rich, hop }), `hop ${hop}`);
    for (const tests_run_count of [0, 12, -3, 1.5]) same(renderFrontmatter({ ...rich, tests_run_count }), `tests ${tests_run_count}`);
    for (const status_history of [
      [],
      [{ from: 'pending', to: 'nope', at: 'x', session_id: 's' }],
      [{ from: 'pending', to: 'blocked', at: '', session_id: 's' }],
      [{ from: 'pending', to: 'blocked', at: 'yes', session_id: 'null', extra: 1 }],
      'pending',
      null,
    ]) {
      same(renderFrontmatter({ ...rich, status_history }), JSON.stringify(status_history));
    }
    for (const hop_guard of [
      null,
      { reasons: [], max_depth: 5, confirmed: false },
      { reasons: ['depth'], max_depth: 0, confirmed: true },
      { reasons: ['other'], max_depth: 5, confirmed: true },
      [],
    ]) {
      same(renderFrontmatter({ ...rich, hop_guard }), JSON.stringify(hop_guard));
    }
    for (const s of TRICKY) {
      same(
        renderFrontmatter({
          ...rich,
          status_history: [{ from: 'pending', to: 'accepted', at: s, session_id: s }],
          acceptance: [{ criterion: s, met: true }],
          redactions: { [s.replace(/[^a-z0-9-]/g, '') || 'k']: 1 },
        }),
        `nested ${s}`,
      );
      same(renderFrontmatter({ ...rich, hop_guard: { reasons: ['depth'], max_depth: 5, confirmed: true, allowed_by: s } }), `hop_guard ${s}`);
      same(renderFrontmatter({ ...rich, [s.replace(/[^a-z0-9_]/g, '') || 'k']: s }), `unknown key ${s}`);
    }
  });

  it('on hand-edited and hostile frontmatters (comments, CRLF, BOM, tabs, flow, anchors, tags, escapes, duplicates, indentation)', () => {
    const base = renderFrontmatter(richFrontmatter());
    const lines = base.split('\n');
    const at = (key: string) => lines.findIndex((l) => l.startsWith(`${key}:`));
    const replaceLine = (key: string, line: string) => lines.map((l, i) => (i === at(key) ? line : l)).join('\n');
    const insertAfter = (key: string, extra: string) => lines.flatMap((l, i) => (i === at(key) ? [l, extra] : [l])).join('\n');
    const cases: string[] = [
      base,
      base.replace(/\n/g, '\r\n'),
      `\ufeff${base}`,
      base.replace('---\n', '---  \n'),
      replaceLine('id', 'id: 2026-05-26T14-30-45.123Z_quality_reviewer # edited'),
      replaceLine('id', '# id: commented out'),
      insertAfter('id', '# a comment line'),
      insertAfter('id', ''),
      insertAfter('id', '   '),
      replaceLine('hop', 'hop:\t2'),
      replaceLine('hop', '\thop: 2'),
      replaceLine('hop', 'hop: "2"'),
      replaceLine('hop', "hop: '2'"),
      replaceLine('hop', 'hop: !!int "2"'),
      replaceLine('hop', 'hop: !!str 2'),
      replaceLine('hop', 'hop: 0x10'),
      replaceLine('hop', 'hop: 0o7'),
      replaceLine('hop', 'hop: +3'),
      replaceLine('hop', 'hop: 3.0'),
      replaceLine('hop', 'hop: 1e1'),
      replaceLine('hop', 'hop: 3 '),
      replaceLine('hop', 'hop:  3'),
      replaceLine('hop', 'hop:3'),
      replaceLine('hop', 'hop : 3'),
      replaceLine('hop', 'hop: &h 3'),
      insertAfter('hop', 'tests_run_count: *h'),
      replaceLine('parent_id', 'parent_id: ~'),
      replaceLine('parent_id', 'parent_id: Null'),
      replaceLine('parent_id', 'parent_id:'),
      replaceLine('parent_id', "parent_id: ''"),
      replaceLine('parent_id', 'parent_id: "null"'),
      replaceLine('parent_id', 'parent_id: [a]'),
      replaceLine('parent_id', 'parent_id: {}'),
      replaceLine('topic_title', 'topic_title: "escaped \\"quote\\" and \\\\ backslash"'),
      replaceLine('topic_title', 'topic_title: "tab\\there"'),
      replaceLine('topic_title', 'topic_title: "uni\\u00e9"'),
      replaceLine('topic_title', 'topic_title: "unclosed'),
      replaceLine('topic_title', 'topic_title: "a" trailing'),
      replaceLine('topic_title', "topic_title: 'it''s'"),
      replaceLine('topic_title', "topic_title: 'bad ' quote'"),
      replaceLine('topic_title', 'topic_title: |\n  block\n  title'),
      replaceLine('topic_title', 'topic_title: >-\n  folded\n  title'),
      replaceLine('topic_title', 'topic_title: multi\n  line plain'),
      replaceLine('topic_title', 'topic_title: <<'),
      replaceLine('topic_title', 'topic_title: a\u00a0#b'),
      replaceLine('topic_title', 'topic_title: a\u2028b'),
      replaceLine('topic_title', 'topic_title: a\u0085b'),
      replaceLine('topic', 'topic: [auth]'),
      replaceLine('topic', 'topic: {a: 1}'),
      replaceLine('topic', 'topic: !secret auth'),
      replaceLine('status', 'status: accepted'),
      replaceLine('status', 'status: ACCEPTED'),
      replaceLine('status', 'status: "in_progress"'),
      replaceLine('kind', 'kind: result'),
      replaceLine('kind', 'kind:'),
      insertAfter('id', 'id: 2026-05-26T14-30-45.123Z_other'),
      insertAfter('hop', 'branch: again'),
      insertAfter('hop', '"quoted key": 1'),
      insertAfter('hop', "'single key': 1"),
      insertAfter('hop', '? complex\n: key'),
      insertAfter('hop', 'null: 1'),
      insertAfter('hop', 'true: 1'),
      insertAfter('hop', 'True: 1'),
      insertAfter('hop', '~: 1'),
      insertAfter('hop', '<<: {a: 1}'),
      insertAfter('hop', '__proto__: 1'),
      insertAfter('hop', 'Upper: 1'),
      insertAfter('hop', '1e3: x'),
      insertAfter('hop', `${'k'.repeat(1100)}: 1`),
      insertAfter('hop', `${'k'.repeat(199)}: 1`),
      insertAfter('hop', 'flow: [a, b, {c: d}]'),
      insertAfter('hop', 'anchor: &a\n  x: 1\nalias: *a'),
      insertAfter('hop', '...'),
      insertAfter('hop', '%YAML 1.1'),
      insertAfter('hop', 'key:value'),
      insertAfter('hop', 'bare scalar line'),
      insertAfter('hop', '  indented: 1'),
      insertAfter('hop', '- seq at top'),
      replaceLine('chain', 'chain:\n- codebase_explorer\n- quality_reviewer'),
      replaceLine('chain', 'chain:\n    - codebase_explorer'),
      replaceLine('chain', 'chain: [codebase_explorer, quality_reviewer]'),
      replaceLine('chain', 'chain:\n  -   codebase_explorer'),
      replaceLine('chain', 'chain:\n  - - nested'),
      replaceLine('chain', 'chain:\n  -\n    codebase_explorer'),
      replaceLine('chain', 'chain:\n  -\n  - x'),
      replaceLine('status_history', 'status_history:\n  - from: pending\n    from: accepted\n    to: accepted\n    at: x\n    session_id: s'),
      replaceLine('status_history', 'status_history:\n  - from: pending\n      to: accepted'),
      replaceLine('status_history', 'status_history:\n  - {from: pending, to: accepted, at: x, session_id: s}'),
      replaceLine('status_history', 'status_history:\n    - from: pending\n      to: accepted\n      at: "2026-05-26T15:00:00.000Z"\n      session_id: s'),
      replaceLine('hop_guard', 'hop_guard:\n  reasons:\n  - depth\n  max_depth: 5\n  confirmed: true'),
      replaceLine('hop_guard', 'hop_guard:\n  reasons: [depth]\n  max_depth: 5\n  confirmed: true'),
      replaceLine('hop_guard', 'hop_guard:\n  max_depth: 5\n  max_depth: 6\n  reasons: []\n  confirmed: true'),
      replaceLine('return_condition', 'return_condition: |2\n    indicator'),
      replaceLine('return_condition', 'return_condition: |\n\n  leading blank'),
      replaceLine('return_condition', 'return_condition: |\n    deeper first\n  then shallower'),
      replaceLine('return_condition', 'return_condition: |\n  x\n   \n  y'),
      replaceLine('return_condition', 'return_condition: |\nnot indented'),
      replaceLine('return_condition', 'return_condition: |\n  id: 1\n  hop: [x'),
      replaceLine('return_condition', 'return_condition: | # comment\n  x'),
      '---\n---\nbody\n',
      '---\nid: x\n',
      '---\n- a\n- b\n---\n',
      '---\njust a scalar\n---\n',
      '---\n[unclosed\n---\n',
      'no frontmatter at all\n',
      '',
      '---',
      '--- \nschema: 1\n---\n',
    ];
    const t = tally();
    for (const c of cases) t.add(same(c));
    assert.ok(t.yaml > 60, `most hand edits go to the library (fast ${t.fast}, yaml ${t.yaml})`);
    // Every tricky string typed raw (unquoted, as a person edits) into head fields, a list item and a nested map.
    const raw = tally();
    for (const v of TRICKY.filter((x) => !/[\n\r]/.test(x)).flatMap((x) => [x, `a ${x}`])) {
      for (const key of ['id', 'topic_title', 'hop']) raw.add(same(replaceLine(key, `${key}: ${v}`), `${key}: ${v}`));
      raw.add(same(replaceLine('chain', `chain:\n  - ${v}`), `- ${v}`));
      raw.add(same(replaceLine('status_history', `status_history:\n  - from: pending\n    to: accepted\n    at: ${v}\n    session_id: ${v}`), `at: ${v}`));
    }
    assert.ok(raw.fast > 200 && raw.yaml > 200, `raw values exercise both paths (fast ${raw.fast}, yaml ${raw.yaml})`);
  });

  it('on 600 seeded mutations of a rendered frontmatter (characters inserted, deleted, lines repeated, re-indented)', () => {
    const random = seededRandom(19);
    const base = renderFrontmatter(richFrontmatter()) + '\n# Handoff\n';
    const alphabet = [
      ' ',
      '  ',
      '\t',
      ':',
      ': ',
      '#',
      ' #',
      '-',
      '- ',
      '"',
      "'",
      '\\',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&',
      '*',
      '!',
      '|',
      '>',
      '?',
      '%',
      '@',
      '`',
      '~',
      '\n',
      '\r',
      '\u00a0',
      '\u2028',
      '\ufeff',
      'é',
      '🙂',
      '0',
      '1',
      'e',
      '.',
      'x',
      'null',
      'true',
      'yes',
    ];
    const t = tally();
    for (let n = 0; n < 600; n++) {
      let text = base;
      const edits = 1 + Math.floor(random() * 3);
      for (let e = 0; e < edits; e++) {
        const lines = text.split('\n');
        const i = 1 + Math.floor(random() * (lines.length - 3));
        const r = random();
        if (r < 0.45) {
          const pos = Math.floor(random() * (lines[i].length + 1));
          lines[i] = lines[i].slice(0, pos) + alphabet[Math.floor(random() * alphabet.length)] + lines[i].slice(pos);
        } else if (r < 0.65) {
          const pos = Math.floor(random() * lines[i].length);
          lines[i] = lines[i].slice(0, pos) + lines[i].slice(pos + 1);
        } else if (r < 0.8) {
          lines.splice(i, 0, lines[1 + Math.floor(random() * (lines.length - 3))]);
        } else if (r < 0.9) {
          lines[i] = random() < 0.5 ? ` ${lines[i]}` : lines[i].replace(/^ /, '');
        } else {
          lines.splice(i, 1);
        }
        text = lines.join('\n');
      }
      t.add(same(text));
    }
    assert.ok(t.fast > 60 && t.yaml > 60, `both paths are exercised (fast ${t.fast}, yaml ${t.yaml})`);
  });

  it('on files of other tools in the timeline: itervox and Agent Zero documents, and frontmatters that are not ours', () => {
    const ours = renderHandoff(pkgFrom({ summary: 'S' }), META, reviewer);
    const files = [
      '# Research\nFound the auth module.\n',
      '# Briefing for Frontend designer\n\n## Landing page\n\nHero section.\n\n**Handoff:** [2026-05-26T14-30-45.123Z_quality_reviewer](../../.handoff/handoffs/x.md)\n',
      '---\nprofile: researcher\nstatus: done\ncreated: 2026-05-26T14:30:45Z\ntags: [auth, review]\n---\n# Research\n',
      '---\ntitle: "Handoff 2026-05-26"\ndate: 2026-05-26\ntype: handoff\n---\n\n# Session Handoff\n',
      '---\nprimitive: handoff\nfields:\n  title:\n    type: string\n    required: true\n---\n',
      ours, // the itervox copy is byte for byte ours
      ours.replace('schema: 1', 'schema: 2'),
      ours.replace(/^id: .*$/m, 'id: ../../etc/passwd'),
      ours.replace(/^root_id: .*$/m, 'root_id: "[x](javascript:alert(1))"'),
    ];
    const paths = files.map((f) => same(f));
    assert.deepEqual(paths.slice(0, 2), ['yaml', 'yaml'], 'no frontmatter: none, from the library');
    assert.equal(parseHandoffHead(files[2]), undefined, 'another tool’s frontmatter is no head');
    assert.equal(parseHandoffHead(ours)?.id, META.id);
    assert.equal(parseHandoffHead(files[6]), undefined);
    assert.equal(parseHandoffHead(files[7]), undefined, 'an id that is a path is refused, as HandoffIdSchema refuses it');
  });

  it('validates with the head fields of HandoffFrontmatterSchema and drops the others', () => {
    const rich = richFrontmatter();
    const head = HandoffHeadSchema.parse(rich);
    assert.equal('branch' in head, false);
    assert.equal(
      parseHandoffHead(renderFrontmatter({ ...rich, tokenizer: 'not-a-tokenizer' }))?.id,
      META.id,
      'a field outside the head does not refuse the head',
    );
    const withoutDefaults = Object.fromEntries(Object.entries(rich).filter(([k]) => !['kind', 'status_history', 'hop_guard'].includes(k)));
    const read = parseHandoffHead(renderFrontmatter(withoutDefaults));
    assert.deepEqual([read?.kind, read?.status_history, read?.hop_guard], ['handoff', [], null], 'the schema’s defaults');
  });

  it('the ASCII scan of a plain scalar answers as the PLAIN regex, on every tricky string and 200,000 generated ones', () => {
    for (const t of TRICKY) assert.equal(isPlain(t), PLAIN.test(t), JSON.stringify(t));
    const rnd = seededRandom(19);
    // Characters that matter to the rules (indicators, space, colon, hash, dash, controls, DEL) weighted up, then any ASCII.
    const pick = ' :#-?,[]{}&*!|>\'"%@`\t\x7fa1.';
    let scanned = 0;
    for (let n = 0; n < 200_000; n++) {
      const len = Math.floor(rnd() * 8);
      let t = '';
      for (let k = 0; k < len; k++) t += rnd() < 0.6 ? pick[Math.floor(rnd() * pick.length)] : String.fromCharCode(Math.floor(rnd() * 0x80));
      const fast = asciiPlain(t);
      assert.notEqual(fast, undefined, 'ASCII only: the scan answers');
      assert.equal(fast, PLAIN.test(t), JSON.stringify(t));
      scanned++;
    }
    assert.equal(scanned, 200_000);
    assert.equal(asciiPlain('日本語'), undefined, 'not ASCII: the regex answers');
    assert.equal(isPlain('日本語'), true);
  });

  it('the core tags are the ones the string shortcut was read from (a plain scalar not starting with ~ n N t T f F 0-9 + - . is a string)', () => {
    assert.deepEqual(coreTagTests(), [
      String.raw`^(?:~|[Nn]ull|NULL)?$`,
      String.raw`^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$`,
      String.raw`^0o[0-7]+$`,
      String.raw`^[-+]?[0-9]+$`,
      String.raw`^0x[0-9a-fA-F]+$`,
      String.raw`^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$`,
      String.raw`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$`,
      String.raw`^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$`,
    ]);
  });
});
