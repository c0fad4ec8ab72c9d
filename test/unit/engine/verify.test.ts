/**
 * The engine side of verify on receipt (src/engine/receive/verify.ts, src/engine/receive/shellCommandRunner.ts):
 * the shell runner on real processes (exit codes, a signal's 128 + n, a cancel stopping the
 * process group, a shell that cannot start), and planVerification / verifyHandoff on real
 * repositories: the plan lists what would run and checks folders, errors come back as values.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { alive } from '../../helpers/process';
import { handover } from '../../../src/engine/handover/handover';
import { createShellCommandRunner, planVerification, shellCommandRunner, verifyHandoff } from '../../../src/engine/receive/verify';
import { latestVerification } from '../../../src/store/handoffs/verifications';
import { writeClaudeTranscript } from '../../helpers/claudeTranscript';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

describe('the shell runner (verify --run)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('reports the exit code, in the given folder, standard input closed', async () => {
    const dir = tempDir();
    const ok = await shellCommandRunner.run({ command: 'pwd > where.txt && exit 0', cwd: dir, kind: 'test' }, { timeoutMs: 10_000 });
    assert.deepEqual([ok.exit_code, ok.timed_out, ok.error], [0, false, undefined]);
    assert.equal(readFileSync(path.join(dir, 'where.txt'), 'utf8').trim(), path.resolve(dir));
    const three = await shellCommandRunner.run({ command: 'read line; exit 3', cwd: dir, kind: 'build' }, { timeoutMs: 10_000 });
    assert.equal(three.exit_code, 3, 'read at end of input fails fast; the script exits 3');
    assert.ok(three.duration_ms >= 0);
  });

  it('a command killed by a signal it did not get from us exits 128 + the signal number, as a POSIX shell reports it', async () => {
    const r = await shellCommandRunner.run({ command: 'kill -KILL $$', cwd: tempDir(), kind: 'test' }, { timeoutMs: 10_000 });
    assert.deepEqual([r.exit_code, r.timed_out], [137, false]);
  });

  it('a cancel stops the whole process group, and answers timed_out with no exit code', async () => {
    const dir = tempDir();
    const abort = new AbortController();
    const running = createShellCommandRunner({ killGraceMs: 300 }).run(
      { command: 'sleep 30 & echo $! > child.pid; wait', cwd: dir, kind: 'test' },
      { timeoutMs: 60_000, signal: abort.signal },
    );
    for (let i = 0; i < 100 && !existsSync(path.join(dir, 'child.pid')); i++) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(path.join(dir, 'child.pid'), 'utf8'));
    assert.ok(alive(pid), 'the background sleep runs');
    abort.abort();
    const r = await running;
    assert.deepEqual([r.exit_code, r.timed_out], [null, true]);
    assert.equal(alive(pid), false, 'the background child went with the group');
    const already = await shellCommandRunner.run({ command: 'echo never > ran.txt', cwd: dir, kind: 'test' }, { timeoutMs: 1000, signal: abort.signal });
    assert.deepEqual([already.timed_out, existsSync(path.join(dir, 'ran.txt'))], [true, false], 'an aborted signal runs nothing');
  });

  it('a shell that cannot start is an error, not a throw', async () => {
    const r = await createShellCommandRunner().run({ command: 'true', cwd: path.join(tempDir(), 'no-such-folder'), kind: 'test' }, { timeoutMs: 5000 });
    assert.equal(r.exit_code, null);
    assert.match(r.error ?? '', /ENOENT/);
  });
});

describe('planVerification / verifyHandoff (engine)', function () {
  this.timeout(60_000);
  after(cleanupTempDirs);

  async function repoWithHandoff(): Promise<{ repo: string; id: string }> {
    const repo = initRepo();
    write(
      repo,
      'package.json',
      `${JSON.stringify({ name: 'x', private: true, scripts: { test: 'node -e "process.exit(0)"', build: 'node -e "process.exit(0)"' } })}\n`,
    );
    write(repo, 'web/index.html', '<p>cart</p>\n');
    commitAll(repo, 'first');
    const transcript = writeClaudeTranscript(tempDir(), repo, 'Make the build pass.', [
      { command: 'npm test', cwd: repo, exitCode: 1, output: '1 failing' },
      { command: 'npm test', cwd: repo, exitCode: 0, output: '3 passing' },
      { command: 'npm run build', cwd: path.join(repo, 'web'), exitCode: 2, output: 'error TS2322' },
    ]);
    const r = await handover(
      { specialist: 'quality_reviewer', topic: 'cart', summary: 'Tests pass; the build still fails.' },
      { workspaceRoot: repo, sessionLog: { mode: transcript } },
    );
    assert.equal(r.status, 'ok', r.status === 'error' ? r.message : '');
    return { repo, id: r.status === 'ok' ? r.package.id : '' };
  }

  it('the plan: the latest run of each test command, then the build commands, each with its folder; nothing runs', async () => {
    const { repo, id } = await repoWithHandoff();
    const plan = await planVerification({}, { workspaceRoot: repo });
    assert.equal(plan.status, 'ok');
    if (plan.status !== 'ok') return;
    assert.equal(plan.handoff_id, id);
    assert.equal(plan.specialist, 'quality_reviewer');
    assert.deepEqual(
      plan.rechecks.map((r) => [r.kind, r.command, r.recordedCwd, r.cwd, r.recorded.result, r.recorded.exit_code, r.missing]),
      [
        ['test', 'npm test', null, repo, 'ok', 0, undefined],
        ['build', 'npm run build', 'web', path.join(repo, 'web'), 'failed', 2, undefined],
      ],
    );
    assert.equal(plan.rechecks[1].recorded.at, '2026-12-01T10:03:00.000Z', "a command's time is in its line");
    assert.equal((await planVerification({ handoff: `${id}.md` }, { workspaceRoot: repo })).status, 'ok', 'by file name');
  });

  it('progress before each command; the build that failed at handoff and succeeds now is contradicted', async () => {
    const { repo } = await repoWithHandoff();
    const seen: string[] = [];
    const r = await verifyHandoff(
      { run: true, timeoutMs: 30_000 },
      { workspaceRoot: repo, onProgress: (done, total, command) => seen.push(`${done}/${total} ${command}`) },
    );
    assert.equal(r.status, 'ok');
    if (r.status !== 'ok') return;
    assert.deepEqual(seen, ['0/2 npm test', '1/2 npm run build']);
    assert.deepEqual(
      r.verification.rechecks.map((x) => x.verdict),
      ['verified', 'contradicted'],
    );
    assert.equal(r.verification.stale, false, 'nothing changed since the handoff');
    assert.match(r.line, /: 1 verified, 1 contradicted: `npm run build` failed at handoff, succeeds now$/);
  });

  it('a cancel while the first command runs stops it (unverifiable), runs no other (not run) and still records; cancelled before any ran records nothing', async () => {
    const { repo, id } = await repoWithHandoff();
    write(
      repo,
      'package.json',
      `${JSON.stringify({ name: 'x', private: true, scripts: { test: 'node -e "setTimeout(() => {}, 30000)"', build: 'node -e "process.exit(0)"' } })}\n`,
    );
    const abort = new AbortController();
    const started = Date.now();
    const r = await verifyHandoff(
      { run: true },
      { workspaceRoot: repo, signal: abort.signal, onProgress: (done) => (done === 0 ? setTimeout(() => abort.abort(), 500) : undefined) },
    );
    assert.ok(Date.now() - started < 25_000, 'the 30 s test was stopped');
    assert.equal(r.status, 'ok');
    if (r.status !== 'ok') return;
    assert.deepEqual(
      r.verification.rechecks.map((x) => [x.verdict, x.reason]),
      [
        ['unverifiable', 'passed at handoff (exit code 0); cancelled before it finished'],
        ['not_run', 'failed at handoff (exit code 2); not re-run: the verification was cancelled'],
      ],
    );
    assert.ok(r.verification_file, 'what ran is recorded');
    const before = await verifyHandoff({ run: true }, { workspaceRoot: repo, signal: abort.signal });
    assert.equal(before.status === 'ok' && before.verification_file, null);
    assert.ok(before.status === 'ok' && before.warnings.includes('WARNING: the verification was cancelled before any command ran; nothing was recorded'));
    assert.equal((await latestVerification(path.join(repo, '.handoff'), id))?.checked_at, r.verification.checked_at, 'the latest is still the one that ran');
  });

  it('errors are values: no handoff, an unknown one, a bad timeout', async () => {
    const empty = initRepo();
    const none = await verifyHandoff({ run: true }, { workspaceRoot: empty });
    assert.deepEqual([none.status, none.status === 'error' && none.field, none.status === 'error' && none.code], ['error', 'handoff', 'not_found']);
    const { repo } = await repoWithHandoff();
    const unknown = await planVerification({ handoff: 'no-such-id' }, { workspaceRoot: repo });
    assert.equal(unknown.status, 'error');
    assert.match(
      unknown.status === 'error' ? unknown.message : '',
      /^ERROR: handoff "no-such-id" not found in .* — pass a handoff id, its file name, or "latest"$/,
    );
    for (const timeoutMs of [0, -5, 1.5, Number.NaN, 86_400_001]) {
      const bad = await verifyHandoff({ run: true, timeoutMs }, { workspaceRoot: repo });
      assert.equal(bad.status === 'error' && bad.field, 'timeoutMs', String(timeoutMs));
    }
    assert.equal(existsSync(path.join(repo, '.handoff', 'verifications')), false, 'nothing recorded for a bad request');
  });
});
