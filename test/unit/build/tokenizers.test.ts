/**
 * Issue 19: dist/tokenizers/<name>.js reads gpt-tokenizer's rank table from files beside it
 * (esbuild.mjs ranksBeside) instead of evaluating the package's array literal, which is slower:
 * `<name>.ranks.v8` (V8's serialization, the fastest to load) and, for a runtime that cannot
 * read it, `<name>.ranks.json`. The table must be the package's own on both paths: this builds
 * the tokenizer files with the options of esbuild.mjs into a temporary folder and compares the
 * built encoding's rank table (every rank: its string or bytes) with the package's, then
 * encodes a mixed text with both — read from the V8 file alone (the JSON gone), and from the
 * JSON when the V8 file is of a format this V8 does not read, damaged, another table or missing.
 * The built files also count the table without listing its keys (esbuild.mjs
 * rankCountWithoutKeys): the same count as the package's, and no `Object.keys` of the table.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serialize } from 'node:v8';
import * as esbuild from 'esbuild';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const NAMES = ['o200k_base', 'cl100k_base'] as const;

interface Encoding {
  encode(text: string): number[];
  vocabularySize: number;
  default: { bytePairEncodingCoreProcessor: { bytePairRankDecoder: unknown[]; mergeableBytePairRankCount: number } };
}

const table = (e: Encoding) => e.default.bytePairEncodingCoreProcessor.bytePairRankDecoder;

/** Asserts that the encoding in `file` has the package's table (every rank) and encodes as the package does. */
function assertPackageTable(file: string, name: (typeof NAMES)[number], how: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const built = require(file) as Encoding;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require(`gpt-tokenizer/encoding/${name}`) as Encoding;
  assert.equal(built.vocabularySize, pkg.vocabularySize, `${name}, ${how}`);
  assert.ok(table(pkg).length > 100_000, name);
  assert.equal(table(built).length, table(pkg).length, `${name}, ${how}`);
  const count = (e: Encoding) => e.default.bytePairEncodingCoreProcessor.mergeableBytePairRankCount;
  assert.equal(count(built), count(pkg), `${name}, ${how}: the table's entry count`);
  for (let rank = 0; rank < table(pkg).length; rank++) {
    const a = JSON.stringify(table(built)[rank]);
    const b = JSON.stringify(table(pkg)[rank]);
    if (a !== b) assert.fail(`${name}, ${how}: rank ${rank} is ${a} in the built file, ${b} in the package`);
  }
  const text = 'A cart total in cents — 購物車的總額 🙂 const x = 1;\n\t  https://example.com/a?b=c';
  assert.deepEqual(built.encode(text), pkg.encode(text), `${name}, ${how}`);
}

describe('build: the tokenizer files', function () {
  this.timeout(300_000);
  after(cleanupTempDirs);
  let dist = '';

  before(async () => {
    const { tokenizersBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { tokenizersBuild: esbuild.BuildOptions };
    dist = tempDir('handoff-tokenizers-');
    await esbuild.build({ ...tokenizersBuild, absWorkingDir: ROOT, outdir: dist, logLevel: 'error' });
  });

  /** A copy of the built folder (a fresh path: require caches by path), changed by `change`. */
  const copy = (change: (dir: string, name: string) => void): string => {
    const dir = tempDir('handoff-tokenizers-copy-');
    cpSync(dist, dir, { recursive: true });
    for (const name of NAMES) change(dir, name);
    return dir;
  };

  it("read the package's table from the V8 file alone", () => {
    const dir = copy((d, name) => rmSync(path.join(d, `${name}.ranks.json`)));
    for (const name of NAMES) {
      assert.match(readFileSync(path.join(dir, `${name}.js`), 'utf8'), /deserialize\(/, `${name}: the V8 file is read`);
      assertPackageTable(path.join(dir, `${name}.js`), name, 'V8 file');
    }
  });

  it("count the table's entries without listing its keys (esbuild.mjs rankCountWithoutKeys)", () => {
    const dir = copy(() => undefined);
    const keys = Object.keys;
    const listed: number[] = [];
    Object.keys = (o: object) => {
      if (Array.isArray(o) && o.length > 100_000) listed.push(o.length);
      return keys(o);
    };
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded while Object.keys is watched
      for (const name of NAMES) require(path.join(dir, `${name}.js`));
    } finally {
      Object.keys = keys;
    }
    assert.deepEqual(listed, [], 'Object.keys of a rank table while loading the built files');
    for (const name of NAMES) assertPackageTable(path.join(dir, `${name}.js`), name, 'counted without keys');
  });

  const fallbacks: Array<[string, (file: string) => void]> = [
    // 0xFF then the format version: a version far past any V8's is refused as unsupported.
    ['a V8 format this V8 does not read', (f) => writeFileSync(f, Buffer.concat([Buffer.from([0xff, 0x7f]), readFileSync(f).subarray(2)]))],
    ['a damaged V8 file', (f) => writeFileSync(f, readFileSync(f).subarray(0, 1000))],
    ['a V8 file of another table', (f) => writeFileSync(f, serialize(['a', 'b']))],
    ['no V8 file', (f) => rmSync(f)],
  ];
  for (const [what, change] of fallbacks) {
    it(`read the package's table from the JSON given ${what}`, () => {
      const dir = copy((d, name) => change(path.join(d, `${name}.ranks.v8`)));
      for (const name of NAMES) {
        assert.match(readFileSync(path.join(dir, `${name}.js`), 'utf8'), /JSON\.parse\(/, `${name}: the JSON is the fallback`);
        assertPackageTable(path.join(dir, `${name}.js`), name, what);
      }
    });
  }
});
