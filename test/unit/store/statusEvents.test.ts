/**
 * A status change that comes with a result holds only once the result is written whole: the
 * event names the result, which is staged as `.partial.md` and promoted after the event, so a
 * writer killed in between leaves neither a result without its status nor a status without its
 * result. Events whose result never came are removed by a later change once stale.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HANDOFFS_DIR, handoffId } from '../../../src/core/handoff/naming';
import { STATUS_DIR, statusEventFileName } from '../../../src/core/handoff/statusEvents';
import { handover } from '../../../src/engine/handover/handover';
import { promoteHandoffFile, setHandoffStatus, stageHandoffFile } from '../../../src/store/handoffs/handoffStore';
import { readHandoffHead } from '../../../src/store/handoffs/handoffIndex';
import { readStatusEvents, readStatusEventsSync } from '../../../src/store/handoffs/statusEvents';
import { STALE_LEFTOVER_MS } from '../../../src/store/leftovers';
import { gatedRender } from '../../helpers/gate';
import { cleanupTempDirs, initRepo } from '../../helpers/repo';

describe('store: status events that come with a result', () => {
  after(cleanupTempDirs);

  const at = new Date('2026-06-01T10:00:00.000Z');
  const setUp = async () => {
    const ws = initRepo();
    const written = await handover(
      { specialist: 'quality_reviewer', topic: 'Status with results', summary: 'A handoff to answer.' },
      { workspaceRoot: ws, now: () => at, sessionLog: { mode: 'none' } },
    );
    assert.equal(written.status, 'ok', written.status === 'error' ? written.message : '');
    return { ws, dir: path.join(ws, '.handoff', HANDOFFS_DIR), handoff: written.status === 'ok' ? written.handoff_file : '' };
  };
  /** A result's file: its content does not matter here, only that it is written whole under its name. */
  const resultRender = gatedRender((date) => ({ name: `${handoffId(date, 'implementation_engineer')}.md`, content: '---\nkind: result\n---\n' }));
  const status = async (file: string) => (await readHandoffHead(file))?.frontmatter.status;

  it('holds once the result is promoted, not while it is .partial.md', async () => {
    const { ws, dir, handoff } = await setUp();
    assert.equal(await status(handoff), 'pending');
    const result = await stageHandoffFile(ws, dir, new Date(at.getTime() + 60_000), resultRender);
    const resultId = result.finalName.replace(/\.md$/, '');
    const set = await setHandoffStatus(handoff, 'complete', { at: new Date(at.getTime() + 60_000).toISOString(), session_id: 's-1', result_id: resultId });
    assert.ok(set.ok && set.change?.to === 'complete');
    // The event is on disk, but its result is not written yet: nothing changed for a reader.
    assert.equal(readdirSync(path.join(ws, '.handoff', STATUS_DIR, path.basename(handoff, '.md'))).length, 1);
    assert.deepEqual(await readStatusEvents(handoff), []);
    assert.deepEqual(readStatusEventsSync(handoff), []);
    assert.equal(await status(handoff), 'pending');

    await promoteHandoffFile(result);
    const events = await readStatusEvents(handoff);
    assert.deepEqual(
      events.map((e) => [e.event.from, e.event.to, e.event.result_id]),
      [['pending', 'complete', resultId]],
    );
    assert.deepEqual(readStatusEventsSync(handoff), events);
    assert.equal(await status(handoff), 'complete');
  });

  it('a change whose result never came: not applied, and removed by a later change once stale', async () => {
    const { ws, handoff } = await setUp();
    const folder = path.join(ws, '.handoff', STATUS_DIR, path.basename(handoff, '.md'));
    const missing = handoffId(new Date(at.getTime() + 1000), 'implementation_engineer');
    const stale = await setHandoffStatus(handoff, 'blocked', { at: new Date(at.getTime() + 1000).toISOString(), session_id: 's-1', result_id: missing });
    assert.ok(stale.ok);
    const [staleName] = readdirSync(folder);
    // The stale event's name carries its time: ten minutes and more before the next change.
    const old = new Date(Date.now() - STALE_LEFTOVER_MS - 60_000);
    const renamed = statusEventFileName(old, 'abcdef01');
    writeFileSync(path.join(folder, renamed), readFileSync(path.join(folder, staleName)));
    rmSync(path.join(folder, staleName));
    utimesSync(path.join(folder, renamed), old, old);
    // A fresh one whose writer may still be promoting its result.
    const fresh = await setHandoffStatus(handoff, 'in_progress', {
      at: new Date().toISOString(),
      session_id: 's-2',
      result_id: handoffId(new Date(), 'implementation_engineer'),
    });
    assert.ok(fresh.ok && fresh.change?.from === 'pending', 'the stale change did not count as the current status');
    assert.equal(await status(handoff), 'pending');

    const plain = await setHandoffStatus(handoff, 'accepted', { at: new Date().toISOString(), session_id: 's-3' });
    assert.ok(plain.ok && plain.change?.from === 'pending');
    assert.equal(await status(handoff), 'accepted');
    const left = readdirSync(folder);
    assert.ok(!left.includes(renamed), 'the stale event whose result never came is gone');
    assert.equal(left.length, 2, 'the fresh one and the plain change stay');
    assert.ok(existsSync(handoff));
  });
});
