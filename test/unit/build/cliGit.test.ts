/**
 * Issue 19: the git processes a whole `node dist/cli.js hook` / `handover` starts, counted by a
 * `git` on PATH that logs each call and runs the real one. The CLI's entry starts the workspace's
 * `git rev-parse` before it loads its modules (src/cli/bin.ts, src/engine/headStart.ts), for the
 * folder the command most likely runs in: `--cwd`, else the process's folder. When the guess is
 * right that probe is the workspace's (5 processes in a repository: the probe, status, the
 * numstat diff, the excerpt, the log; 2 for a hook outside git); when it is wrong it costs one
 * process, and the handoff is the same.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cacheNameOf, countsTokens, findsWorkspace, gcFlags, isLongLived, tokenizerGuess, workspaceGuess } from '../../../src/cli/headStart';
import { buildDist } from '../../helpers/dist';
import { writeClaudeSession } from '../../helpers/claudeSession';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../helpers/repo';

describe('build: the git processes of one CLI run, with the workspace probe started early', function () {
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
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: home, XDG_STATE_HOME: path.join(home, 'state'), CLAUDE_CONFIG_DIR: path.join(home, 'claude') },
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
  const hookInput = (cwd: string, transcript: string) => JSON.stringify({ session_id: '7d2a4c1e-5b6f-4e8a-9c3d-1f2e3a4b5c6d', transcript_path: transcript, cwd, hook_event_name: 'SessionEnd', reason: 'exit' });

  it('a hook run in its project starts 5 git processes, one probe among them; run from elsewhere, one more', () => {
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
    assert.deepEqual([...elsewhere.calls].sort(), ['diff', 'diff', 'log', 'rev-parse', 'rev-parse', 'status'], 'the early probe of the wrong folder is one process more');
    const written = (folder: string) => readdirSync(path.join(folder, '.handoff', 'handoffs')).map((f) => readFileSync(path.join(folder, '.handoff', 'handoffs', f), 'utf8'));
    const [a] = written(dir);
    const [b] = written(other);
    // The same sections and touched files either way (ids, times and commits differ).
    const shape = (text: string) => text.split('\n').filter((l) => l.startsWith('## ') || /^- \*\*\S+\*\* `src\//.test(l));
    assert.deepEqual(shape(b), shape(a));
    assert.deepEqual(shape(a).filter((l) => l.startsWith('- ')), ['- **M** `src/a.ts` (+1 / −1)', '- **?** `src/b.ts` (untracked)']);
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

  it('guesses the workspace from --cwd X, --cwd=X, else the process folder; the tokenizer from --tokenizer', () => {
    assert.equal(tokenizerGuess(['hook']), 'o200k_base');
    assert.equal(tokenizerGuess(['handover', '--tokenizer', 'cl100k_base']), 'cl100k_base');
    assert.equal(tokenizerGuess(['handover', '--tokenizer=cl100k_base']), 'cl100k_base');
    assert.equal(workspaceGuess(['hook']), '.');
    assert.equal(workspaceGuess(['handover', '--cwd', 'some/where', '--topic', 't']), 'some/where');
    assert.equal(workspaceGuess(['handover', '--cwd=/abs/path']), '/abs/path');
    assert.equal(workspaceGuess(['handover', '--cwd']), '.');
    // What is started at all: counting and probing subcommands, never for --help.
    assert.deepEqual([countsTokens(['hook']), countsTokens(['record-result']), countsTokens(['specialists']), countsTokens(['hook', '--help'])], [true, true, false, false]);
    assert.deepEqual([findsWorkspace(['draft']), findsWorkspace(['--cwd', 'x', 'hook']), findsWorkspace(['record-result']), findsWorkspace(['handover', '-h'])], [true, false, false, false]);
    // The code cache's entry (src/cli/launch.ts): one per subcommand, `other` for the rest.
    assert.deepEqual(
      [cacheNameOf(['hook']), cacheNameOf(['record-result', '--json']), cacheNameOf([]), cacheNameOf(['--version']), cacheNameOf(['hook', '--help']), cacheNameOf(['../x']), cacheNameOf(['A'.repeat(3)]), cacheNameOf(['a'.repeat(41)])],
      ['hook', 'record-result', 'other', 'other', 'other', 'other', 'other', 'other'],
    );
    assert.deepEqual([isLongLived(['mcp']), isLongLived(['mcp', '--cwd', 'x']), isLongLived(['hook']), isLongLived(['mcp', '--help'])], [true, true, false, false]);
  });

  it('turns V8\'s garbage-collection helper threads off on 2 cores or fewer only', () => {
    assert.deepEqual(gcFlags(1), ['--single-threaded-gc']);
    assert.deepEqual(gcFlags(2), ['--single-threaded-gc']);
    assert.deepEqual(gcFlags(4), []);
  });
});
