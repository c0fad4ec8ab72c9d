/**
 * splitNulFields decodes output that is valid UTF-8 once and splits it as text (issue 19);
 * it must give exactly what decoding each field on its own gives (splitNulFieldsEach), on
 * real `git status -z` / `diff --raw --numstat -z` output and on many generated buffers.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { splitNulFields, splitNulFieldsEach } from '../../../../src/evidence/git/gitParse';
import { GIT_ENV, cleanupTempDirs, commitAll, initRepo, write } from '../../../helpers/repo';

/** Deterministic bytes (a linear congruential generator). */
function bytes(n: number, seed: number, alphabet: readonly number[]): Buffer {
  let x = seed;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = alphabet[x % alphabet.length];
  }
  return out;
}

describe('splitNulFields (one decode for valid UTF-8)', function () {
  after(cleanupTempDirs);

  it('gives the fields decoding each field gives, on real git output with unicode, space, rename and invalid-UTF-8 paths', () => {
    const dir = initRepo();
    write(dir, 'a b.txt', 'one\n');
    write(dir, 'über/ça.txt', 'deux\n');
    write(dir, 'old.txt', 'x\n'.repeat(20));
    commitAll(dir, 'base');
    write(dir, 'a b.txt', 'one\ntwo\n');
    execFileSync('git', ['mv', 'old.txt', 'new name.txt'], { cwd: dir, env: GIT_ENV });
    write(dir, '日本/ファイル.ts', 'const x = 1;\n');
    write(dir, Buffer.from([0x62, 0x61, 0x64, 0xe9, 0x2e, 0x74, 0x78, 0x74]).toString('latin1'), 'latin1 name\n');
    const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: GIT_ENV, maxBuffer: 1 << 28 });
    const outputs = [
      run('status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'),
      run('diff', '--raw', '--numstat', '-z', '--abbrev=40', 'HEAD'),
      Buffer.concat([run('status', '--porcelain=v2', '-z'), Buffer.from([0x66, 0xff, 0x00, 0x67])]),
    ];
    for (const out of outputs) {
      assert.deepEqual(splitNulFields(out), splitNulFieldsEach(out));
      assert.ok(splitNulFields(out).length > 0);
    }
  });

  it('agrees on 3,000 generated buffers: NULs anywhere (leading, doubled, trailing), multi-byte and broken sequences', () => {
    const alphabets: number[][] = [
      [0x00, 0x61, 0x20, 0x2f],
      [0x00, 0x61, 0xc3, 0xa9, 0xe2, 0x88, 0x92, 0xf0, 0x9f, 0x98, 0x80],
      [0x00, 0x00, 0x62, 0xe3, 0x81, 0x82],
      [0x00, 0x61, 0xff, 0xc0, 0x80, 0xed, 0xa0, 0x80],
    ];
    let valid = 0;
    for (let i = 0; i < 3000; i++) {
      const buf = bytes(i % 97, i + 1, alphabets[i % alphabets.length]);
      if (Buffer.from(buf.toString('utf8'), 'utf8').equals(buf)) valid++;
      assert.deepEqual(splitNulFields(buf), splitNulFieldsEach(buf), `buffer ${buf.toString('hex')}`);
    }
    assert.ok(valid > 500, `enough valid UTF-8 buffers take the one-decode path (${valid})`);
    assert.deepEqual(splitNulFields(Buffer.alloc(0)), []);
    assert.deepEqual(splitNulFields(Buffer.from('a\0\0', 'utf8')), ['a', '']);
  });
});
