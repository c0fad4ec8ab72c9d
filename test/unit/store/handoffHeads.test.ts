/**
 * Heads of handoff files in bulk (src/store/handoffs/handoffHeads.ts) and the timeline's
 * chain links read from them, against the full parse (readHandoffHead: the whole
 * frontmatter through the yaml library, status events applied), on real handoffs, results
 * and status changes the engine writes in a temporary git repository, and files that are
 * not what they should be.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { editFrontmatter } from '../../../src/core/handoff/frontmatter';
import { HandoffHeadSchema, readHead } from '../../../src/core/handoff/frontmatterHead';
import { STATUS_DIR } from '../../../src/core/handoff/statusEvents';
import type { HandoverOk } from '../../../src/core/handoff/schema';
import { handover } from '../../../src/engine/handover/handover';
import { markPartial, setHandoffStatus } from '../../../src/engine/handover/handoffFiles';
import { recordResult } from '../../../src/engine/receive/recordResult';
import { readTimeline } from '../../../src/engine/timeline/timeline';
import { openProject } from '../../../src/engine/project/project';
import {
  HEAD_FIRST_READ_BYTES,
  SLOW_HEAD_READS,
  forEachHeadText,
  headReadBuffers,
  listStatusFolders,
  readHandoffHeadFields,
  readHandoffHeads,
  readHeadText,
  readHeadTextSync,
  readHeadsListed,
} from '../../../src/store/handoffs/handoffHeads';
import { FRONTMATTER_READ_BYTES, listHandoffFiles, readHandoffHead } from '../../../src/store/handoffs/handoffIndex';
import { listTimelineFiles, readChainInfo, readChainInfos } from '../../../src/store/handoffs/timelineFiles';
import { readStatusEvents, readStatusEventsSync } from '../../../src/store/handoffs/statusEvents';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

const at = (minute: number) => new Date(Date.parse('2026-05-26T10:00:00.000Z') + minute * 60_000);

async function written(ws: string, input: Record<string, unknown>, minute: number): Promise<HandoverOk> {
  const r = await handover(input, { workspaceRoot: ws, sessionLog: { mode: 'none' }, now: () => at(minute), sessionId: `session-${minute}` });
  assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
  return r as HandoverOk;
}

/** The head and chain links as the full parse gives them: readHandoffHead (yaml library, whole schema, events applied). */
async function fullHead(file: string) {
  const h = await readHandoffHead(file);
  return h && HandoffHeadSchema.parse(h.frontmatter);
}

describe('handoff heads in bulk (src/store/handoffs/handoffHeads.ts)', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('reads what the full parse reads from real handoffs, results and status events, with one status/ listing', async () => {
    const ws = initRepo(tempDir('handoff-heads-'));
    write(ws, 'a.ts', 'export const a = 1;\n');
    commitAll(ws, 'initial');
    const titles = ['Auth: refresh "tokens" #2', "it's yes/no: null ~ 1e3", '日本語のトピック', '  leading spaces', 'yes', 'null', '1e3'];
    const made: HandoverOk[] = [];
    for (const [k, topic_title] of titles.entries()) {
      made.push(
        await written(
          ws,
          {
            specialist: k % 2 ? 'implementation_engineer' : 'quality_reviewer',
            topic: topic_title,
            summary: `S ${k}: a "quoted" summary`,
            parent: k > 0 ? 'latest' : undefined,
            handover_reason: k === 3 ? 'two\nlines: # not a comment' : '',
            from: k === 4 ? 'no' : 'developer',
            hop_guard_confirmed: true,
          },
          k,
        ),
      );
    }
    // A hand-back of the last handoff (a result, status events on the handoff), a person's status change, a partial mark.
    const back = await recordResult(
      { specialist: made[6].package.specialist, summary: 'Done: all of it.', criteria_met: 'all' },
      { workspaceRoot: ws, now: () => at(20), sessionId: 'session-back', sessionLog: { mode: 'none' } },
    );
    assert.equal(back.status, 'ok', JSON.stringify(back).slice(0, 300));
    assert.ok((await setHandoffStatus(made[1].handoff_file, 'blocked', { at: at(21).toISOString(), session_id: 'person' })).ok);
    await markPartial(made[2].handoff_file);
    // A change edited into the frontmatter before events existed, then an event after it.
    const legacy = editFrontmatter(readFileSync(made[0].handoff_file, 'utf8'), (doc) => {
      doc.set('status', 'accepted');
      doc.set('status_history', [{ from: 'pending', to: 'accepted', at: at(30).toISOString(), session_id: 'old' }]);
    });
    assert.ok(legacy.ok);
    writeFileSync(made[0].handoff_file, legacy.text);
    assert.ok((await setHandoffStatus(made[0].handoff_file, 'complete', { at: at(31).toISOString(), session_id: 'now' })).ok);

    const root = path.join(ws, '.handoff');
    const files = (await listHandoffFiles(path.join(root, 'handoffs'))).map((f) => f.path);
    assert.ok(files.length > titles.length, 'seven handoffs and the results');
    const heads = await readHandoffHeads(files);
    const listed = await readHeadsListed(files, await listStatusFolders(root));
    const pooled = await readHeadsListed(files, await listStatusFolders(root), { slowReadMs: -1 });
    for (const [k, file] of files.entries()) {
      assert.deepStrictEqual(listed[k], heads[k], `${path.basename(file)}: the bulk reader of one handoff root reads the same`);
      assert.deepStrictEqual(pooled[k], heads[k], `${path.basename(file)}: the bulk reader on its thread-pool path reads the same`);
      assert.deepStrictEqual(readStatusEventsSync(file), await readStatusEvents(file), `${path.basename(file)}: the status events read synchronously`);
      assert.deepStrictEqual(heads[k], await fullHead(file), path.basename(file));
      assert.deepStrictEqual(await readHandoffHeadFields(file), heads[k], 'one file alone reads the same');
    }
    const paths = await Promise.all(files.map(async (f) => readHead((await readHeadText(f))!).path));
    assert.ok(paths.filter((p) => p === 'fast').length >= titles.length - 1, `the engine's files take the fast path: ${paths.join(' ')}`);
    const byId = new Map(heads.map((h) => [h!.id, h!]));
    assert.equal(byId.get(made[0].package.id)?.status, 'complete', 'the frontmatter change, then the event');
    assert.deepEqual(
      byId
        .get(made[0].package.id)
        ?.status_history.slice(-2)
        .map((c) => c.to),
      ['accepted', 'complete'],
    );
    assert.equal(byId.get(made[1].package.id)?.status, 'blocked');
    assert.equal(byId.get(made[6].package.id)?.status, 'complete', 'the result set it');
    assert.equal(heads.filter((h) => h?.kind === 'result').length, files.length - titles.length);

    // Chain links: the bulk read, one file at a time, and the old reading (the full parse) agree.
    const { files: timeline } = await listTimelineFiles(ws, root, []);
    const bulk = await readChainInfos(timeline, root);
    for (const [k, f] of timeline.entries()) {
      const full = f.source === 'handoff' ? await fullHead(f.path) : undefined;
      const last = full?.status_history.at(-1)?.at;
      const want = full && {
        id: full.id,
        root_id: full.root_id,
        parent_id: full.parent_id,
        status: full.status,
        topic: full.topic_title || full.topic,
        hop: full.hop,
        kind: full.kind,
        ...(last ? { status_at: last } : {}),
      };
      assert.deepStrictEqual(bulk[k], want, f.name);
      assert.deepStrictEqual(await readChainInfo(f), want, `${f.name} alone`);
    }
    const opened = await openProject({ workspaceRoot: ws });
    assert.ok(opened.ok);
    const tl = await readTimeline(opened.project);
    assert.equal(tl.info.size, timeline.length, 'readTimeline reads them in bulk too');

    // The listing decides which handoffs are looked into: taken before the first event, the blocked one reads as its frontmatter says.
    const listing = await listStatusFolders(root);
    assert.ok(listing.ids?.has(made[1].package.id));
    const before = { root, ids: new Set<string>() };
    assert.equal((await readHandoffHeadFields(made[1].handoff_file, before))?.status, 'pending');
    assert.equal((await readHandoffHeadFields(made[1].handoff_file, listing))?.status, 'blocked');
    assert.deepEqual(await listStatusFolders(path.join(ws, 'nowhere')), { root: path.join(ws, 'nowhere'), ids: new Set() });
    assert.deepEqual([...(listing.ids ?? [])].sort(), readdirSync(path.join(root, STATUS_DIR)).sort());

    // Event files that are not events (too big, a folder, bad JSON, a link): skipped the same way by both readers.
    const events = path.join(root, STATUS_DIR, made[1].package.id);
    const [first] = readdirSync(events);
    writeFileSync(path.join(events, '9999-big.json'), ' '.repeat(5000) + readFileSync(path.join(events, first), 'utf8'));
    mkdirSync(path.join(events, '9998-folder.json'));
    writeFileSync(path.join(events, '9997-bad.json'), '{');
    symlinkSync(path.join(events, first), path.join(events, '9996-link.json'));
    assert.equal((await readStatusEvents(made[1].handoff_file)).length, 1);
    assert.deepStrictEqual(readStatusEventsSync(made[1].handoff_file), await readStatusEvents(made[1].handoff_file));
  });

  it('reads past the first 8 KiB only while the frontmatter is open, up to 256 KiB; files that are not regular are none', async () => {
    const ws = initRepo(tempDir('handoff-heads-'));
    const r = await written(ws, { specialist: 'quality_reviewer', topic: 'big' }, 0);
    const dir = path.dirname(r.handoff_file);
    const text = readFileSync(r.handoff_file, 'utf8');
    const withKey = (bytes: number) => text.replace(/^history_file: .*$/m, (line) => `${line}\nnotes: ${'n'.repeat(bytes)}`);
    const cases: Record<string, string> = {
      'a-small.md': text,
      'b-over-8k.md': withKey(HEAD_FIRST_READ_BYTES * 2),
      'c-fence-at-8k.md': withKey(HEAD_FIRST_READ_BYTES - text.indexOf('\n---\n', 4) - 14),
      'd-over-256k.md': withKey(FRONTMATTER_READ_BYTES),
      'e-empty.md': '',
      'f-no-frontmatter.md': '# Just a note\n',
      'g-unclosed.md': `---\nschema: 1\n${'x: y\n'.repeat(3000)}`,
      'h-multibyte-at-8k.md': withKey(0).replace(/^notes: $/m, `notes: ${'é'.repeat(HEAD_FIRST_READ_BYTES)}`),
    };
    for (const [name, content] of Object.entries(cases)) writeFileSync(path.join(dir, name), content);
    mkdirSync(path.join(dir, 'i-folder.md'));
    execFileSync('mkfifo', [path.join(dir, 'j-fifo.md')]);
    symlinkSync(r.handoff_file, path.join(dir, 'k-link.md'));
    const names = [...Object.keys(cases), 'i-folder.md', 'j-fifo.md', 'k-link.md'];
    const heads = await readHandoffHeads(names.map((n) => path.join(dir, n)));
    const ids = heads.map((h) => h?.id ?? null);
    assert.deepEqual(ids, [r.package.id, r.package.id, r.package.id, null, null, null, null, r.package.id, null, null, null]);
    for (const [k, name] of names.entries()) {
      if (k < Object.keys(cases).length) assert.deepStrictEqual(heads[k], await fullHead(path.join(dir, name)), name);
    }
    assert.equal((await readHeadText(path.join(dir, 'b-over-8k.md')))!.length > HEAD_FIRST_READ_BYTES * 2, true, 'read on to the closing ---');
    assert.equal((await readHeadText(path.join(dir, 'd-over-256k.md')))!.length, FRONTMATTER_READ_BYTES, 'never past 256 KiB');
    assert.equal((await readHeadText(path.join(dir, 'a-small.md')))!, text, 'a small file is read whole in one read');

    // The synchronous reader (bulk reads) gives the same text as the asynchronous one, file by file, with one set of buffers for all.
    const all = names.map((n) => path.join(dir, n));
    const buffers = headReadBuffers();
    for (const [k, file] of all.entries()) assert.deepStrictEqual(readHeadTextSync(file, buffers), await readHeadText(file), names[k]);
    // The bulk driver, on its synchronous path and (every read counted slow) its thread-pool path after SLOW_HEAD_READS reads: the same texts, in order.
    const many = Array.from({ length: 3 }, () => all).flat();
    const want = await Promise.all(many.map((f) => readHeadText(f)));
    for (const slowReadMs of [undefined, -1]) {
      const got: Array<[number, string | undefined]> = [];
      await forEachHeadText(many, (k, t) => got.push([k, t]), slowReadMs);
      assert.deepStrictEqual(
        got.sort((a, b) => a[0] - b[0]),
        want.map((t, k) => [k, t]),
        `slowReadMs ${slowReadMs}`,
      );
    }
    assert.ok(many.length > SLOW_HEAD_READS * 2, 'the pool path reads some of them');
    // The bulk heads read as one file at a time does, with and without a listing.
    for (const listing of [undefined, await listStatusFolders(path.join(ws, '.handoff'))]) {
      const bulk = await readHeadsListed(all, listing);
      for (const [k, file] of all.entries()) assert.deepStrictEqual(bulk[k], await readHandoffHeadFields(file, listing), names[k]);
    }
  });
});
