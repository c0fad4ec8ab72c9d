/**
 * The verification files on disk (src/store/handoffs/verifications.ts, issue 18): one file
 * per verification, never overwritten, through the gate; read back oldest first, the latest
 * per handoff, and in bulk for the timeline. Real files in temporary folders.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countRechecks, judgeRecheck, type Verification } from '../../../src/core/receive/verification';
import { latestVerification, latestVerifications, readVerifications, writeVerification } from '../../../src/store/handoffs/verifications';
import { fakeSecrets } from '../../helpers/fakeSecrets';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';

const ID = '2026-12-01T09-00-00.000Z_quality_reviewer';

function verification(checkedAt: string, exit: number, id = ID, staleness: string[] = []): Verification {
  const rechecks = [
    judgeRecheck({
      kind: 'test',
      command: 'npm test',
      cwd: null,
      recorded: { result: 'ok', exit_code: 0, at: null },
      now: { exit_code: exit, timed_out: false, duration_ms: 10 },
    }),
  ];
  return {
    schema: 1,
    handoff_id: id,
    checked_at: checkedAt,
    session_id: 's1',
    ran: true,
    stale: staleness.length > 0,
    staleness,
    rechecks,
    counts: countRechecks(rechecks),
  };
}

describe('verification files (verifications/<handoff id>/<time>_<8 hex>.json)', () => {
  after(cleanupTempDirs);

  it('each verification is a new file named after its time; read back oldest first, the latest last; none for a handoff never verified', async () => {
    const root = path.join(tempDir(), '.handoff');
    mkdirSync(root);
    const first = await writeVerification(root, verification('2026-12-01T10:00:00.000Z', 0));
    const second = await writeVerification(root, verification('2026-12-01T11:00:00.000Z', 1));
    // Same time again (two checks in one millisecond, or a clock that stepped back): still sorts after.
    const third = await writeVerification(root, verification('2026-12-01T11:00:00.000Z', 0));
    assert.match(path.basename(first), /^2026-12-01T10-00-00\.000Z_[0-9a-f]{8}\.json$/);
    assert.match(path.basename(third), /^2026-12-01T11-00-00\.001Z_[0-9a-f]{8}\.json$/);
    assert.deepEqual(readdirSync(path.join(root, 'verifications', ID)).sort(), [first, second, third].map((f) => path.basename(f)).sort());
    assert.deepEqual(
      (await readVerifications(root, ID)).map((v) => v.counts.contradicted),
      [0, 1, 0],
    );
    assert.equal((await latestVerification(root, ID))?.checked_at, '2026-12-01T11:00:00.000Z');
    assert.equal((await latestVerification(root, ID))?.counts.verified, 1);
    assert.equal(await latestVerification(root, 'never_verified'), undefined);
    assert.deepEqual(await readVerifications(root, '../escape'), [], 'an id that is not one name is not read');
    assert.ok(readFileSync(path.join(root, '.gitignore'), 'utf8').includes('.*.tmp'), "the root's git files are written as for status events");
  });

  it("files that are not verifications of the handoff are skipped: bad JSON, another handoff's, a link, a wrong name", async () => {
    const root = path.join(tempDir(), '.handoff');
    mkdirSync(root);
    await writeVerification(root, verification('2026-12-01T10:00:00.000Z', 1));
    const dir = path.join(root, 'verifications', ID);
    writeFileSync(path.join(dir, '2026-12-01T12-00-00.000Z_aaaaaaaa.json'), '{"schema":1,');
    writeFileSync(path.join(dir, '2026-12-01T12-00-01.000Z_bbbbbbbb.json'), JSON.stringify(verification('2026-12-01T12:00:01.000Z', 0, 'other_handoff')));
    const outside = path.join(tempDir(), 'planted.json');
    writeFileSync(outside, JSON.stringify(verification('2026-12-01T12:00:02.000Z', 0)));
    symlinkSync(outside, path.join(dir, '2026-12-01T12-00-02.000Z_cccccccc.json'));
    writeFileSync(path.join(dir, 'zzz-latest.json'), JSON.stringify(verification('2026-12-01T13:00:00.000Z', 0)));
    assert.deepEqual(
      (await readVerifications(root, ID)).map((v) => v.checked_at),
      ['2026-12-01T10:00:00.000Z'],
    );
    assert.equal((await latestVerification(root, ID))?.counts.contradicted, 1, 'the newest readable one');
    assert.equal((await latestVerifications(root)).get(ID)?.counts.contradicted, 1);
  });

  it('in bulk: the latest of every verified handoff from one listing of verifications/; a missing folder is an empty map', async () => {
    const root = path.join(tempDir(), '.handoff');
    mkdirSync(root);
    assert.equal((await latestVerifications(root)).size, 0);
    const ids = Array.from({ length: 40 }, (_, i) => `2026-12-01T09-00-${String(i).padStart(2, '0')}.000Z_quality_reviewer`);
    for (const [i, id] of ids.entries()) {
      await writeVerification(root, verification('2026-12-01T10:00:00.000Z', 0, id));
      if (i % 2) await writeVerification(root, verification('2026-12-01T10:30:00.000Z', 1, id));
    }
    writeFileSync(path.join(root, 'verifications', 'stray.json'), '{}');
    const all = await latestVerifications(root);
    assert.deepEqual([...all.keys()].sort(), ids);
    assert.deepEqual(
      ids.map((id) => all.get(id)?.counts.contradicted),
      ids.map((_, i) => (i % 2 ? 1 : 0)),
    );
  });

  it('through the gate: a secret in what is stored (a commit subject in the staleness lines) is redacted on disk', async () => {
    const root = path.join(tempDir(), '.handoff');
    mkdirSync(root);
    const secret = fakeSecrets()[0];
    const file = await writeVerification(root, verification('2026-12-01T10:00:00.000Z', 0, ID, [`1 commit since the handoff: \`abc1234\` ${secret.line}`]));
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(secret.value), 'the secret is not on disk');
    assert.ok(text.includes(`[REDACTED:${secret.kind}]`), text);
    assert.equal((await latestVerification(root, ID))?.staleness.length, 1, 'still a valid verification');
  });
});
