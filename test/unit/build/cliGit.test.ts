/**
 * The git processes a whole `node dist/cli.js hook` / `handover` starts, counted by a `git` on
 * PATH that logs each call and runs the real one: finding the workspace asks the `rev-parse` the
 * evidence starts from, so a handoff in a repository takes 5 (the probe, status, the numstat
 * diff, the excerpt, the log), and a hook outside git 2.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildDist } from '../../helpers/dist';
import { writeClaudeSession } from '../../helpers/claudeSession';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

describe('build: the git processes of one CLI run', function () {
  this.timeout(180_000);
  after(cleanupTempDirs);

  let dist = '';
  let bin = '';
  let log = '';
  before(async () => {
    dist = (await buildDist()).dist;
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    bin = tempDir('handoff-git-log-');
    log = path.join(bin, 'calls.log');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
  });

  /** Runs `node dist/cli.js <args>` in `cwd` with the logging git; returns its exit, stderr and the git calls (each call's subcommand). */
  const run = (cwd: string, args: string[], stdin = '') => {
    writeFileSync(log, '');
    const home = tempDir('handoff-home-');
    const r = spawnSync(process.execPath, [path.join(dist, 'cli.js'), ...args], {
      cwd,
      input: stdin,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_STATE_HOME: path.join(home, 'state'),
        CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
      },
    });
    const calls = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ').find((w, i, all) => i > 0 && all[i - 1] !== '-c' && w !== '-c' && !w.startsWith('--no-optional')) ?? line);
    return { status: r.status, stderr: r.stderr, calls };
  };

  const project = () => {
    const dir = initRepo();
    write(dir, 'src/a.ts', 'export const a = 1;\n');
    commitAll(dir, 'one');
    write(dir, 'src/a.ts', 'export const a = 2;\n');
    write(dir, 'src/b.ts', 'export const b = 1;\n');
    return dir;
  };
  const hookInput = (cwd: string, transcript: string) =>
    JSON.stringify({ session_id: '7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d', transcript_path: transcript, cwd, hook_event_name: 'SessionEnd', reason: 'exit' });

  it('a hook starts 5 git processes, one probe among them, wherever it is run from', () => {
    const dir = project();
    const transcript = writeClaudeSession(tempDir('handoff-transcripts-'), dir);
    const here = run(dir, ['hook'], hookInput(dir, transcript));
    assert.equal(here.status, 0, here.stderr);
    assert.match(here.stderr, /safety-net handoff to .* written: \.handoff\/handoffs\//);
    assert.deepEqual([...here.calls].sort(), ['diff', 'diff', 'log', 'rev-parse', 'status'], here.calls.join(' | '));

    // Another project of the same shape, its first handoff too, the hook run from another folder.
    const other = project();
    const elsewhere = run(tempDir(), ['hook'], hookInput(other, writeClaudeSession(tempDir('handoff-transcripts-'), other)));
    assert.equal(elsewhere.status, 0, elsewhere.stderr);
    assert.deepEqual([...elsewhere.calls].sort(), ['diff', 'diff', 'log', 'rev-parse', 'status'], elsewhere.calls.join(' | '));
    const written = (folder: string) =>
      readdirSync(path.join(folder, '.handoff', 'handoffs')).map((f) => readFileSync(path.join(folder, '.handoff', 'handoffs', f), 'utf8'));
    const [a] = written(dir);
    const [b] = written(other);
    // The same sections and touched files either way (ids, times and commits differ).
    const shape = (text: string) => text.split('\n').filter((l) => l.startsWith('## ') || /^- \*\*\S+\*\* `src\//.test(l));
    assert.deepEqual(shape(b), shape(a));
    assert.deepEqual(
      shape(a).filter((l) => l.startsWith('- ')),
      ['- **M** `src/a.ts` (+1 / −1)', '- **?** `src/b.ts` (untracked)'],
    );
  });

  it('a hook outside git starts 2 (the probe, then where the folder is) and writes nothing; handover --cwd probes the folder named', () => {
    const outside = tempDir();
    const r = run(outside, ['hook'], hookInput(outside, path.join(outside, 'missing.jsonl')));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /is not in a git repository/);
    assert.deepEqual(r.calls, ['rev-parse', 'rev-parse']);

    const dir = project();
    const h = run(tempDir(), ['handover', '--cwd', dir, '--specialist', 'quality_reviewer', '--topic', 't', '--summary', 's', '--session-log', 'none']);
    assert.equal(h.status, 0, h.stderr);
    assert.equal(h.calls.filter((c) => c === 'rev-parse').length, 1, h.calls.join(' | '));
  });
});
