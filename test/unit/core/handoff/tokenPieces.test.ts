import assert from 'node:assert/strict';
import { LONG_RUN_CHARS, LONG_RUN_PATTERN, countTokens, tokenCounter, type TokenEncoding } from '../../../../src/core/handoff/tokens';
import { memoisedCounter, tokenPieces } from '../../../../src/core/handoff/tokenPieces';
import { counterFor, loadEncoding } from '../../../../src/engine/tokenizers/tokenizer';

/** A deterministic generator (linear congruential), so a failure names a seed that reproduces it. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x;
  };
}

// Fragments that meet at line starts in every way the pre-tokenizers treat differently: line
// feeds before letters, digits, marks, CJK, punctuation, `/`, spaces, tabs, CR LF, blank lines,
// special-token strings, emoji (surrogate pairs), contractions, and runs around the long-run threshold.
const FRAGMENTS = [
  'word',
  'Word',
  'WORD',
  "don't",
  "'s",
  '42',
  '12345',
  '日本語',
  'é',
  'e\u0301',
  '😀',
  '👩‍💻',
  '<|endoftext|>',
  '<|im_start|>',
  '- **M** `src/a.ts` (+3 / −1)',
  '+  const x = 1;',
  '-removed',
  ' context',
  '@@ -1,4 +1,5 @@',
  '```diff',
  '```',
  '# Heading',
  '## Summary',
  '/path/to/file',
  '//comment',
  '.',
  '...',
  '---',
  '>',
  '> quoted',
  '|',
  '_None._',
  '**bold**',
  '{',
  '}',
  '(',
  ')',
  ':',
  ';',
  '"',
  "'",
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r\n',
  '\n \n',
  ' \n',
  '\n/',
  '\n ',
  '\n\t',
  '\n-',
  '\n#',
  '\n1',
  '\na',
  '\nA',
  '\n日',
  '\n😀',
  '\n.',
  '\n\n\n',
];

function generatedText(seed: number, parts: number): string {
  const next = rng(seed);
  let out = '';
  for (let i = 0; i < parts; i++) {
    const r = next();
    if (r % 97 === 0)
      out += 'x'.repeat(LONG_RUN_CHARS - 2 + (r % 5)); // around the chunking threshold
    else if (r % 89 === 0) out += ' '.repeat(LONG_RUN_CHARS - 1 + (r % 4));
    else if (r % 83 === 0) out += '\n'.repeat(LONG_RUN_CHARS + (r % 3));
    else out += FRAGMENTS[r % FRAGMENTS.length];
  }
  return out;
}

describe('token counting by pieces (issue 19)', function () {
  this.timeout(120_000);

  it('finds the same long runs as the plain pattern \\S{256,}|\\s{256,}, on generated texts', () => {
    const plain = new RegExp(`\\S{${LONG_RUN_CHARS},}|\\s{${LONG_RUN_CHARS},}`, 'g');
    const fast = new RegExp(LONG_RUN_PATTERN, 'g');
    const spans = (re: RegExp, text: string) => [...text.matchAll(re)].map((m) => `${m.index}:${m[0].length}`).join(',');
    let withRuns = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = generatedText(seed, 400);
      const expected = spans(plain, text);
      if (expected) withRuns++;
      assert.equal(spans(fast, text), expected, `seed ${seed}`);
    }
    assert.ok(withRuns > 100, `only ${withRuns} texts had a long run`);
  });

  it('cuts text into pieces that join back to it, each ending in a line feed before a safe character', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const text = generatedText(seed, 300);
      const pieces = tokenPieces(text);
      assert.equal(pieces.join(''), text, `seed ${seed}`);
      for (const p of pieces.slice(0, -1)) assert.ok(p.endsWith('\n'), `seed ${seed}: ${JSON.stringify(p.slice(-20))}`);
    }
    assert.deepEqual(tokenPieces(''), []);
    assert.deepEqual(tokenPieces('a\nb\n c\n/d\n'), ['a\n', 'b\n c\n/d\n']);
  });

  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    it(`counts exactly what counting the whole text counts, in ${name}, on 400 generated texts`, () => {
      const encoding = loadEncoding(name);
      const memo = memoisedCounter(counterFor(name));
      let estimated = 0;
      for (let seed = 1; seed <= 400; seed++) {
        const text = generatedText(seed * 7 + (name === 'o200k_base' ? 0 : 1), 60 + (seed % 300));
        const whole = countTokens(encoding, text);
        if (whole.estimated) estimated++;
        assert.deepEqual(memo.count(text), whole, `seed ${seed}`);
        // Asked again (all pieces remembered) and fits-or-not on both sides of the count.
        assert.deepEqual(memo.count(text), whole, `seed ${seed}, remembered`);
        assert.equal(memo.within(text, whole.tokens), whole.tokens, `seed ${seed}, at the limit`);
        if (whole.tokens > 0) assert.equal(memo.within(text, whole.tokens - 1), false, `seed ${seed}, one under`);
      }
      assert.ok(estimated > 20, `only ${estimated} texts were chunked`);
    });
  }

  it('asks for the pieces it does not know in one batch per count, with the same figures as counting piece by piece', () => {
    const encoding = loadEncoding('o200k_base');
    let batches = 0;
    let asked = 0;
    const batching: TokenEncoding = {
      countTokens: () => assert.fail('counted in batches only'),
      isWithinTokenLimit: (text, limit, options) => encoding.isWithinTokenLimit(text, limit, options),
      countTokensBatch: (parts, options) => (batches++, (asked += parts.length), parts.map((p) => encoding.countTokens(p, options))),
    };
    const batched = memoisedCounter(tokenCounter('o200k_base', batching));
    const pieceByPiece = memoisedCounter(counterFor('o200k_base'));
    let estimated = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const text = generatedText(seed * 13, 80 + (seed % 250));
      const before = batches;
      const c = batched.count(text);
      if (c.estimated) estimated++;
      assert.deepEqual(c, pieceByPiece.count(text), `seed ${seed}`);
      assert.deepEqual(c, countTokens(encoding, text), `seed ${seed}, whole`);
      assert.ok(batches - before <= 1, `seed ${seed}: ${batches - before} batches`);
      const after = batches;
      assert.deepEqual(batched.count(text), c, `seed ${seed}, remembered`);
      assert.equal(batches, after, `seed ${seed}: nothing asked again`);
    }
    assert.ok(estimated > 10, `only ${estimated} texts were chunked`);
    // A text of one repeated piece asks for it once.
    const b = batches;
    const a = asked;
    const fresh = memoisedCounter(tokenCounter('o200k_base', batching));
    const repeated = 'same line here\n'.repeat(50);
    assert.deepEqual(fresh.count(repeated), countTokens(encoding, repeated));
    assert.equal(batches - b, 1);
    assert.equal(asked - a, 1);
  });

  it('agrees with the plain counter on renderings that differ in a few lines, and on a piece far over the limit', () => {
    const plain = counterFor('o200k_base');
    const memo = memoisedCounter(plain);
    const lines = Array.from({ length: 3000 }, (_, i) => `- **M** \`pkg${i % 50}/sub${i % 7}/module ${i}.ts\` (+${i % 40} / −${i % 9})`);
    for (const keep of [3000, 1500, 750, 1125, 1312, 1, 0]) {
      const text = `---\nestimated_tokens: ${keep * 17}\n---\n# Handoff\n\n${lines.slice(0, keep).join('\n')}\n- … and ${3000 - keep} more\n`;
      assert.deepEqual(memo.count(text), plain.count(text), `keep ${keep}`);
      for (const limit of [0, 100, 3000, 30_000, 100_000]) assert.equal(memo.within(text, limit), plain.within(text, limit), `keep ${keep}, limit ${limit}`);
    }
    const oneLine = `summary: ${'lorem ipsum dolor '.repeat(20_000)}`;
    assert.equal(memo.within(oneLine, 50), false);
    assert.equal(memo.within(oneLine, 10_000_000), plain.count(oneLine).tokens);
    assert.equal(memo.within('x', -1), false);
    assert.equal(memo.within('', 0), 0);
  });
});
