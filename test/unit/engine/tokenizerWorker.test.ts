/**
 * Issue 19: the CLI loads its tokenizer on a worker thread (src/engine/tokenizers/tokenizerWorker.ts).
 * Its counts must be the library's own: the worker-backed encoding and the encoding loaded
 * in this process answer many generated texts — prose, code, CJK, emoji, special-token
 * strings counted as plain text, long runs, whitespace — identically, through the project's
 * counting rules (countTokens, tokensWithin) and the raw calls; a worker that cannot load its
 * module falls back to the process's own encoding, and so does a released one (its thread ended).
 * The worker keeps no process alive, even once it has written to its standard streams (which
 * Node passes on to the process's).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countTokens, countTokensMany, tokensWithin, type TokenEncoding } from '../../../src/core/handoff/tokens';
import { loadEncoding } from '../../../src/engine/tokenizers/tokenizer';
import { encodingModuleFile, startWorkerEncoding } from '../../../src/engine/tokenizers/tokenizerWorker';
import { seededRandom } from '../../helpers/random';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';

const PIECES = [
  'The reviewer checks src/auth.ts for timing-safe comparison. ',
  'const total = items.reduce((s, i) => s + i.cents, 0);\n',
  '購物車的總額以分顯示。',
  '🙂👍🏽 ',
  '<|endoftext|>',
  '<|im_start|>user',
  '\t\t  \n\n',
  'x'.repeat(300),
  ' '.repeat(40),
  'naïve café — “quoted” ',
  'https://example.com/a/b?c=d&e=f ',
  '0123456789'.repeat(5),
];

function texts(n: number): string[] {
  const rnd = seededRandom(19);
  const out: string[] = ['', ' ', 'a'];
  for (let i = 0; i < n; i++) {
    let t = '';
    const parts = 1 + Math.floor(rnd() * 12);
    for (let k = 0; k < parts; k++) t += PIECES[Math.floor(rnd() * PIECES.length)];
    out.push(t);
  }
  return out;
}

describe('engine: the tokenizer on a worker thread', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  for (const name of ['o200k_base', 'cl100k_base'] as const) {
    it(`${name}: counts as the encoding loaded in the process, on 300 generated texts`, () => {
      const local = loadEncoding(name);
      const worker = startWorkerEncoding(name, () => assert.fail('the worker loads its encoding'));
      for (const text of texts(300)) {
        assert.equal(
          worker.countTokens(text, { disallowedSpecial: new Set() }),
          local.countTokens(text, { disallowedSpecial: new Set() }),
          JSON.stringify(text),
        );
        assert.deepEqual(countTokens(worker, text), countTokens(local, text), JSON.stringify(text));
        for (const limit of [0, 5, 50]) {
          assert.equal(tokensWithin(worker, text, limit), tokensWithin(local, text, limit), `${limit}: ${JSON.stringify(text)}`);
        }
      }
      // In batches (one round trip each): the same counts as the process's encoding one by one.
      const all = texts(300);
      assert.deepEqual(
        countTokensMany(worker, all),
        all.map((text) => countTokens(local, text)),
      );
      assert.deepEqual(
        worker.countTokensBatch?.(all.slice(0, 40), { disallowedSpecial: new Set() }),
        all.slice(0, 40).map((text) => local.countTokens(text, { disallowedSpecial: new Set() })),
      );
    });
  }

  it("throws the library's own error where the library throws (a special token not allowed), and keeps answering", () => {
    const local = loadEncoding('o200k_base');
    const worker = startWorkerEncoding('o200k_base', () => local);
    assert.throws(() => local.countTokens('<|endoftext|>'));
    assert.throws(() => worker.countTokens('<|endoftext|>'));
    assert.equal(worker.countTokens('hello world'), local.countTokens('hello world'));
  });

  it('falls back to the encoding loaded in the process when the worker cannot load its module', () => {
    const broken = path.join(tempDir('handoff-tokenizer-'), 'broken.js');
    writeFileSync(broken, 'throw new Error("no rank table here");\n');
    const local = loadEncoding('o200k_base');
    let fellBack = 0;
    const worker: TokenEncoding = startWorkerEncoding('o200k_base', () => (fellBack++, local), broken);
    assert.equal(worker.countTokens('a cart total in cents'), local.countTokens('a cart total in cents'));
    assert.equal(worker.isWithinTokenLimit('a cart total in cents', 2), false);
    assert.deepEqual(worker.countTokensBatch?.(['a cart', 'total in cents']), [local.countTokens('a cart'), local.countTokens('total in cents')]);
    assert.equal(fellBack, 1, 'loaded once in the process, then used for every call');
  });

  it('release ends the worker thread, and a later count answers from the encoding loaded in the process', async () => {
    const local = loadEncoding('o200k_base');
    let fellBack = 0;
    const worker = startWorkerEncoding('o200k_base', () => (fellBack++, local));
    const text = 'The reviewer checks src/auth.ts for timing-safe comparison.';
    assert.equal(worker.countTokens(text), local.countTokens(text));
    // The process's threads as the kernel lists them (Linux): the worker's own goes.
    const threads = () => readdirSync('/proc/self/task').length;
    const before = existsSync('/proc/self/task') ? threads() : undefined;
    worker.release();
    worker.release(); // twice is once
    if (before !== undefined) {
      const deadline = Date.now() + 10_000;
      while (threads() >= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(threads() < before, `the worker's thread ended (${before} threads before, ${threads()} after)`);
    }
    assert.equal(fellBack, 0, 'nothing loaded in the process until a count asks');
    assert.equal(worker.countTokens(text), local.countTokens(text));
    assert.equal(worker.isWithinTokenLimit(text, 2), false);
    assert.deepEqual(worker.countTokensBatch?.([text, 'a cart']), [local.countTokens(text), local.countTokens('a cart')]);
    assert.equal(fellBack, 1, 'loaded once in the process, then used for every call');
  });

  it('keeps no process alive, even once it has written to its standard streams (Node passes them on)', () => {
    // Reading a worker's stdio stream ourselves (`stdout: true` and a listener) holds the
    // process open until the worker ends: Node's own piping, the default, does not.
    const dir = tempDir('handoff-tokenizer-');
    const noisy = path.join(dir, 'noisy.js');
    writeFileSync(
      noisy,
      `process.stdout.write('WORKER-STDOUT\\n'); process.stderr.write('WORKER-STDERR\\n'); module.exports = require(${JSON.stringify(require.resolve('gpt-tokenizer/encoding/o200k_base'))});\n`,
    );
    // The script ends without releasing the worker.
    const script = [
      `const { startWorkerEncoding } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/engine/tokenizers/tokenizerWorker.ts'))});`,
      `const worker = startWorkerEncoding('o200k_base', () => { throw new Error('fell back'); }, ${JSON.stringify(noisy)});`,
      "process.stdout.write('COUNT ' + worker.countTokens('a cart total in cents') + '\\n');",
      'setTimeout(() => undefined, 500);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
      encoding: 'utf8',
      cwd: path.resolve(__dirname, '../../..'),
      timeout: 30_000,
    });
    assert.equal(run.signal, null, 'the process exited by itself');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^COUNT ${loadEncoding('o200k_base').countTokens('a cart total in cents')}$`, 'm'));
    assert.match(run.stdout, /^WORKER-STDOUT$/m);
    assert.match(run.stderr, /^WORKER-STDERR$/m);
  });

  it("finds the bundle's tokenizers/<name>.js beside dist/cli.js, else the package's module", () => {
    const dist = tempDir('handoff-dist-');
    assert.equal(encodingModuleFile('o200k_base', dist), require.resolve('gpt-tokenizer/encoding/o200k_base'));
    const bundled = path.join(dist, 'tokenizers', 'o200k_base.js');
    mkdirSync(path.dirname(bundled), { recursive: true });
    writeFileSync(bundled, '');
    assert.equal(encodingModuleFile('o200k_base', dist), bundled);
  });
});
