import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { renderFrontmatter, splitFrontmatter } from '../../../../src/core/handoff/frontmatter';

/** The map rendered at once, with the options renderFrontmatter documents (the rendering before issue 19). */
function whole(data: Record<string, unknown>): string {
  const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
  return `---\n${stringify(clean, { lineWidth: 0, defaultStringType: 'PLAIN', aliasDuplicateObjects: false })}---\n`;
}

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x;
  };
}

// Values YAML treats differently: strings that read back as other types, need quotes, span lines or hold
// unicode; numbers, booleans, null; empty and nested collections; undefined inside and outside.
const STRINGS = [
  'plain',
  'yes',
  'no',
  'null',
  '~',
  '123',
  '0x1f',
  '1e3',
  '2026-05-26',
  '2026-11-30T12:00:00.000Z',
  '',
  ' lead',
  'trail ',
  'a: b',
  '#hash',
  '- dash',
  '[x]',
  '{y}',
  "it's",
  '"q"',
  'multi\nline\n',
  'tab\there',
  '日本語 ✅',
  '\u2028sep',
  'x'.repeat(300),
];
const SCALARS: unknown[] = [...STRINGS, 0, 1, -1, 2.5, 10_000_000, true, false, null, -0, Number.NaN];

function value(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 2 || r % 5 < 3) return SCALARS[r % SCALARS.length];
  if (r % 5 === 3) return Array.from({ length: r % 4 }, () => value(next, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < r % 4; i++) o[STRINGS[(r >> (i + 3)) % STRINGS.length] || `k${i}`] = r % 11 === 0 ? undefined : value(next, depth + 1);
  return o;
}

describe('frontmatter rendering, pair by pair (issue 19)', function () {
  this.timeout(60_000);
  it('renders exactly what rendering the whole map gives, on 500 generated frontmatters, and again from the cache', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const next = rng(seed);
      const data: Record<string, unknown> = {};
      for (let i = 0; i < 1 + (seed % 40); i++) data[`${STRINGS[next() % STRINGS.length] || 'key'}_${i}`] = next() % 13 === 0 ? undefined : value(next, 0);
      const expected = whole(data);
      assert.equal(renderFrontmatter(data), expected, `seed ${seed}`);
      assert.equal(renderFrontmatter(data), expected, `seed ${seed}, remembered`);
    }
  });

  it('keeps what changed after a first rendering (the cache is keyed by value, not by object)', () => {
    const dropped = [{ section: 'touched_files', count: 3, tokens: 120 }];
    const data = { schema: 1, dropped, estimated_tokens: 3000 };
    assert.equal(renderFrontmatter(data), whole(data));
    dropped[0].count = 4;
    data.estimated_tokens = 2999;
    assert.equal(renderFrontmatter(data), whole(data));
    assert.match(renderFrontmatter(data), /count: 4/);
  });

  it('reads back what it wrote, and renders an empty map as the whole rendering does', () => {
    const data = { id: 'x', created: '2026-11-30T12:00:00.000Z', hop: 1, chain: ['a', 'b'], hop_guard: null, redactions: {} };
    const split = splitFrontmatter(`${renderFrontmatter(data)}# body\n`);
    assert.ok(split.ok);
    assert.deepEqual(split.data, data);
    assert.equal(renderFrontmatter({}), whole({}));
    assert.equal(renderFrontmatter({ a: undefined }), whole({ a: undefined }));
  });
});
