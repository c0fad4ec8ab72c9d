import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { acceptanceCriteria, matchCriteria } from '../../src/core/receive/handBack';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema, type TestRun } from '../../src/core/handoff/schema';
import { changeStatus } from '../../src/core/handoff/status';
import { groupChains } from '../../src/core/timeline/chains';
import { handover } from '../../src/engine/handover/handover';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { recordResult } from '../../src/engine/receive/recordResult';
import { setHandoffStatus } from '../../src/store/handoffs/handoffStore';
import { readHandoffHead } from '../../src/store/handoffs/handoffIndex';
import { listTimelineFiles, readChainInfo } from '../../src/store/handoffs/timelineFiles';
import { EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK } from '../../src/cli/main';
import { cli, repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, commitAll, write } from '../helpers/repo';

const T0 = Date.parse('2026-11-30T10:00:00.000Z');
const at = (min: number) => () => new Date(T0 + min * 60_000);

async function handoffTo(dir: string, specialist: string, extra: Record<string, unknown> = {}, minute = 0) {
  return HandoverOkSchema.parse(
    await handover(
      { specialist, topic: 'token auth', summary: 'Did the work.', next_steps: ['Review the middleware', 'Add a test'], ...extra },
      { workspaceRoot: dir, now: at(minute), sessionId: 'session-a' },
    ),
  );
}

function read(file: string) {
  const p = parseHandoff(readFileSync(file, 'utf8'));
  assert.ok(p.ok, p.ok ? '' : p.message);
  return p.handoff;
}

/** A handoff as every reader sees it: its frontmatter with its status events applied (issue 20). */
async function readWithStatus(file: string) {
  const h = await readHandoffHead(file);
  assert.ok(h, `${file} reads back`);
  return h;
}

describe('status changes (events beside the handoff; the handoff file is not edited)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('sets the status, keeps the previous one in status_history, and changes nothing in the handoff file', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'quality_reviewer');
    const before = readFileSync(h.handoff_file, 'utf8');
    const r = await setHandoffStatus(h.handoff_file, 'in_progress', { at: '2026-11-30T11:00:00.000Z', session_id: 's1' });
    assert.ok(r.ok && r.change);
    const r2 = await setHandoffStatus(h.handoff_file, 'complete', { at: '2026-11-30T12:00:00.000Z', session_id: 's2' });
    assert.ok(r2.ok);
    const after = readFileSync(h.handoff_file, 'utf8');
    const fm = (await readWithStatus(h.handoff_file)).frontmatter;
    assert.equal(fm.status, 'complete');
    assert.deepEqual(fm.status_history, [
      { from: 'pending', to: 'in_progress', at: '2026-11-30T11:00:00.000Z', session_id: 's1' },
      { from: 'in_progress', to: 'complete', at: '2026-11-30T12:00:00.000Z', session_id: 's2' },
    ]);
    // Issue 20: each change is its own event file, status/<id>/<time>_<random>.json; the handoff stays byte for byte.
    assert.equal(after, before, 'the handoff file is byte for byte the same');
    const events = readdirSync(path.join(dir, '.handoff', 'status', h.package.id));
    assert.deepEqual(
      events.map((e) => e.replace(/_[0-9a-f]{8}\.json$/, '')),
      ['2026-11-30T11-00-00.000Z', '2026-11-30T12-00-00.000Z'],
    );
    assert.deepEqual(
      readdirSync(path.dirname(h.handoff_file)).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
  });

  it('setting the same status again changes nothing; broken files are refused untouched', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'hacker');
    await setHandoffStatus(h.handoff_file, 'blocked', { at: 'now', session_id: 's' });
    const text = readFileSync(h.handoff_file, 'utf8');
    const same = await setHandoffStatus(h.handoff_file, 'blocked', { at: 'later', session_id: 's' });
    assert.ok(same.ok && same.change === null);
    assert.equal(readFileSync(h.handoff_file, 'utf8'), text);
    const broken = path.join(path.dirname(h.handoff_file), '2026-01-01T00-00-00.000Z_hacker.md');
    writeFileSync(broken, '---\nstatus: [unclosed\n---\nbody\n');
    const r = await setHandoffStatus(broken, 'complete', { at: 'now', session_id: 's' });
    assert.ok(!r.ok);
    assert.match(r.message, /^ERROR: .*not a valid handoff file.*its status was not changed/);
    assert.equal(readFileSync(broken, 'utf8'), '---\nstatus: [unclosed\n---\nbody\n');
    const missing = await setHandoffStatus(path.join(dir, 'nope.md'), 'complete', { at: 'now', session_id: 's' });
    assert.ok(!missing.ok);
    assert.equal(changeStatus('no frontmatter', 'complete', { at: 'x', session_id: 'y' }).ok, false);
  });
});

describe('hand back: record result', function () {
  this.timeout(40_000);
  after(cleanupTempDirs);

  it('acceptance criteria are the next steps, then the return condition; met by number, text or all', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'quality_reviewer');
    const criteria = acceptanceCriteria(read(h.handoff_file));
    assert.deepEqual(criteria.slice(0, 2), ['Review the middleware', 'Add a test']);
    assert.equal(criteria.length, 3);
    assert.deepEqual(
      matchCriteria(criteria, ['1', 'add a TEST', 'nonsense']).checks.map((c) => c.met),
      [true, true, false],
    );
    assert.deepEqual(matchCriteria(criteria, ['1', 'nonsense']).unknown, ['nonsense']);
    assert.ok(matchCriteria(criteria, 'all').checks.every((c) => c.met));
    // Agents send lists: ["all"] is "all" too, and no "unknown criterion" warning.
    assert.deepEqual(matchCriteria(criteria, ['All']), { checks: criteria.map((criterion) => ({ criterion, met: true })), unknown: [] });
  });

  it('writes the result entry linked to the handoff (hop + 1, same root), and sets the handoff complete', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'quality_reviewer');
    const r = await recordResult(
      { specialist: 'quality_reviewer', summary: 'Reviewed; no findings.', criteria_met: 'all' },
      { workspaceRoot: dir, now: at(5), sessionId: 'session-b' },
    );
    assert.equal(r.status, 'ok');
    assert.ok(r.status === 'ok');
    assert.equal(r.entries.length, 1);
    const e = r.entries[0];
    assert.equal(e.status, 'complete');
    assert.equal(e.handoff_id, h.package.id);
    const result = read(e.result_file);
    assert.equal(result.frontmatter.kind, 'result');
    assert.equal(result.frontmatter.status, 'complete');
    assert.equal(result.frontmatter.parent_id, h.package.id);
    assert.equal(result.frontmatter.root_id, h.package.correlation_id);
    assert.equal(result.frontmatter.hop, 2);
    assert.equal(result.frontmatter.from, 'quality_reviewer');
    assert.equal(result.frontmatter.to, 'developer');
    assert.equal(result.frontmatter.hop_guard, null);
    assert.ok(result.frontmatter.acceptance.every((a) => a.met));
    assert.match(result.body, /^# Result from Quality reviewer: token auth/m);
    assert.match(result.sections.get('Acceptance') ?? '', /- \[x\] Review the middleware/);
    const answered = (await readWithStatus(h.handoff_file)).frontmatter;
    assert.equal(answered.status, 'complete');
    assert.equal(answered.status_history.at(-1)?.session_id, 'session-b');
    assert.deepEqual(r.summary, [`✅ ${h.package.id} — complete`]);
    // Answered: nothing is open any more for this specialist, so a second result is a session note.
    const again = await recordResult({ specialist: 'quality_reviewer', summary: 'More.' }, { workspaceRoot: dir, now: at(6), sessionId: 'session-b' });
    assert.ok(again.status === 'ok' && again.entries.length === 0 && again.note_file);
  });

  it('the status policy: open criteria → in progress; a blocker → blocked; a test failed after the last pass → not complete', async () => {
    const run = (result: TestRun['result'], minute: number): TestRun =>
      ({
        command: 'npm test',
        result,
        exit_code: result === 'passed' ? 0 : 1,
        source: 'recorder',
        started_at: new Date(T0 + minute * 60_000).toISOString(),
        summary: null,
      }) as unknown as TestRun;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ criteria_met: ['1'] }, 'in_progress'],
      [{ criteria_met: 'all', blockers: ['No staging credentials'] }, 'blocked'],
      [{ criteria_met: 'all', tests_run: [run('passed', 1), run('failed', 2)] }, 'in_progress'],
      [{ criteria_met: 'all', tests_run: [run('failed', 1), run('passed', 2)] }, 'complete'],
    ];
    for (const [extra, expected] of cases) {
      const dir = repoWithWork();
      await handoffTo(dir, 'test_debug_engineer');
      const r = await recordResult(
        { specialist: 'test_debug_engineer', summary: 's', ...extra },
        { workspaceRoot: dir, now: at(5), sessionId: 'x', sessionLog: { mode: 'none' } },
      );
      assert.ok(r.status === 'ok', JSON.stringify(r));
      assert.equal(r.entries[0]?.status, expected, JSON.stringify(extra));
      if (expected !== 'complete') assert.ok(r.entries[0].reasons.length > 0, 'the reasons say why');
    }
  });

  it('a result "in progress" leaves the handoff open: the next hand-back of the same work finds it and can complete it', async () => {
    const dir = repoWithWork();
    await handoffTo(dir, 'test_debug_engineer');
    const first = await recordResult(
      { specialist: 'test_debug_engineer', summary: 'Half done.', criteria_met: ['1'] },
      { workspaceRoot: dir, now: at(5), sessionId: 'x', sessionLog: { mode: 'none' } },
    );
    assert.ok(first.status === 'ok' && first.entries[0]?.status === 'in_progress', JSON.stringify(first));
    const second = await recordResult(
      { specialist: 'test_debug_engineer', summary: 'All done.', criteria_met: 'all' },
      { workspaceRoot: dir, now: at(6), sessionId: 'x', sessionLog: { mode: 'none' } },
    );
    assert.ok(second.status === 'ok', JSON.stringify(second));
    assert.equal(second.note_file, null, 'not a session note: the open handoff was found');
    assert.equal(second.entries[0]?.status, 'complete');
    // Completed now: a third hand-back finds nothing open and writes a note only.
    const third = await recordResult(
      { specialist: 'test_debug_engineer', summary: 'Again?' },
      { workspaceRoot: dir, now: at(7), sessionId: 'x', sessionLog: { mode: 'none' } },
    );
    assert.ok(third.status === 'ok' && third.entries.length === 0 && third.note_file !== null, JSON.stringify(third));
  });

  it('the CLI refuses a handoff another session took up, naming --proceed-if-taken, and proceeds with it', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'implementation_engineer');
    const taken = await buildPrompt({ handoff: h.package.id }, { workspaceRoot: dir, sessionId: 'session-other', now: at(1) });
    assert.ok(taken.status === 'ok' && taken.taken);
    const args = ['record-result', '--specialist', 'implementation_engineer', '--summary', 'Done.', '--met', 'all'];
    const refused = await cli(args, dir);
    assert.equal(refused.code, EXIT_BAD_INPUT, refused.err);
    assert.match(
      refused.err,
      /taken up by another session \(session-other, .*\) that never recorded a result — record yours anyway with --proceed-if-taken, or leave it to that session/,
    );
    assert.doesNotMatch(refused.err, /proceed_if_taken/, 'the CLI names its flag, not the request field');
    assert.equal(readdirSync(path.dirname(h.handoff_file)).length, 1, 'nothing written');
    const ok = await cli([...args, '--proceed-if-taken'], dir);
    assert.equal(ok.code, EXIT_OK, ok.err);
    assert.equal(readdirSync(path.dirname(h.handoff_file)).length, 2, 'the result is written');
  });

  it('a handoff another session took up and never answered: refused until the caller proceeds', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'implementation_engineer');
    const taken = await buildPrompt({ handoff: h.package.id }, { workspaceRoot: dir, sessionId: 'session-other', now: at(1) });
    assert.ok(taken.status === 'ok' && taken.taken);
    assert.equal((await readWithStatus(h.handoff_file)).frontmatter.status, 'accepted');
    const refused = await recordResult(
      { specialist: 'implementation_engineer', criteria_met: 'all' },
      { workspaceRoot: dir, sessionId: 'session-mine', now: at(2) },
    );
    assert.ok(refused.status === 'error');
    assert.equal(refused.field, 'taken');
    assert.match(refused.message, /was taken up by another session \(session-other, .*\) that never recorded a result/);
    assert.equal(readdirSync(path.dirname(h.handoff_file)).length, 1, 'nothing written');
    const ok = await recordResult(
      { specialist: 'implementation_engineer', criteria_met: 'all', proceed_if_taken: true },
      { workspaceRoot: dir, sessionId: 'session-mine', now: at(3) },
    );
    assert.ok(ok.status === 'ok' && ok.entries.length === 1);
    // The same session that took it can answer it without being asked.
    const dir2 = repoWithWork();
    const h2 = await handoffTo(dir2, 'implementation_engineer');
    await buildPrompt({ handoff: h2.package.id }, { workspaceRoot: dir2, sessionId: 'me', now: at(1) });
    const mine = await recordResult({ specialist: 'implementation_engineer' }, { workspaceRoot: dir2, sessionId: 'me', now: at(2) });
    assert.ok(mine.status === 'ok' && mine.entries.length === 1);
  });

  it('with no matching handoff: a session note only, nothing else changed', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'quality_reviewer');
    const before = readFileSync(h.handoff_file, 'utf8');
    const r = await recordResult(
      { specialist: 'solution_architect', summary: 'Sketched the design.', next_steps: ['Write it up'] },
      { workspaceRoot: dir, now: at(3), sessionId: 's' },
    );
    assert.ok(r.status === 'ok');
    assert.equal(r.entries.length, 0);
    assert.ok(r.note_file && r.note_file.includes(`${path.sep}notes${path.sep}`));
    assert.match(readFileSync(r.note_file, 'utf8'), /No open handoff to solution_architect matched[\s\S]*Sketched the design\.[\s\S]*- Write it up/);
    assert.equal(readFileSync(h.handoff_file, 'utf8'), before);
    assert.deepEqual(readdirSync(path.dirname(h.handoff_file)), [path.basename(h.handoff_file)]);
  });

  it('two handoffs and a result group into one chain of three entries, nested in order', async () => {
    const dir = repoWithWork();
    const first = await handoffTo(dir, 'codebase_explorer', {}, 0);
    const second = HandoverOkSchema.parse(
      await handover({ specialist: 'implementation_engineer', topic: 'token auth', parent: 'latest' }, { workspaceRoot: dir, now: at(10) }),
    );
    const r = await recordResult({ specialist: 'implementation_engineer', criteria_met: 'all' }, { workspaceRoot: dir, now: at(20), sessionId: 'x' });
    assert.ok(r.status === 'ok' && r.entries.length === 1);
    const { files } = await listTimelineFiles(dir, path.join(dir, '.handoff'), []);
    assert.equal(files.length, 3);
    const info = new Map();
    for (const f of files) info.set(f.key, await readChainInfo(f));
    const roots = groupChains(files, info, 'newest');
    assert.equal(roots.length, 1);
    assert.equal(roots[0].file.path, first.handoff_file);
    assert.equal(roots[0].children[0].file.path, second.handoff_file);
    assert.equal(roots[0].children[0].children[0].file.path, r.entries[0].result_file);
    assert.equal(info.get(files.find((f) => f.path === r.entries[0].result_file)!.key).kind, 'result');
  });
});

describe('prompt for the receiving specialist', function () {
  this.timeout(40_000);
  after(cleanupTempDirs);

  it('names the specialist, the handoff, the run context, staleness and prior handoffs; marks the pending handoff accepted', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'quality_reviewer');
    const p = await buildPrompt({}, { workspaceRoot: dir, now: at(1), sessionId: 's' });
    assert.ok(p.status === 'ok');
    assert.equal(p.specialist, 'quality_reviewer');
    assert.equal(p.handoff_id, h.package.id);
    assert.equal(p.taken, true);
    assert.equal(p.stale, false);
    assert.match(p.prompt, /^# \[quality reviewer\] Quality reviewer/m);
    assert.match(p.prompt, /- run\.handoff_path: \.handoff\/handoffs\/2026-11-30T10-01-00\.000Z_quality_reviewer\.md/);
    // Issue 18: the handoff picked up is carried in full under its own heading, without its frontmatter, and not repeated under the prior handoffs.
    assert.match(p.prompt, /^## Handoff to Quality reviewer: token auth\n\n\[quality reviewer\] You are the Quality reviewer\./m);
    assert.match(p.prompt, /^### Summary\n\nDid the work\.$/m);
    assert.doesNotMatch(p.prompt, /^(schema: 1|diff_hash: )/m, 'no frontmatter');
    assert.match(p.prompt, /## Prior Agent Handoffs\n\n_No prior handoffs/);
    const again = await buildPrompt({}, { workspaceRoot: dir, now: at(2), sessionId: 's' });
    assert.ok(again.status === 'ok' && !again.taken, 'taken once');
    const peek = await buildPrompt({ take: false, specialist: 'hacker' }, { workspaceRoot: dir, now: at(2), sessionId: 's' });
    assert.ok(peek.status === 'ok' && peek.handoff_id === null, 'no handoff to hacker: a briefing without one');
  });

  it('`--handoff latest` picks the newest handoff, never a newer result, and refuses when there is only a result', async () => {
    const dir = repoWithWork();
    const h = await handoffTo(dir, 'quality_reviewer');
    const r = await recordResult(
      { specialist: 'quality_reviewer', summary: 'Reviewed; no findings.', criteria_met: 'all' },
      { workspaceRoot: dir, now: at(5), sessionId: 'session-b' },
    );
    assert.ok(r.status === 'ok');
    // The result is the newest entry of the folder: it is what "latest" used to pick.
    const names = readdirSync(path.join(dir, '.handoff', 'handoffs')).sort();
    assert.equal(read(path.join(dir, '.handoff', 'handoffs', names[names.length - 1])).frontmatter.kind, 'result');
    const p = await buildPrompt({ handoff: 'latest', take: false }, { workspaceRoot: dir, now: at(6) });
    assert.ok(p.status === 'ok', p.status === 'error' ? p.message : '');
    assert.equal(p.handoff_id, h.package.id);
    const cliOut = await cli(['prompt', '--handoff', 'latest', '--no-take', '--json'], dir);
    assert.equal(cliOut.code, EXIT_OK, cliOut.err);
    assert.equal(JSON.parse(cliOut.out).handoff_id, h.package.id);

    const only = repoWithWork();
    await handoffTo(only, 'quality_reviewer');
    const first = readdirSync(path.join(only, '.handoff', 'handoffs'))[0];
    rmSync(path.join(only, '.handoff', 'handoffs', first));
    mkdirSync(path.join(only, '.handoff', 'handoffs'), { recursive: true });
    writeFileSync(
      path.join(only, '.handoff', 'handoffs', names[names.length - 1]),
      readFileSync(path.join(dir, '.handoff', 'handoffs', names[names.length - 1])),
    );
    const none = await buildPrompt({ handoff: 'latest', take: false }, { workspaceRoot: only, now: at(6) });
    assert.ok(none.status === 'error');
    assert.match(none.message, /^ERROR: there is no handoff to pick up in .* \(results are not picked up\)/);
  });

  it('prior handoffs: a 50 MB file takes its share, the handoff picked up stays, sizes are exact, broken and unreadable entries are warned about', async () => {
    const dir = repoWithWork();
    const picked = await handoffTo(dir, 'quality_reviewer', {}, 0);
    const others = [];
    for (let m = 1; m <= 4; m++) others.push(await handoffTo(dir, 'hacker', { summary: `Other work ${m}.` }, m));
    const hdir = path.join(dir, '.handoff', 'handoffs');
    // Newest of all: a 50 MB handoff file (a huge summary), and entries that are not files.
    const huge = path.join(hdir, '2026-11-30T11-00-00.000Z_hacker.md');
    const big = Buffer.alloc(50 * 1024 * 1024, 'z');
    Buffer.from('---\nbroken: [\n---\n').copy(big);
    writeFileSync(huge, big);
    execFileSync('mkfifo', [path.join(hdir, '2026-11-30T10-30-00.000Z_hacker.md')]);
    symlinkSync('/dev/zero', path.join(hdir, '2026-11-30T10-31-00.000Z_hacker.md'));
    symlinkSync('/etc/hostname', path.join(hdir, '2026-11-30T10-32-00.000Z_hacker.md'));
    const p = await buildPrompt({ handoff: picked.package.id, take: false }, { workspaceRoot: dir, now: at(90) });
    assert.ok(p.status === 'ok', p.status === 'error' ? p.message : '');
    const block = p.prompt.slice(p.prompt.indexOf('## Prior Agent Handoffs'));
    // Issue 18: the handoff picked up has its own section before the block, and shares the 30 KB with it.
    const pickedUp = p.prompt.slice(p.prompt.indexOf('## Handoff to Quality reviewer: token auth'), p.prompt.indexOf('\n## Return condition'));
    assert.ok(pickedUp.includes('### Summary\n\nDid the work.'), 'the handoff picked up is kept');
    assert.ok(Buffer.byteLength(pickedUp) + Buffer.byteLength(block) <= 30 * 1024 + 2, `${Buffer.byteLength(pickedUp)} + ${Buffer.byteLength(block)}`);
    assert.ok(!block.includes(`### ${picked.package.id}.md`), 'the handoff picked up is not repeated under the prior handoffs');
    for (const o of others) assert.ok(block.includes(`### ${o.package.id}.md`), `${o.package.id} is kept`);
    assert.match(block, /\[… truncated: showing the first [\d,]+ of 52,428,800 bytes of this handoff to fit the 30 KB budget\]/);
    assert.doesNotMatch(block, /earlier handoffs? dropped/);
    const w = p.warnings.join('\n');
    assert.match(w, /WARNING: prior handoff 2026-11-30T11-00-00\.000Z_hacker\.md: its frontmatter cannot be read/);
    assert.match(w, /WARNING: prior handoff 2026-11-30T10-30-00\.000Z_hacker\.md was skipped: it is a FIFO/);
    assert.match(w, /WARNING: prior handoff 2026-11-30T10-31-00\.000Z_hacker\.md was skipped: it is a symbolic link/);
    assert.match(w, /WARNING: prior handoff 2026-11-30T10-32-00\.000Z_hacker\.md was skipped: it is a symbolic link/);
  });

  it('reports staleness after a commit and after a file it names is deleted', async () => {
    const dir = repoWithWork();
    write(dir, 'src/auth.ts', 'export const auth = 1;\n');
    await handoffTo(dir, 'quality_reviewer', { artifacts: ['src/auth.ts'] });
    commitAll(dir, 'later work');
    write(dir, 'other.ts', 'x\n');
    commitAll(dir, 'another commit');
    const p = await buildPrompt({ take: false }, { workspaceRoot: dir, now: at(5) });
    assert.ok(p.status === 'ok');
    assert.equal(p.stale, true);
    assert.match(p.prompt, /2 commits since the handoff/);
    rmSync(path.join(dir, 'src', 'auth.ts'));
    const gone = await buildPrompt({ take: false }, { workspaceRoot: dir, now: at(6) });
    assert.ok(gone.status === 'ok');
    assert.match(gone.prompt, /no longer exist[\s\S]*src\/auth\.ts/);
  });

  it('reads itervox and Agent Zero files into the prior handoffs', async () => {
    const dir = repoWithWork();
    mkdirSync(path.join(dir, '.itervox', 'handoff'), { recursive: true });
    mkdirSync(path.join(dir, '.a0proj', 'handover'), { recursive: true });
    writeFileSync(path.join(dir, '.itervox', 'handoff', '2026-05-26T14-30-45Z_researcher.md'), '# Research\nFound the auth module.\n');
    writeFileSync(path.join(dir, '.itervox', 'handoff', '2026-05-26T14-58-12Z_implementer.partial.md'), '# Half done\n');
    writeFileSync(path.join(dir, '.a0proj', 'handover', 'frontend-designer-landing-page-2026-06-05.md'), '# Briefing\nHero section.\n');
    const p = await buildPrompt({ specialist: 'frontend_designer', take: false }, { workspaceRoot: dir, now: at(1) });
    assert.ok(p.status === 'ok');
    assert.match(p.prompt, /### 2026-05-26T14-30-45Z_researcher\.md\n\n# Research\nFound the auth module\./);
    assert.match(p.prompt, /### 2026-05-26T14-58-12Z_implementer\.partial\.md \(partial/);
    assert.match(p.prompt, /### frontend-designer-landing-page-2026-06-05\.md\n\n# Briefing/);
    const { files } = await listTimelineFiles(dir, path.join(dir, '.handoff'), ['frontend_designer']);
    assert.deepEqual(
      files.map((f) => [f.source, f.specialist, f.partial]),
      [
        ['itervox', 'researcher', false],
        ['itervox', 'implementer', true],
        ['agent-zero', 'frontend_designer', false],
      ],
    );
  });
});

describe('CLI: prompt and record-result', function () {
  this.timeout(40_000);
  after(cleanupTempDirs);

  it('prompt prints the prompt; record-result writes the result and prints the one-screen summary', async () => {
    const dir = repoWithWork();
    assert.equal((await cli(['handover', '-s', 'quality_reviewer', '-t', 'auth', '--next', 'Review it'], dir)).code, EXIT_OK);
    const p = await cli(['prompt'], dir);
    assert.equal(p.code, EXIT_OK, p.err);
    assert.match(p.out, /^# \[quality reviewer\] Quality reviewer/);
    const r = await cli(['record-result', '-s', 'quality_reviewer', '--summary', 'Done.', '--met', 'all', '--session-log', 'none'], dir);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(r.out, /^✅ .*_quality_reviewer — complete\nresult: \.handoff\/handoffs\/.*_quality_reviewer\.md$/);
    const blocked = await cli(
      ['record-result', '-s', 'quality_reviewer', '--handoff', 'latest', '--blocker', 'no access', '--json', '--session-log', 'none'],
      dir,
    );
    assert.equal(blocked.code, EXIT_FAILURE, 'a handoff that could not be answered');
    const json = JSON.parse(blocked.out);
    assert.equal(json.status, 'ok');
    assert.equal(json.failures.length, 1, 'latest is now the result itself');
    assert.match(json.failures[0].message, /is itself a result/);
  });

  it('a status that cannot be changed is an error (exit 1), and no result is written without it', async () => {
    const dir = repoWithWork();
    assert.equal((await cli(['handover', '-s', 'quality_reviewer', '-t', 'auth', '--next', 'Review it'], dir)).code, EXIT_OK);
    const handoffs = path.join(dir, '.handoff', 'handoffs');
    const [name] = readdirSync(handoffs);
    // A file where the handoff's status folder must go: its status event cannot be written.
    mkdirSync(path.join(dir, '.handoff', 'status'), { recursive: true });
    writeFileSync(path.join(dir, '.handoff', 'status', name.replace(/\.md$/, '')), 'not a folder\n');
    const r = await cli(['record-result', '-s', 'quality_reviewer', '--summary', 'Done.', '--met', 'all', '--session-log', 'none'], dir);
    assert.equal(r.code, EXIT_FAILURE, r.out);
    assert.match(r.out, /no result was written/);
    assert.deepEqual(readdirSync(handoffs), [name], 'no result, not even a .partial.md');
    assert.equal((await readHandoffHead(path.join(handoffs, name)))?.frontmatter.status, 'pending');
  });

  it('bad input names the flag', async () => {
    const dir = repoWithWork();
    const none = await cli([], dir);
    assert.equal(none.code, EXIT_BAD_INPUT);
    assert.match(none.err, /^ERROR: no command given/);
    const noSpecialist = await cli(['record-result'], dir);
    assert.equal(noSpecialist.code, EXIT_BAD_INPUT);
    assert.match(noSpecialist.err, /^ERROR: --specialist/);
    const noHandoff = await cli(['prompt', '--handoff', 'nope'], dir);
    assert.equal(noHandoff.code, EXIT_BAD_INPUT);
    assert.match(noHandoff.err, /^ERROR: handoff "nope" not found/);
    const missingLog = await cli(['handover', '-s', 'hacker', '-t', 't', '--session-log', '/nonexistent.jsonl'], dir);
    assert.equal(missingLog.code, EXIT_BAD_INPUT);
    assert.match(missingLog.err, /^ERROR: --session-log \/nonexistent\.jsonl: no such file or folder/);
    const both = await cli(['handover', '-s', 'hacker', '-t', 't', '--summary', 'a', '--summary-file', 'x'], dir);
    assert.match(both.err, /^ERROR: --summary and --summary-file both given/);
    const long = await cli(['handover', '-s', 'hacker', '-t', 't', '--decision', 'x'.repeat(20_001)], dir);
    assert.match(long.err, /^ERROR: --decision #1 must be at most 20,000 characters/);
  });

  it('--summary-file reads the summary from a file', async () => {
    const dir = repoWithWork();
    writeFileSync(path.join(dir, 'summary.txt'), 'From a file.\nTwo lines.\n');
    const r = await cli(['handover', '-s', 'hacker', '-t', 't', '--summary-file', 'summary.txt', '--json', '--session-log', 'none'], dir);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(JSON.parse(r.out).package.summary, /^From a file\.\nTwo lines\.$/);
  });
});
