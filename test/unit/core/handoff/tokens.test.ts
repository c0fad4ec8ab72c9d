import assert from 'node:assert/strict';
import { countTokens as gptCount } from 'gpt-tokenizer/encoding/o200k_base';
import {
  LONG_RUN_CHARS,
  RUN_CHUNK_CHARS,
  countTokens,
  countTokensMany,
  tokenUpperBound,
  tokensWithin,
  type TokenEncoding,
} from '../../../../src/core/handoff/tokens';
import { counterFor, loadEncoding } from '../../../../src/engine/tokenizers/tokenizer';

describe('token counting', () => {
  const o200k = loadEncoding('o200k_base');

  it('counts ordinary text exactly as gpt-tokenizer does', () => {
    const text = 'The quick brown fox jumps over the lazy dog.\n'.repeat(50);
    assert.deepEqual(countTokens(o200k, text), { tokens: gptCount(text), estimated: false });
  });

  it('counts empty text as 0', () => {
    assert.deepEqual(countTokens(o200k, ''), { tokens: 0, estimated: false });
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    assert.throws(() => gptCount('a <|endoftext|> b'), /special token/i);
    for (const s of ['<|endoftext|>', 'x <|im_start|>system<|im_end|> y', '<|endofprompt|><|fim_prefix|>']) {
      const c = countTokens(o200k, s);
      assert.ok(c.tokens > 1, s);
      assert.equal(c.estimated, false);
    }
  });

  it('uses the configured encoding (cl100k_base differs from o200k_base)', () => {
    const text = 'Ünïcödé and 日本語 text, counted twice.';
    const a = counterFor('o200k_base').count(text).tokens;
    const b = counterFor('cl100k_base').count(text).tokens;
    assert.ok(a > 0 && b > 0);
    assert.notEqual(a, b);
  });

  // Their speed is a bench row (bench/run.ts "tokens"), never a timed assertion here: a loaded machine gets time.
  it('counts a 200,000-character line without whitespace at all, as an estimate', function () {
    this.timeout(60_000);
    const line = 'x'.repeat(200_000);
    const c = countTokens(o200k, line);
    assert.equal(c.estimated, true);
    // 'x' * 8 is one o200k token, so the true count is 25,000; chunking may differ slightly.
    assert.ok(Math.abs(c.tokens - 25_000) < 500, `got ${c.tokens}`);
  });

  it('counts a 200,000-character line of random letters (no merge-cache help), as an estimate', function () {
    this.timeout(60_000);
    let x = 7;
    let line = '';
    for (let i = 0; i < 200_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      line += String.fromCharCode(97 + (x % 26));
    }
    const c = countTokens(o200k, line);
    assert.equal(c.estimated, true);
    assert.ok(c.tokens > 30_000 && c.tokens < 120_000, `got ${c.tokens}`);
  });

  it('bounds minified-looking and base64 runs and long whitespace runs', () => {
    const b64 = Buffer.alloc(150_000, 7).toString('base64');
    const minified = 'if(a){b=c+d;return[e,f]}'.repeat(8000);
    const spaces = ' '.repeat(100_000);
    for (const s of [b64, minified, `start ${spaces} end`]) {
      const c = countTokens(o200k, s);
      assert.equal(c.estimated, true);
      assert.ok(c.tokens > 0);
    }
  });

  it('stays exact for text whose runs are below the chunking threshold', () => {
    const text = `${'y'.repeat(LONG_RUN_CHARS - 1)} tail`;
    assert.deepEqual(countTokens(o200k, text), { tokens: gptCount(text), estimated: false });
  });

  it('"fits or not" agrees with the full count on both sides of the limit, for every kind of text', () => {
    const texts = [
      'Token auth is in place for the todo API.\n'.repeat(40),
      'see <|endoftext|> and <|im_start|> here',
      `const a=${'x'.repeat(5000)};\n${' '.repeat(600)}end`,
      'word '.repeat(2000),
      '',
    ];
    for (const text of texts) {
      const n = countTokens(o200k, text).tokens;
      assert.equal(tokensWithin(o200k, text, n), n, 'at the limit: the count');
      assert.equal(tokensWithin(o200k, text, n + 10), n, 'under the limit: the count');
      if (n > 0) assert.equal(tokensWithin(o200k, text, n - 1), false, 'one over: false');
    }
    assert.equal(tokensWithin(o200k, 'x', -1), false);
  });

  it('counts many texts at once exactly as one by one, in one batch: prose, special tokens, long runs without whitespace, CJK, emoji', () => {
    let x = 11;
    let letters = '';
    for (let i = 0; i < 3 * RUN_CHUNK_CHARS + 17; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      letters += String.fromCharCode(97 + (x % 26));
    }
    const texts = [
      'The quick brown fox jumps over the lazy dog.\n'.repeat(20),
      '',
      'see <|endoftext|> and <|im_start|> here',
      `const a=${'x'.repeat(1000)};\n${' '.repeat(600)}end`,
      letters,
      `before ${letters} after ${letters}`,
      '購物車的總額以分顯示'.repeat(40),
      '🙂'.repeat(200),
      Buffer.alloc(3000, 7).toString('base64'),
      'y'.repeat(LONG_RUN_CHARS - 1),
      'y'.repeat(LONG_RUN_CHARS),
      '\n'.repeat(LONG_RUN_CHARS + 3),
      'The quick brown fox jumps over the lazy dog.\n'.repeat(20),
    ];
    const batches: number[] = [];
    const batching: TokenEncoding = {
      countTokens: () => assert.fail('a batch-capable encoding is asked in batches only'),
      isWithinTokenLimit: () => assert.fail('not asked'),
      countTokensBatch: (parts, options) => (batches.push(parts.length), parts.map((p) => o200k.countTokens(p, options))),
    };
    const oneByOne = texts.map((t) => countTokens(o200k, t));
    assert.ok(oneByOne.filter((c) => c.estimated).length >= 5, 'several texts are chunked');
    assert.deepEqual(countTokensMany(batching, texts), oneByOne);
    assert.equal(batches.length, 1, 'every part of every text in one batch');
    // Without countTokensBatch: text by text, the same figures.
    assert.deepEqual(countTokensMany(o200k, texts), oneByOne);
    assert.deepEqual(countTokensMany(batching, []), []);
    assert.deepEqual(countTokensMany(batching, ['', '']), [
      { tokens: 0, estimated: false },
      { tokens: 0, estimated: false },
    ]);
    assert.equal(batches.length, 1, 'nothing to count: no batch');
    assert.throws(() => countTokensMany({ ...batching, countTokensBatch: () => [1] }, ['a b', 'c']), /1 counts for 2 texts/);
  });

  it('bounds the count from above without a tokenizer (UTF-8 bytes), in both encodings, on texts of every kind', () => {
    const cl100k = loadEncoding('cl100k_base');
    const kinds = [
      'a',
      ' ',
      '\n',
      'é',
      'ß',
      '日',
      '語',
      '🙂',
      '👩‍💻',
      '\ud83d',
      '\ude42',
      '<|endoftext|>',
      'x'.repeat(300),
      ' '.repeat(300),
      '\u0301',
      '\uffff',
      '\u07ff',
      '\u0800',
    ];
    let x = 5;
    for (let n = 0; n < 300; n++) {
      let text = '';
      const parts = 1 + (n % 40);
      for (let k = 0; k < parts; k++) {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        text += kinds[x % kinds.length].repeat(1 + (x % 7));
      }
      for (const enc of [o200k, cl100k]) assert.ok(countTokens(enc, text).tokens <= tokenUpperBound(text), JSON.stringify(text));
    }
    // A chunk boundary cutting a surrogate pair: each half is a lone surrogate (U+FFFD, 3 bytes).
    const cut = `${'x'.repeat(RUN_CHUNK_CHARS - 1)}${'🙂'.repeat(200)}`;
    for (const enc of [o200k, cl100k]) assert.ok(countTokens(enc, cut).tokens <= tokenUpperBound(cut));
    assert.equal(tokenUpperBound(''), 0);
    assert.equal(tokenUpperBound('aé日🙂'), 1 + 2 + 3 + 6);
  });

  it('answers false for text far over the limit (a 2 MB text against a 3,000-token budget; its speed is a bench row)', () => {
    const text = 'Some ordinary diff line with words and 1234 numbers\n'.repeat(40_000);
    assert.equal(tokensWithin(o200k, text, 3000), false);
    assert.equal(counterFor('o200k_base').within('hello world', 5), countTokens(o200k, 'hello world').tokens);
  });
});
