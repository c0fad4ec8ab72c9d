/**
 * `specialist-handoff verify` (issue 18, docs/DESIGN.md §9 "Verify on receipt") on real git
 * repositories in temporary folders, with real `npm` scripts re-run through the shell and a
 * Claude Code transcript built from a real one's lines (test/helpers/claudeTranscript.ts):
 * the Done-when line — a transcript records `npm test` passing, the test script now exits 1,
 * `verify --run --json` through the real CLI process reports it contradicted and `prompt`
 * shows the line at the top — plus unverifiable (folder gone, command not found), the
 * briefing appended without touching earlier bytes, nothing run without --run, and a
 * command that times out stopped with its whole process group.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { alive } from '../helpers/process';
import { EXIT_OK } from '../../src/cli/main';
import { EXIT_CONTRADICTED } from '../../src/cli/verify';
import { parseHandoff } from '../../src/core/handoff/parse';
import { VerificationSchema } from '../../src/core/receive/verification';
import { readBriefing } from '../../src/engine/handover/handoffFiles';
import { openTimeline } from '../../src/engine/timeline/timeline';
import { latestVerification, readVerifications } from '../../src/store/handoffs/verifications';
import { CLI_FROM_SOURCE, cli } from '../helpers/cli';
import { writeClaudeTranscript, type BashRun } from '../helpers/claudeTranscript';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../helpers/repo';

/** Runs the real CLI as its own process in `cwd`. */
function spawnCli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd, encoding: 'utf8', env: process.env, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A package.json whose `npm test` (and `npm run build`) run `node -e <code>`. */
function packageJson(test: string, build = 'process.exit(0)'): string {
  return `${JSON.stringify({ name: 'cart', version: '1.0.0', private: true, scripts: { test: `node -e "${test}"`, build: `node -e "${build}"` } }, null, 2)}\n`;
}

/** A repository with a committed package.json and a handoff written from a transcript of `runs` (through the CLI). */
async function repoWithHandoff(runs: (repo: string) => BashRun[], files: Record<string, string> = {}): Promise<{ repo: string; handoff: string; id: string }> {
  const repo = initRepo();
  write(repo, 'package.json', packageJson("console.log('3 passing')"));
  for (const [rel, text] of Object.entries(files)) write(repo, rel, text);
  commitAll(repo, 'cart: first version');
  const transcript = writeClaudeTranscript(tempDir(), repo, 'Add the cart total and make the tests pass.', runs(repo));
  const r = await cli(['handover', '-s', 'quality_reviewer', '-t', 'cart total', '--summary', 'All tests pass.', '--session-log', transcript, '--json'], repo);
  assert.equal(r.code, EXIT_OK, r.err);
  const written = JSON.parse(r.out) as { handoff_file: string; package: { id: string } };
  return { repo, handoff: written.handoff_file, id: written.package.id };
}

describe('verify on receipt (specialist-handoff verify, real repositories)', function () {
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('npm test passed in the transcript, the test script now exits 1: verify --run --json (real process) says contradicted, prompt shows it at the top, the briefing gets it appended', async () => {
    const { repo, handoff, id } = await repoWithHandoff((r) => [{ command: 'npm test', cwd: r, exitCode: 0, output: '> cart@1.0.0 test\n\n3 passing' }]);
    const tests = parseHandoff(readFileSync(handoff, 'utf8'));
    assert.ok(tests.ok);
    assert.match(
      tests.handoff.sections.get('Tests run') ?? '',
      /^- ✅ passed `npm test` \(exit 0; 3 passed, 0 failed; source: claude-code\)$/m,
      'the handoff records the passing run',
    );
    const briefingFile = path.join(path.dirname(path.dirname(handoff)), ...(tests.handoff.frontmatter.briefing_file ?? '').split('/'));
    const sectionBefore = readFileSync(briefingFile);
    const briefingBefore = await readBriefing(briefingFile);
    assert.ok(briefingBefore);

    write(repo, 'package.json', packageJson("console.error('1 failing'); process.exit(1)"));
    const r = spawnCli(['verify', '--run', '--json'], repo);
    assert.equal(r.code, EXIT_CONTRADICTED, `exit ${r.code}: ${r.err}`);
    const out = JSON.parse(r.out) as {
      status: string;
      line: string;
      verification: unknown;
      verification_file: string;
      briefing_file: string;
      handoff_id: string;
    };
    assert.equal(out.status, 'ok');
    assert.equal(out.handoff_id, id);
    const v = VerificationSchema.parse(out.verification);
    assert.equal(v.ran, true);
    assert.deepEqual(v.counts, { verified: 0, contradicted: 1, unverifiable: 0, not_run: 0 });
    assert.equal(v.rechecks.length, 1);
    const [test] = v.rechecks;
    assert.deepEqual([test.kind, test.command, test.cwd, test.recorded.result, test.recorded.exit_code], ['test', 'npm test', null, 'ok', 0]);
    assert.equal(test.now?.exit_code, 1, "npm passes the script's exit code 1 on");
    assert.equal(test.now?.timed_out, false);
    assert.equal(test.verdict, 'contradicted');
    assert.equal(test.reason, 'passed at handoff (exit code 0), fails now (exit code 1)');
    assert.equal(v.stale, true, 'package.json changed since the handoff');
    assert.ok(
      v.staleness.some((l) => l.includes('package.json')),
      v.staleness.join('\n'),
    );
    assert.equal(out.line, `Checked at ${v.checked_at}: 1 contradicted: \`npm test\` passed at handoff, fails now; the workspace changed since the handoff`);
    assert.match(r.err, /^verify: \[1\/1\] running npm test$/m);

    // Stored: one file of its own, read back as the latest.
    const stored = readVerifications(path.join(repo, '.handoff'), id);
    assert.deepEqual(
      (await stored).map((x) => x.checked_at),
      [v.checked_at],
    );
    assert.ok(out.verification_file.startsWith(path.join(repo, '.handoff', 'verifications', id) + path.sep));
    assert.deepEqual(VerificationSchema.parse(JSON.parse(readFileSync(out.verification_file, 'utf8'))), v);

    // The briefing: the handoff's section file is byte for byte as it was; the verification follows it.
    assert.deepEqual(readFileSync(briefingFile), sectionBefore, 'earlier bytes unchanged');
    assert.equal(path.dirname(out.briefing_file), path.dirname(briefingFile));
    const briefingAfter = await readBriefing(briefingFile);
    assert.ok(briefingAfter?.startsWith(briefingBefore), 'the briefing reads as before, then the verification');
    const added = (briefingAfter ?? '').slice(briefingBefore.length);
    assert.match(added, new RegExp(`^\\n## ${v.checked_at.replace(/[.]/g, '\\.')} — verification of ${id.replace(/[.]/g, '\\.')}\\n`));
    assert.ok(added.includes(out.line));
    assert.ok(added.includes('- ❌ contradicted: `npm test` (test) — passed at handoff (exit code 0), fails now (exit code 1)'), added);

    // The receiving prompt (real process): the line right after the introduction.
    const p = spawnCli(['prompt', '--no-take'], repo);
    assert.equal(p.code, EXIT_OK, p.err);
    const blocks = p.out.split('\n\n');
    assert.match(blocks[1], /^You are the Quality reviewer specialist/);
    assert.equal(blocks[2], `**Verification:** ${out.line}`);
    assert.ok(p.out.indexOf('**Verification:**') < p.out.indexOf('## Mandate'));

    // The timeline entry carries it.
    const tl = await openTimeline({ workspaceRoot: repo });
    assert.ok(tl.ok);
    const entry = [...tl.timeline.info.values()].find((i) => i.id === id);
    assert.deepEqual(entry?.verification, { checked_at: v.checked_at, counts: v.counts, line: out.line });
  });

  it('without --run nothing runs and nothing is written: every recheck not run, and the output says to add --run', async () => {
    const { repo, id } = await repoWithHandoff((r) => [
      { command: 'npm test', cwd: r, exitCode: 0, output: '3 passing' },
      { command: 'npm run build', cwd: r, exitCode: 0, output: 'built' },
    ]);
    write(repo, 'package.json', packageJson("require('fs').writeFileSync('ran-test', '')", "require('fs').writeFileSync('ran-build', '')"));
    const r = await cli(['verify'], repo);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.match(r.out, /^Checked at \S+: 2 not run \(not re-run: staleness only\); the workspace changed since the handoff$/m);
    assert.match(r.out, /⏸️ not run: npm test \(test\) — passed at handoff \(exit code 0\); not re-run/);
    assert.match(r.out, /⏸️ not run: npm run build \(build\) — succeeded at handoff \(exit code 0\); not re-run/);
    assert.match(r.out, /^Nothing was run: add --run to re-run these 2 commands \(each stopped after 600 s; --timeout SECONDS\)\.$/m);
    const json = await cli(['verify', '--json'], repo);
    const out = JSON.parse(json.out) as { verification_file: unknown; briefing_file: unknown };
    assert.deepEqual([out.verification_file, out.briefing_file], [null, null]);
    assert.equal(existsSync(path.join(repo, 'ran-test')) || existsSync(path.join(repo, 'ran-build')), false, 'no command ran');
    assert.equal(existsSync(path.join(repo, '.handoff', 'verifications')), false, 'nothing recorded');
    assert.equal(await latestVerification(path.join(repo, '.handoff'), id), undefined);
  });

  it('unverifiable with the reason: the recorded folder is gone; the command is not found (exit code 127); the rest still verified', async () => {
    const { repo } = await repoWithHandoff(
      (r) => [
        { command: 'npm test', cwd: path.join(r, 'packages', 'api'), exitCode: 0, output: '2 passing' },
        { command: './vendor/bin/phpunit', cwd: r, exitCode: 0, output: 'OK (4 tests, 9 assertions)' },
        { command: 'npm test', cwd: r, exitCode: 0, output: '3 passing' },
      ],
      { 'packages/api/package.json': packageJson('process.exit(0)') },
    );
    const h = readFileSync(readdirSync(path.join(repo, '.handoff', 'handoffs')).map((n) => path.join(repo, '.handoff', 'handoffs', n))[0], 'utf8');
    assert.match(
      h,
      /^- ✅ passed `npm test` \(exit 0; in `packages\/api`; 2 passed, 0 failed; source: claude-code\)$/m,
      'the folder is recorded, relative to the workspace',
    );
    rmSync(path.join(repo, 'packages'), { recursive: true });
    const r = await cli(['verify', '--run', '--json', '--timeout', '60'], repo);
    assert.equal(r.code, EXIT_OK, r.err);
    const v = VerificationSchema.parse((JSON.parse(r.out) as { verification: unknown }).verification);
    const by = (cmd: string, cwd: string | null) => v.rechecks.find((x) => x.command === cmd && x.cwd === cwd);
    assert.equal(by('npm test', 'packages/api')?.verdict, 'unverifiable');
    assert.equal(by('npm test', 'packages/api')?.reason, 'passed at handoff (exit code 0); cannot be re-run here: the folder packages/api is gone');
    assert.equal(by('npm test', 'packages/api')?.now, null, 'not started');
    const phpunit = by('./vendor/bin/phpunit', null);
    assert.equal(phpunit?.now?.exit_code, 127, 'the shell reports a command not found as 127');
    assert.equal(phpunit?.verdict, 'unverifiable');
    assert.equal(phpunit?.reason, 'passed at handoff (exit code 0); the command is not found here now (exit code 127)');
    assert.equal(by('npm test', null)?.verdict, 'verified');
    assert.deepEqual(v.counts, { verified: 1, contradicted: 0, unverifiable: 2, not_run: 0 });
    assert.match(
      (JSON.parse(r.out) as { line: string }).line,
      /: 1 verified, 2 unverifiable: `npm test` passed at handoff; cannot be re-run here: the folder packages\/api is gone; `\.\/vendor\/bin\/phpunit` passed at handoff; the command is not found here now/,
    );
  });

  it('a command past --timeout is stopped with its whole process group (a child ignoring SIGTERM too) and is unverifiable', async () => {
    const { repo } = await repoWithHandoff((r) => [{ command: 'npm test', cwd: r, exitCode: 0, output: '3 passing' }]);
    // The test now starts a shell that ignores SIGTERM and sleeps, writes its pid, and waits for it.
    write(
      repo,
      'hang.js',
      "const { spawn } = require('child_process');\nconst c = spawn('sh', ['-c', 'trap \"\" TERM; sleep 60'], { stdio: 'ignore' });\nrequire('fs').writeFileSync('child.pid', String(c.pid));\nsetInterval(() => {}, 1000);\n",
    );
    write(repo, 'package.json', `${JSON.stringify({ name: 'cart', version: '1.0.0', private: true, scripts: { test: 'node hang.js' } }, null, 2)}\n`);
    const started = Date.now();
    const r = spawnCli(['verify', '--run', '--json', '--timeout', '2'], repo);
    const took = Date.now() - started;
    assert.equal(r.code, EXIT_OK, r.err);
    const v = VerificationSchema.parse((JSON.parse(r.out) as { verification: unknown }).verification);
    assert.equal(v.rechecks[0].verdict, 'unverifiable');
    assert.deepEqual([v.rechecks[0].now?.timed_out, v.rechecks[0].now?.exit_code], [true, null]);
    assert.equal(v.rechecks[0].reason, 'passed at handoff (exit code 0); timed out after 2 s now and was stopped');
    const pid = Number(readFileSync(path.join(repo, 'child.pid'), 'utf8'));
    assert.ok(pid > 0);
    assert.equal(alive(pid), false, `the grandchild ${pid} that ignored SIGTERM was killed with the group`);
    assert.ok(took < 50_000, `stopped long before the child's 60 s sleep (took ${took} ms)`);
  });
});
