import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { forEachLine } from '../../../../src/evidence/session/lines';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

/** A small deterministic generator (a linear congruential one), so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

interface Seen {
  lines: { text: string; offset: number; partial: boolean }[];
  endOffset: number;
  stats: unknown;
}

/**
 * What forEachLine must report, from the whole file read at once: each line from `from` on (its
 * text decoded as UTF-8 with U+FFFD, a final "\r" dropped), where it starts, whether it is the
 * unterminated last one; lines over `max` bytes skipped; a partial last line the reader refuses
 * left for next time.
 */
function reference(bytes: Buffer, from: number, max: number, refusePartial: boolean): Seen {
  const stats = { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 };
  const lines: Seen['lines'] = [];
  let start = from;
  let endOffset = bytes.length;
  while (start < bytes.length) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl;
    const piece = bytes.subarray(start, end);
    stats.lines++;
    if (piece.length > max) {
      stats.skipped++;
      if (nl < 0) endOffset = start;
    } else {
      let text = new TextDecoder('utf-8', { fatal: false }).decode(piece);
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(piece);
      } catch {
        stats.invalid_utf8++;
      }
      if (text.endsWith('\r')) text = text.slice(0, -1);
      lines.push({ text, offset: start, partial: nl < 0 });
      if (nl < 0 && refusePartial) {
        stats.malformed++;
        endOffset = start;
      }
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  return { lines, endOffset, stats };
}

describe('forEachLine: one reused read buffer, the same lines as reading the file whole (issue 19)', () => {
  after(cleanupTempDirs);

  it('lines across 256 KiB reads, CRLF, invalid UTF-8, multi-byte characters at read edges, over-long and unterminated lines', async () => {
    const dir = tempDir('lines-');
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const parts: Buffer[] = [];
      let size = 0;
      while (size < 900_000) {
        const r = next();
        const len = r < 0.6 ? Math.floor(next() * 200) : r < 0.9 ? Math.floor(next() * 40_000) : Math.floor(next() * 400_000);
        const unit = next() < 0.3 ? 'é€😀' : 'line ';
        let piece = Buffer.from(unit.repeat(Math.ceil(len / unit.length)).slice(0, len));
        if (next() < 0.05) piece = Buffer.concat([piece, Buffer.from([0xff, 0xc3])]);
        if (next() < 0.2) piece = Buffer.concat([piece, Buffer.from('\r')]);
        parts.push(piece, Buffer.from('\n'));
        size += piece.length + 1;
      }
      if (seed % 2 === 0) parts.push(Buffer.from('unterminated {"half": '));
      const file = path.join(dir, `t${seed}.log`);
      writeFileSync(file, Buffer.concat(parts));
      const bytes = readFileSync(file);
      const from = seed % 3 === 0 ? bytes.indexOf(10, 300_000) + 1 : 0;
      const max = seed % 4 === 0 ? 30_000 : 16 * 1024 * 1024;
      const refuse = seed % 5 !== 0;
      const lines: Seen['lines'] = [];
      const got = await forEachLine(
        file,
        from,
        (text, info) => {
          lines.push({ text, offset: info.offset, partial: info.partial });
          return !(info.partial && refuse);
        },
        max,
      );
      const want = reference(bytes, from, max, refuse);
      assert.equal(lines.length, want.lines.length, `seed ${seed}: line count`);
      for (let i = 0; i < lines.length; i++) assert.deepEqual(lines[i], want.lines[i], `seed ${seed}: line ${i}`);
      assert.equal(got.endOffset, want.endOffset, `seed ${seed}: end offset`);
      assert.deepEqual(got.stats, want.stats, `seed ${seed}: stats`);
    }
  });
});
