/**
 * dist/tokenizers/<name>.js builds gpt-tokenizer's encoding with the library's own
 * `GptEncoding.getEncodingApi` over the package's rank table, written beside it as
 * `<name>.ranks.json` by the build (esbuild.mjs rankTables), where the package's module
 * evaluates the same table as a slower JavaScript literal. The table must be the package's
 * own: this builds the tokenizer files with the options of esbuild.mjs into a temporary folder
 * and compares the built encoding's rank table (every rank: its string or bytes), its size and
 * its encodings with the package's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const NAMES = ['o200k_base', 'cl100k_base'] as const;

interface Encoding {
  encode(text: string): number[];
  countTokens(text: string): number;
  vocabularySize: number;
  bytePairEncodingCoreProcessor: { bytePairRankDecoder: unknown[]; mergeableBytePairRankCount: number };
}

const table = (e: Encoding) => e.bytePairEncodingCoreProcessor.bytePairRankDecoder;

describe('build: the tokenizer files', function () {
  this.timeout(300_000);
  after(cleanupTempDirs);
  let dist = '';

  before(async () => {
    const { tokenizersBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { tokenizersBuild: esbuild.BuildOptions };
    dist = tempDir('handoff-tokenizers-');
    await esbuild.build({ ...tokenizersBuild, absWorkingDir: ROOT, outdir: dist, logLevel: 'error' });
  });

  for (const name of NAMES) {
    it(`${name}: the package's table, every rank, and the package's encodings`, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const built = require(path.join(dist, `${name}.js`)) as Encoding;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = (require(`gpt-tokenizer/encoding/${name}`) as { default: Encoding }).default;
      assert.equal(built.vocabularySize, pkg.vocabularySize);
      assert.ok(table(pkg).length > 100_000);
      assert.equal(table(built).length, table(pkg).length);
      assert.equal(built.bytePairEncodingCoreProcessor.mergeableBytePairRankCount, pkg.bytePairEncodingCoreProcessor.mergeableBytePairRankCount);
      for (let rank = 0; rank < table(pkg).length; rank++) {
        const a = JSON.stringify(table(built)[rank]);
        const b = JSON.stringify(table(pkg)[rank]);
        if (a !== b) assert.fail(`rank ${rank} is ${a} in the built file, ${b} in the package`);
      }
      const text = 'A cart total in cents — 購物車的總額 🙂 const x = 1;\n\t  https://example.com/a?b=c <|endoftext|>';
      assert.deepEqual(built.encode(text.replace(' <|endoftext|>', '')), pkg.encode(text.replace(' <|endoftext|>', '')));
      assert.throws(() => built.countTokens(text), /endoftext/, 'special tokens refused as the package refuses them');
      // The tokenizer file reads the table; it does not carry it.
      assert.ok(readFileSync(path.join(dist, `${name}.js`), 'utf8').length < 100_000);
    });
  }
});
