/**
 * Issue 19: dist/tokenizers/<name>.js carries gpt-tokenizer's rank table as one JSON string
 * given to JSON.parse (esbuild.mjs ranksAsJson) instead of the package's array literal, which
 * is slower to evaluate. The table must be the package's own: this builds the tokenizer files
 * with the options of esbuild.mjs into a temporary folder and compares the built encoding's
 * rank table (every rank: its string or bytes) with the package's, then encodes a mixed text
 * with both.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface Encoding {
  encode(text: string): number[];
  vocabularySize: number;
  default: { bytePairEncodingCoreProcessor: { bytePairRankDecoder: unknown[] } };
}

describe('build: the tokenizer files', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  it("hold the rank tables as JSON, equal to the package's", async () => {
    const { tokenizersBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { tokenizersBuild: esbuild.BuildOptions };
    const dist = tempDir('handoff-tokenizers-');
    await esbuild.build({ ...tokenizersBuild, absWorkingDir: ROOT, outdir: dist, logLevel: 'error' });
    for (const name of ['o200k_base', 'cl100k_base']) {
      const file = path.join(dist, `${name}.js`);
      assert.match(readFileSync(file, 'utf8'), /JSON\.parse\(/, `${name}: the table is parsed as JSON`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const built = require(file) as Encoding;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require(`gpt-tokenizer/encoding/${name}`) as Encoding;
      assert.equal(built.vocabularySize, pkg.vocabularySize, name);
      const table = (e: Encoding) => e.default.bytePairEncodingCoreProcessor.bytePairRankDecoder;
      assert.ok(table(pkg).length > 100_000, name);
      assert.equal(table(built).length, table(pkg).length, name);
      for (let rank = 0; rank < table(pkg).length; rank++) {
        const a = JSON.stringify(table(built)[rank]);
        const b = JSON.stringify(table(pkg)[rank]);
        if (a !== b) assert.fail(`${name}: rank ${rank} is ${a} in the built file, ${b} in the package`);
      }
      const text = 'A cart total in cents — 購物車的總額 🙂 const x = 1;\n\t  https://example.com/a?b=c';
      assert.deepEqual(built.encode(text), pkg.encode(text), name);
    }
  });
});
