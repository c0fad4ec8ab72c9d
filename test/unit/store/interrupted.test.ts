/**
 * A handoff whose writer was killed after its briefing section was written and before its
 * rename to `<id>.md` is completed by the next writer, so no briefing section names a handoff
 * that is only `.partial.md`; one a person marked partial, or one whose section a live writer
 * still holds, stays partial.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { handover } from '../../../src/engine/handover/handover';
import { markPartial } from '../../../src/store/handoffs/handoffStore';
import { completeInterruptedHandoffs } from '../../../src/store/handoffs/interrupted';
import { readHandoffHead } from '../../../src/store/handoffs/handoffIndex';
import { withFileLock } from '../../../src/store/fileLock';
import { cleanupTempDirs, initRepo } from '../../helpers/repo';

describe('store: handoffs interrupted after their briefing section', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  /** A workspace with one handoff written, then put back to how a writer killed before its rename leaves it. */
  const interrupted = async () => {
    const ws = initRepo();
    const r = await handover(
      { specialist: 'quality_reviewer', topic: 'Interrupted', summary: 'Written whole, not renamed.' },
      { workspaceRoot: ws, sessionLog: { mode: 'none' } },
    );
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    const file = r.status === 'ok' ? r.handoff_file : '';
    const partial = file.replace(/\.md$/, '.partial.md');
    renameSync(file, partial);
    const section = r.status === 'ok' ? r.briefing.path : '';
    assert.ok(existsSync(section), 'its briefing section is written');
    return { ws, file, partial, section, dir: path.dirname(file) };
  };

  it('the next handover completes it: the section names a handoff that is there', async () => {
    const { ws, file, partial } = await interrupted();
    const next = await handover(
      { specialist: 'quality_reviewer', topic: 'Next', summary: 'The next writer.' },
      { workspaceRoot: ws, sessionLog: { mode: 'none' } },
    );
    assert.equal(next.status, 'ok', next.status === 'error' ? next.message : '');
    assert.ok(existsSync(file), 'completed under its own name');
    assert.ok(!existsSync(partial));
    assert.equal((await readHandoffHead(file))?.frontmatter.status, 'pending');
  });

  it('a handoff a person marked partial stays partial', async () => {
    const { ws, file, partial, dir } = await interrupted();
    renameSync(partial, file);
    assert.equal(await markPartial(file), partial);
    assert.equal((await readHandoffHead(partial))?.frontmatter.status, 'partial', 'the mark is a status event');
    assert.deepEqual(await completeInterruptedHandoffs(path.join(ws, '.handoff'), dir), []);
    assert.ok(existsSync(partial) && !existsSync(file));
  });

  it('one whose section a live writer holds is left to that writer', async () => {
    const { ws, file, partial, section, dir } = await interrupted();
    await withFileLock(section, async () => {
      assert.deepEqual(await completeInterruptedHandoffs(path.join(ws, '.handoff'), dir), []);
      assert.ok(existsSync(partial));
    });
    assert.deepEqual(await completeInterruptedHandoffs(path.join(ws, '.handoff'), dir), [path.basename(file)]);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.partial.md')),
      [],
    );
  });

  it('one interrupted before its section was written stays partial', async () => {
    const { ws, partial, section, dir } = await interrupted();
    rmSync(section);
    assert.deepEqual(await completeInterruptedHandoffs(path.join(ws, '.handoff'), dir), []);
    assert.ok(existsSync(partial));
  });
});
