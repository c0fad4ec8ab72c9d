/**
 * Issue 19: the touched-file list of a rendering is joined once and reused for the same
 * entries or a first part of them (src/core/handoff/touchedList.ts). The old path joined
 * `files.map(renderTouchedFile)` every time; on a long random sequence of lists — the full
 * list, its prefixes, copies, lists sharing some entries, longer lists, edited copies — the
 * text must be exactly what the old path gives.
 */
import assert from 'node:assert/strict';
import { renderTouchedFile } from '../../../../src/core/handoff/render';
import type { TouchedFile } from '../../../../src/core/handoff/schema';
import { touchedList } from '../../../../src/core/handoff/touchedList';

/** Deterministic pseudo-random integers (a linear congruential generator). */
function rng(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % n;
  };
}

function entry(i: number, r: (n: number) => number): TouchedFile {
  const status = (['M', 'A', 'D', 'R', '?', 'U'] as const)[r(6)];
  return {
    path: `pkg${r(50)}/sub ${r(7)}/module ${i}${r(4) === 0 ? ' `tick`' : ''}.ts`,
    status,
    old_path: status === 'R' ? `old/module ${i}.ts` : null,
    added: r(5) === 0 ? null : r(300),
    deleted: r(5) === 0 ? null : r(300),
    binary: r(20) === 0,
    ...(r(30) === 0 ? { submodule: { from: 'a'.repeat(40), to: null, dirty: r(2) === 0 } } : {}),
  } as TouchedFile;
}

const oldList = (files: readonly TouchedFile[]) => files.map(renderTouchedFile).join('\n');

describe('touched-file list, joined once (differential against joining every time)', function () {
  this.timeout(20_000);
  it('gives the old text on 600 lists drawn from prefixes, copies, shared and edited entries', () => {
    const r = rng(7);
    let base = Array.from({ length: 300 }, (_, i) => entry(i, r));
    for (let step = 0; step < 600; step++) {
      let files: TouchedFile[];
      switch (r(7)) {
        case 0:
          files = base;
          break;
        case 1:
        case 2:
          files = base.slice(0, 1 + r(base.length)); // a first part, as fit-to-budget cuts it
          break;
        case 3:
          files = [...base]; // another array, the same entries
          break;
        case 4:
          files = base.slice(r(10), r(base.length) + 1); // not a first part
          break;
        case 5: {
          files = [...base];
          const k = r(files.length);
          files[k] = { ...files[k], added: (files[k].added ?? 0) + 1 }; // one entry replaced
          break;
        }
        default:
          base = [...base, ...Array.from({ length: 1 + r(8) }, (_, i) => entry(1000 + step * 50 + i, r))]; // a longer list
          files = r(2) ? base : base.slice(0, base.length - r(20));
      }
      if (files.length === 0) continue;
      assert.equal(touchedList(files), oldList(files), `step ${step} (${files.length} entries)`);
    }
  });

  it('gives the old text for every first part of a list, asked between other lists', () => {
    const r = rng(11);
    const files = Array.from({ length: 120 }, (_, i) => entry(i, r));
    const other = Array.from({ length: 60 }, (_, i) => entry(500 + i, r));
    for (let k = files.length; k >= 1; k -= 7) {
      touchedList(k % 2 ? other : files);
      const text = touchedList(files.slice(0, k));
      assert.equal(text, oldList(files.slice(0, k)));
    }
  });
});
