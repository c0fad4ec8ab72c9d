/**
 * Transcripts that may not be read (permission denied), in the CLI's words: the real
 * `specialist-handoff` process, spawned from the sources, as a user the file system refuses
 * (as `nobody` through setpriv when the tests run as root, whom no permission stops; as the
 * test's own user otherwise). A transcript named with --session-log that cannot be read is bad
 * input like a missing one: exit 2, one ERROR naming the file, the cause and the fix, nothing
 * written. A transcript found by discovery that cannot be read is a WARNING in words (no error
 * code) and the handoff is still written.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { writeClaudeSession } from '../helpers/claudeSession';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

/** The uid and gid of `nobody` (group `nogroup` or `nobody`), read from /etc/passwd and /etc/group. */
function nobody(): { uid: number; gid: number; group: string } {
  const user = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((l) => l.split(':'))
    .find((f) => f[0] === 'nobody');
  const groups = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .map((l) => l.split(':'));
  const group = groups.find((f) => f[0] === 'nogroup') ?? groups.find((f) => f[0] === 'nobody');
  assert.ok(user && group, 'the tests run as root need the user nobody and its group (nogroup or nobody)');
  return { uid: Number(user[2]), gid: Number(group[2]), group: group[0] };
}

const asRoot = process.getuid?.() === 0;

/** Hands `p` (and what is under it) to the user the CLI runs as. */
function own(p: string): void {
  if (!asRoot) return;
  const { uid, gid } = nobody();
  chownSync(p, uid, gid);
  for (const e of readdirSync(p, { withFileTypes: true, recursive: true })) chownSync(path.join(e.parentPath, e.name), uid, gid);
}

/** A folder the CLI's user owns (its state, its agents' folders). */
function ownDir(prefix: string): string {
  const dir = realpathSync(tempDir(prefix));
  chmodSync(dir, 0o755);
  own(dir);
  return dir;
}

/** Runs the real CLI in `cwd` as a user the file system refuses; `home` holds its state and the agents' folders. */
function run(args: string[], cwd: string, home: string) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
    CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
    CODEX_HOME: path.join(home, 'codex'),
    // The repository belongs to the CLI's user; read no git config it cannot open.
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const node = [process.execPath, ...CLI_FROM_SOURCE, ...args];
  const [command, ...argv] = asRoot ? ['setpriv', '--reuid=nobody', `--regid=${nobody().group}`, '--clear-groups', '--', ...node] : node;
  const r = spawnSync(command, argv, { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, lines: r.stderr.trimEnd().split('\n').filter(Boolean) };
}

/** Every path under `dir` (hidden ones included), relative and sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** A repository with work, owned by the CLI's user (so the handoff it writes once the fix is made can be written). */
function workspace(): string {
  const ws = realpathSync(repoWithWork());
  chmodSync(ws, 0o755);
  own(ws);
  return ws;
}

describe('the CLI on transcripts that may not be read', function () {
  // Every case spawns the real CLI (tsx compiles the sources each time): seconds each on a busy machine.
  this.timeout(300_000);
  after(cleanupTempDirs);

  it('--session-log naming a file or task folder that may not be read: exit 2 naming it, the cause and the fix; nothing written; readable, the same command writes', () => {
    const ws = workspace();
    const home = ownDir('handoff-home-');
    const logs = ownDir('handoff-logs-');
    const transcript = writeClaudeSession(logs, ws);
    const taskFolder = path.join(logs, 'task');
    mkdirSync(path.join(taskFolder));
    const hidden = path.join(logs, 'private');
    mkdirSync(hidden);
    const behind = writeClaudeSession(hidden, ws, '0b8f5d2e-6c1a-4e3b-9d7f-2a4c6e8b0d1f');
    own(logs);
    chmodSync(transcript, 0o000);
    chmodSync(taskFolder, 0o000);
    chmodSync(hidden, 0o000); // the file is readable, the folder on the way is not
    const before = tree(ws);
    const fix = 'make it readable (fix its permissions) or pass another transcript, "auto" or "none"';
    for (const named of [transcript, taskFolder, behind]) {
      for (const command of [['handover', '-s', 'hacker', '-t', 'x'], ['draft'], ['history'], ['record-result', '-s', 'hacker']]) {
        const r = run([...command, '--session-log', named], ws, home);
        assert.equal(r.code, 2, `${command[0]} --session-log ${named}: ${r.err}`);
        assert.deepEqual(r.lines, [`ERROR: --session-log ${named}: permission denied — ${fix}`], `${command[0]} ${named}`);
        assert.doesNotMatch(r.err, /EACCES|WARNING/);
      }
    }
    assert.deepEqual(tree(ws), before, 'nothing written');

    // The fix the message names: the file's permissions. The same command then reads it and writes.
    chmodSync(transcript, 0o644);
    const fixed = run(['handover', '-s', 'hacker', '-t', 'x', '--session-log', transcript, '--json'], ws, home);
    assert.equal(fixed.code, 0, fixed.err);
    const result = JSON.parse(fixed.out) as { package: { tests_run: Array<{ command: string; result: string }> } };
    assert.deepEqual(
      result.package.tests_run.map((t) => [t.command, t.result]),
      [['npm test', 'passed']],
      'the transcript was read: its test run',
    );
  });

  it('a transcript found by discovery that may not be read is a WARNING in words, and the handoff is still written', () => {
    const ws = workspace();
    const home = ownDir('handoff-home-');
    const project = path.join(home, 'claude', 'projects', claudeProjectDirName(ws));
    mkdirSync(project, { recursive: true });
    const transcript = writeClaudeSession(project, ws);
    own(home);
    chmodSync(transcript, 0o000);
    const r = run(['handover', '-s', 'hacker', '-t', 'x'], ws, home);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(
      r.lines.filter((l) => l.startsWith('WARNING:')),
      [`WARNING: Session log: ${transcript} cannot be read: permission denied — it was skipped (make it readable to have it read)`],
    );
    assert.doesNotMatch(r.err, /EACCES|ERROR/);
    assert.equal(readdirSync(path.join(ws, '.handoff', 'handoffs')).length, 1, 'the handoff is written from git');
  });
});
