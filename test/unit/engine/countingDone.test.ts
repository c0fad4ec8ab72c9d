/**
 * Issue 19: `JobContext.onCountingDone` (src/engine/handover/handover.ts) is called once, when
 * the handoff will count no more tokens — after the package is measured and fitted and its
 * history file written, before the briefing is written — so the CLI can end its tokenizer's
 * worker thread while the files are written. A real git repository, a handoff cut to its budget
 * (it has a history file), and the CLI's own release (src/engine/tokenizers/tokenizer.ts `releaseEncodings`)
 * on a worker-backed encoding: the handoff is the same as one written without the callback.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BRIEFINGS_DIR, HANDOFFS_DIR, HISTORY_DIR } from '../../../src/core/handoff/naming';
import { handover } from '../../../src/engine/handover/handover';
import { preloadEncoding, releaseEncodings } from '../../../src/engine/tokenizers/tokenizer';
import { cleanupTempDirs, commitAll, filesUnder, initRepo, tempDir, write } from '../../helpers/repo';

/** The files under `dir` (relative, `/`-separated, sorted; test/helpers/repo.ts `filesUnder`), or none when it does not exist. */
function namesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return filesUnder(dir)
    .map((f) => path.relative(dir, f.file).split(path.sep).join('/'))
    .sort();
}

describe('engine: onCountingDone, when a handoff counts no more tokens', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('is called once, after the history file and before the briefing; releasing the worker then changes nothing written', async () => {
    const written: string[] = [];
    // One repository, copied: both handoffs see the same commits (a commit's hash is counted
    // too, and two repositories made a moment apart have other hashes, other token counts).
    const original = initRepo();
    write(original, 'src/cart.ts', 'export const total = (items: number[]) => items.reduce((a, b) => a + b, 0);\n');
    commitAll(original, 'cart');
    write(original, 'src/cart.ts', 'export const total = (items: number[]) => items.reduce((a, b) => a + b, 0) / 100;\n');
    for (const release of [false, true]) {
      const ws = path.join(tempDir('handoff-counting-done-'), 'repo');
      cpSync(original, ws, { recursive: true });
      const root = path.join(ws, '.handoff');
      const seen: Array<{ handoffs: string[]; history: string[]; briefings: string[] }> = [];
      if (release) preloadEncoding('o200k_base');
      const result = await handover(
        {
          specialist: 'quality_reviewer',
          topic: 'cart totals in cents',
          // Far over a 300-token budget: the package is cut and the history file keeps the whole.
          summary: Array.from({ length: 60 }, (_, i) => `Step ${i + 1}: the cart total is kept in cents and rounded once, at display time.`).join(' '),
          max_context_tokens: 300,
        },
        {
          workspaceRoot: ws,
          now: () => new Date('2026-12-03T10:00:00.000Z'),
          sessionId: 'counting-done',
          onCountingDone: () => {
            seen.push({
              handoffs: namesUnder(path.join(root, HANDOFFS_DIR)),
              history: namesUnder(path.join(root, HISTORY_DIR)),
              briefings: namesUnder(path.join(root, BRIEFINGS_DIR)),
            });
            if (release) releaseEncodings();
          },
        },
      );
      assert.equal(result.status, 'ok', JSON.stringify(result));
      if (result.status !== 'ok') return;
      assert.equal(seen.length, 1, 'called once');
      const id = path.basename(result.handoff_file, '.md');
      assert.deepEqual(seen[0].handoffs, [`${id}.partial.md`], 'the handoff was staged, not yet complete');
      assert.deepEqual(seen[0].history, [`${id}.md`], 'the history file was written');
      assert.deepEqual(seen[0].briefings, [], 'no briefing yet');
      assert.ok(result.package.dropped.length > 0, 'the package was cut');
      written.push(readFileSync(result.handoff_file, 'utf8'));
    }
    assert.equal(written[1], written[0], 'the same handoff with and without the release');
  });
});
