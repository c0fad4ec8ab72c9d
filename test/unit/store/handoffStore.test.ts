import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { handoffFileName, parseHandoffFileName } from '../../../src/core/handoff/naming';
import { appendBriefing, createHandoffFile } from '../../../src/store/handoffs/handoffStore';
import { createExclusive } from '../../../src/store/safeWrite';
import { listHandoffFiles, readLatestHandoff } from '../../../src/store/handoffs/handoffIndex';
import { checkRealPathInside, resolveHandoffRoot, resolveInside, unsafeNameReason } from '../../../src/store/pathGuard';
import { cleanupTempDirs, tempDir } from '../../helpers/repo';
import { gated, gatedRender } from '../../helpers/gate';

describe('store: file names', () => {
  it('names handoffs with ISO time (":" → "-") and the specialist; lexicographic = chronological', () => {
    const d = new Date('2026-05-26T14:30:45.123Z');
    assert.equal(handoffFileName(d, 'quality_reviewer'), '2026-05-26T14-30-45.123Z_quality_reviewer.md');
    const names = [new Date('2026-05-26T14:30:45.999Z'), new Date('2026-05-26T14:30:46.000Z'), new Date('2027-01-01T00:00:00.000Z')].map((x) =>
      handoffFileName(x, 'a'),
    );
    assert.deepEqual([...names].sort(), names);
    assert.ok(!names.some((n) => n.includes(':')));
  });

  it('reads names with and without milliseconds, and partial names', () => {
    assert.deepEqual(parseHandoffFileName('2026-05-26T14-30-45Z_researcher.md'), {
      id: '2026-05-26T14-30-45Z_researcher',
      time: Date.parse('2026-05-26T14:30:45Z'),
      specialist: 'researcher',
      partial: false,
    });
    assert.equal(parseHandoffFileName('2026-05-26T15-12-00Z_implementer.partial.md')?.partial, true);
    assert.equal(parseHandoffFileName('2026-05-26T14-30-45.123Z_quality_reviewer.md')?.time, Date.parse('2026-05-26T14:30:45.123Z'));
    for (const bad of ['notes.md', '.2026-05-26T14-30-45.123Z_x.md.1.tmp', '2026-13-99T99-99-99Z_x.md', '2026-05-26T14-30-45Z_../x.md']) {
      assert.equal(parseHandoffFileName(bad), undefined, bad);
    }
  });
});

describe('store: path guard', () => {
  after(cleanupTempDirs);

  it('resolves handoff.directory inside the workspace', () => {
    const ws = '/work/space';
    assert.deepEqual(resolveHandoffRoot(ws, undefined), { ok: true, path: '/work/space/.handoff' });
    assert.deepEqual(resolveHandoffRoot(ws, 'docs/handoffs'), { ok: true, path: '/work/space/docs/handoffs' });
    assert.deepEqual(resolveHandoffRoot(ws, './x/'), { ok: true, path: '/work/space/x' });
  });

  it('refuses handoff.directory values that lead outside or are unsafe', () => {
    for (const bad of ['../outside', 'a/../../b', '/etc', 'C:\\x', 'c:x', '\\\\server\\share', '.', 'x\0y', 'CON', 'a/nul.txt', 'x:y', 'trailing. ', '..']) {
      const r = resolveHandoffRoot('/work/space', bad);
      assert.equal(r.ok, false, bad);
      assert.match(!r.ok ? r.message : '', /^ERROR: handoff\.directory .* set "handoff\.directory" to a folder inside the workspace/, bad);
    }
  });

  it('refuses names that would leave the folder or are unsafe on some OS', () => {
    for (const bad of ['..', '../x', 'a/b', 'a\\b', '/abs', 'x\0', 'con.md', 'LPT1', 'a:b.md', 'name.', 'name ', '', 'x'.repeat(256)]) {
      const r = resolveInside('/root', bad);
      assert.equal(r.ok, false, bad);
      assert.ok(unsafeNameReason(bad), bad);
    }
    assert.deepEqual(resolveInside('/root', 'handoffs', 'a.md'), { ok: true, path: '/root/handoffs/a.md' });
  });

  it('refuses a .handoff that is a symlink leading out of the workspace', async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(outside, path.join(ws, '.handoff'));
    const r = await checkRealPathInside(ws, path.join(ws, '.handoff', 'handoffs', 'x.md'));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', /outside the workspace \(a symbolic link leads out\)/);
    await assert.rejects(
      createHandoffFile(
        ws,
        path.join(ws, '.handoff', 'handoffs'),
        new Date(),
        gatedRender(() => ({ name: 'x.md', content: 'x' })),
      ),
      /symbolic link leads out/,
    );
    assert.deepEqual(readdirSync(outside), [], 'nothing written outside');
  });

  it('refuses a symlinked sub-folder leading out, and allows links that stay inside', async () => {
    const ws = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(ws, '.handoff'));
    symlinkSync(outside, path.join(ws, '.handoff', 'briefings'));
    assert.equal((await checkRealPathInside(ws, path.join(ws, '.handoff', 'briefings', 'b.md'))).ok, false);
    mkdirSync(path.join(ws, 'real'));
    symlinkSync(path.join(ws, 'real'), path.join(ws, '.handoff', 'handoffs'));
    assert.equal((await checkRealPathInside(ws, path.join(ws, '.handoff', 'handoffs', 'h.md'))).ok, true);
  });
});

describe('store: writes', () => {
  after(cleanupTempDirs);

  it('creates a file exclusively and never overwrites', async () => {
    const dir = tempDir();
    const f = path.join(dir, 'a.md');
    assert.equal(await createExclusive(f, await gated('first')), true);
    assert.equal(await createExclusive(f, await gated('second')), false);
    assert.equal(readFileSync(f, 'utf8'), 'first');
    assert.deepEqual(readdirSync(dir), ['a.md'], 'no temporary file left behind');
  });

  it('a collision in the same millisecond retries with the next millisecond', async () => {
    const ws = tempDir();
    const dir = path.join(ws, '.handoff', 'handoffs');
    const at = new Date('2026-05-26T14:30:45.123Z');
    const render = (d: Date) => ({ name: handoffFileName(d, 'hacker'), content: `created for ${d.toISOString()}` });
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => createHandoffFile(ws, dir, at, gatedRender(render))));
    const names = results.map((r) => r.name).sort();
    assert.deepEqual(
      names,
      ['123', '124', '125', '126', '127'].map((ms) => `2026-05-26T14-30-45.${ms}Z_hacker.md`),
    );
    for (const r of results) {
      assert.equal(readFileSync(r.path, 'utf8'), `created for ${r.date.toISOString()}`, 'content matches its own name');
    }
    assert.equal(readdirSync(dir).length, 5);
  });

  it('appending to a briefing keeps earlier bytes identical', async () => {
    const ws = tempDir();
    const file = path.join(ws, '.handoff', 'briefings', 'hacker-x-2026-05-26.md');
    const first = await appendBriefing(ws, file, await gated('# Header\n'), await gated('\n## one\nü 日本\n'));
    assert.deepEqual({ existed: first.existed_before, created: first.newly_created }, { existed: false, created: true });
    const before = readFileSync(file);
    assert.equal(first.size_bytes, before.length);
    const second = await appendBriefing(ws, file, await gated('# A DIFFERENT HEADER\n'), await gated('\n## two\n'));
    assert.deepEqual({ existed: second.existed_before, created: second.newly_created }, { existed: true, created: false });
    const after = readFileSync(file);
    assert.deepEqual(after.subarray(0, before.length), before, 'earlier bytes unchanged');
    assert.equal(after.subarray(before.length).toString('utf8'), '\n## two\n');
    assert.equal(second.size_bytes, after.length);
    await Promise.all(Array.from({ length: 20 }, async (_, i) => appendBriefing(ws, file, await gated('# H\n'), await gated(`\n## parallel ${i}\n`))));
    const text = readFileSync(file, 'utf8');
    assert.equal(text.match(/^# /gm)?.length, 1, 'one header');
    assert.equal(text.match(/^## parallel \d+$/gm)?.length, 20);
  });

  it('a file standing where the handoffs folder should be gives a clear message naming the path', async () => {
    const ws = tempDir();
    mkdirSync(path.join(ws, '.handoff'));
    writeFileSync(path.join(ws, '.handoff', 'handoffs'), 'a file, not a folder');
    await assert.rejects(
      createHandoffFile(
        ws,
        path.join(ws, '.handoff', 'handoffs'),
        new Date(),
        gatedRender(() => ({ name: 'x.md', content: 'x' })),
      ),
      (err: Error) => err.message.startsWith('ERROR: ') && err.message.includes(path.join(ws, '.handoff', 'handoffs')),
    );
    assert.equal(readFileSync(path.join(ws, '.handoff', 'handoffs'), 'utf8'), 'a file, not a folder', 'nothing overwritten');
  });

  it('lists handoff files oldest first and reads the latest complete one', async () => {
    const ws = tempDir();
    const dir = path.join(ws, 'handoffs');
    mkdirSync(dir);
    writeFileSync(path.join(dir, '2026-05-26T14-30-45Z_researcher.md'), '---\nbroken: [\n---\n');
    writeFileSync(path.join(dir, '2026-05-27T00-00-00.000Z_hacker.partial.md'), 'partial');
    writeFileSync(path.join(dir, 'README.md'), 'not a handoff');
    const list = await listHandoffFiles(dir);
    assert.deepEqual(
      list.map((e) => e.specialist),
      ['researcher', 'hacker'],
    );
    assert.equal(await readLatestHandoff(dir), undefined, 'malformed and partial files are skipped');
    assert.deepEqual(await listHandoffFiles(path.join(ws, 'missing')), []);
    assert.equal(existsSync(path.join(ws, 'missing')), false);
  });
});
