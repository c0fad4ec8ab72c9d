/**
 * Paths that lead nowhere, in the CLI's words: the real `specialist-handoff` process, spawned
 * from the sources, on real temporary git repositories and real links. A link loop (a link
 * that points back to itself) is named as one, with the link — never "no such file"; a
 * handoff folder that is a link to a missing target names the link, the target and the fix;
 * a bare repository or a .git folder is refused, and nothing is written into it. Exit 2 for
 * what was typed (--cwd, --session-log, --summary-file), 1 for what could not be written
 * (the handoff folder), and the hook never exits 2.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { LINK_LOOP_WORDS } from '../../src/core/handoff/fsErrors';
import { CLI_FROM_SOURCE, repoWithWork } from '../helpers/cli';
import { GIT_ENV, cleanupTempDirs, git, tempDir } from '../helpers/repo';

/** Runs the real CLI in `cwd`, with `input` on standard input. */
function run(args: string[], cwd: string, input = '') {
  const r = spawnSync(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd, input, encoding: 'utf8', env: process.env, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, lines: r.stderr.trimEnd().split('\n').filter(Boolean) };
}

/** Every path under `dir`, links and hidden files included, relative and sorted (not following links). */
function tree(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = e.name;
    out.push(rel);
    if (e.isDirectory()) out.push(...tree(path.join(dir, e.name)).map((r) => `${rel}/${r}`));
  }
  return out.sort();
}

const HANDOVER = ['handover', '-s', 'hacker', '-t', 'x'];

/** A folder holding a two-link loop `a` → `b` → `a` and a link `self` to itself. */
function loops(): { dir: string; a: string; self: string } {
  const dir = realpathSync(tempDir('handoff-loops-'));
  symlinkSync('b', path.join(dir, 'a'));
  symlinkSync('a', path.join(dir, 'b'));
  symlinkSync('self', path.join(dir, 'self'));
  return { dir, a: path.join(dir, 'a'), self: path.join(dir, 'self') };
}

describe('the CLI on paths that lead nowhere: link loops, dangling links, bare repositories', function () {
  // Every case spawns the real CLI (tsx compiles the sources each time): seconds each on a busy machine.
  this.timeout(300_000);
  after(cleanupTempDirs);

  it('a link loop as --session-log, --summary-file or --cwd is bad input (exit 2) naming the link as a link loop, and nothing is written', () => {
    const ws = repoWithWork();
    const { dir, a, self } = loops();
    const before = tree(ws);
    const loopFix = 'remove the link or point it at the transcript, or pass another path, "auto" or "none"';
    const cases: Array<[string[], string]> = [
      [['--session-log', a], `ERROR: --session-log ${a}: it is ${LINK_LOOP_WORDS} — ${loopFix}`],
      [['--session-log', self], `ERROR: --session-log ${self}: it is ${LINK_LOOP_WORDS} — ${loopFix}`],
      // A file named through a folder that is a loop: the loop is the folder, and it is named.
      [['--session-log', path.join(a, 'session.jsonl')], `ERROR: --session-log ${path.join(a, 'session.jsonl')}: ${a} is ${LINK_LOOP_WORDS} — ${loopFix}`],
      [
        ['--summary-file', self],
        `ERROR: --summary-file ${self} cannot be read: ${LINK_LOOP_WORDS} — remove the link or point it at the summary, or pass another file, or - for standard input`,
      ],
      [['--cwd', a], `ERROR: --cwd ${a} is ${LINK_LOOP_WORDS} — remove the link or point it at a real folder`],
      [
        ['--cwd', path.join(self, 'sub')],
        `ERROR: --cwd ${path.join(self, 'sub')}: ${self} is ${LINK_LOOP_WORDS} — remove the link or point it at a real folder`,
      ],
    ];
    for (const [args, line] of cases) {
      const r = run([...HANDOVER, ...args], ws);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.deepEqual(r.lines, [line], args.join(' '));
      assert.doesNotMatch(r.err, /no such file|ELOOP|ENOENT/);
    }
    for (const command of [['draft'], ['history'], ['record-result', '-s', 'hacker']]) {
      const r = run([...command, '--session-log', a], ws);
      assert.equal(r.code, 2, `${command[0]}: ${r.err}`);
      assert.deepEqual(r.lines, [`ERROR: --session-log ${a}: it is ${LINK_LOOP_WORDS} — ${loopFix}`], command[0]);
    }
    assert.deepEqual(tree(ws), before, 'nothing written');
    assert.deepEqual(readdirSync(dir).sort(), ['a', 'b', 'self'], 'the links are left as they were');
  });

  it('hook: a transcript_path that is a link loop is named as one (not "not found"), and the safety net is written from git', () => {
    const ws = repoWithWork();
    const { self } = loops();
    const r = run(['hook'], ws, JSON.stringify({ session_id: 's1', transcript_path: self, cwd: ws, hook_event_name: 'SessionEnd', reason: 'exit' }));
    assert.equal(r.code, 0, r.err);
    assert.equal(r.lines.length, 1, r.err);
    assert.ok(r.lines[0].includes(`transcript_path ${self} is ${LINK_LOOP_WORDS}, not a transcript file: not read, git only`), r.lines[0]);
    assert.equal(readdirSync(path.join(ws, '.handoff', 'handoffs')).length, 1);
  });

  it('a handoff folder that is a link loop: exit 1 naming the link as a link loop and --dir; nothing written; a real folder then works', () => {
    const ws = repoWithWork();
    symlinkSync('.handoff', path.join(ws, '.handoff'));
    const before = tree(ws);
    const r = run([...HANDOVER, '--session-log', 'none'], ws);
    assert.equal(r.code, 1, r.err);
    const link = path.join(ws, '.handoff');
    assert.deepEqual(r.lines, [
      `ERROR: ${path.join(link, 'briefings')}: ${link} is ${LINK_LOOP_WORDS} — remove the link or point it at a real folder, or pass --dir with another folder inside the workspace`,
    ]);
    assert.deepEqual(tree(ws), before, 'nothing written');
    // The reading commands name it too (a folder that cannot be read: exit 1), never as a missing folder.
    for (const command of [['prompt'], ['history']]) {
      const r = run(command, ws);
      assert.equal(r.code, 1, `${command[0]}: ${r.err}`);
      assert.deepEqual(
        r.lines,
        [`ERROR: cannot list ${path.join(link, 'handoffs')}: ${link} is ${LINK_LOOP_WORDS} — remove the link or point it at a real folder`],
        command[0],
      );
    }
    // The fix the message names: another --dir.
    const other = run([...HANDOVER, '--session-log', 'none', '--dir', 'handoffs-here'], ws);
    assert.equal(other.code, 0, other.err);
    assert.equal(readdirSync(path.join(ws, 'handoffs-here', 'handoffs')).length, 1);
  });

  it('a handoff folder that is a link to a missing target: exit 1 naming the link, the target and the fix; nothing created; creating the target fixes it', () => {
    const ws = repoWithWork();
    const target = path.join(ws, 'kept-elsewhere');
    symlinkSync('kept-elsewhere', path.join(ws, '.handoff'));
    const before = tree(ws);
    const r = run([...HANDOVER, '--session-log', 'none'], ws);
    assert.equal(r.code, 1, r.err);
    const link = path.join(ws, '.handoff');
    assert.deepEqual(r.lines, [
      `ERROR: ${link} is a link to a missing target: ${target} does not exist — remove the link or create ${target}, or pass --dir with another folder inside the workspace`,
    ]);
    assert.doesNotMatch(r.err, /ENOENT|handoff\.directory/);
    assert.deepEqual(tree(ws), before, 'nothing written, the target not created');
    // --dir naming a dangling link: the same words.
    symlinkSync(path.join(ws, 'nowhere'), path.join(ws, 'dangling'));
    const viaDir = run([...HANDOVER, '--session-log', 'none', '--dir', 'dangling/inner'], ws);
    assert.equal(viaDir.code, 1, viaDir.err);
    assert.deepEqual(viaDir.lines, [
      `ERROR: ${path.join(ws, 'dangling')} is a link to a missing target: ${path.join(ws, 'nowhere')} does not exist — remove the link or create ${path.join(ws, 'nowhere')}, or pass --dir with another folder inside the workspace`,
    ]);
    assert.equal(existsSync(path.join(ws, 'nowhere')), false);
    // The fix the message names: create the target. The same command then writes through the link.
    mkdirSync(target);
    const fixed = run([...HANDOVER, '--session-log', 'none'], ws);
    assert.equal(fixed.code, 0, fixed.err);
    assert.equal(readdirSync(path.join(target, 'handoffs')).length, 1);
  });

  it('a bare repository or a .git folder is refused (exit 2; the hook exits 1, never 2) and nothing is written into it', () => {
    const parent = realpathSync(tempDir('handoff-bare-'));
    git(parent, 'init', '-q', '--bare', 'origin.git');
    const bare = path.join(parent, 'origin.git');
    const ws = repoWithWork();
    const gitDir = path.join(ws, '.git');
    const bareBefore = tree(bare);
    const gitBefore = tree(gitDir);
    const bareLine = `ERROR: --cwd ${bare} is a bare git repository: it has no working tree to hand over from, and nothing is written into it — run it in the working folder of a clone (git clone ${bare} <folder>)`;
    const gitDirLine = (dir: string) =>
      `ERROR: --cwd ${dir} is inside a git repository's own folder (.git): handoffs are never written among git's data — run it in the repository's working folder`;

    const inBare = run([...HANDOVER, '--session-log', 'none'], bare);
    assert.equal(inBare.code, 2, inBare.err);
    assert.deepEqual(inBare.lines, [bareLine]);
    const named = run([...HANDOVER, '--session-log', 'none', '--cwd', bare], parent);
    assert.equal(named.code, 2, named.err);
    assert.deepEqual(named.lines, [bareLine]);
    for (const dir of [gitDir, path.join(gitDir, 'refs')]) {
      const r = run([...HANDOVER, '--session-log', 'none'], dir);
      assert.equal(r.code, 2, r.err);
      assert.deepEqual(r.lines, [gitDirLine(dir)]);
    }
    for (const command of [['record-result', '-s', 'hacker', '--session-log', 'none'], ['export-agents', '--target', 'claude'], ['mcp']]) {
      const r = run([...command, '--cwd', bare], parent);
      assert.equal(r.code, 2, `${command[0]}: ${r.err}`);
      assert.deepEqual(r.lines, [bareLine], command[0]);
    }
    // The hook, from the hook input's folder or --cwd: exit 1, never 2, and nothing written.
    const input = (cwd: string) =>
      JSON.stringify({ session_id: 's1', transcript_path: path.join(cwd, 'none.jsonl'), cwd, hook_event_name: 'SessionEnd', reason: 'exit' });
    const hook = run(['hook'], parent, input(bare));
    assert.equal(hook.code, 1, hook.err);
    assert.deepEqual(hook.lines, [
      `ERROR: the hook input's cwd ${bare} is a bare git repository: it has no working tree to hand over from, and nothing is written into it — run it in the working folder of a clone (git clone ${bare} <folder>)`,
    ]);
    const hookCwd = run(['hook', '--cwd', gitDir], parent, input(ws));
    assert.equal(hookCwd.code, 1, hookCwd.err);
    assert.deepEqual(hookCwd.lines, [
      `ERROR: --cwd ${gitDir} is inside a git repository's own folder (.git): handoffs are never written among git's data — run it in the repository's working folder`,
    ]);

    assert.deepEqual(tree(bare), bareBefore, 'nothing written into the bare repository');
    assert.deepEqual(
      tree(gitDir).filter((p) => !/^(index|logs|FETCH_HEAD|ORIG_HEAD)/.test(p)),
      gitBefore.filter((p) => !/^(index|logs|FETCH_HEAD|ORIG_HEAD)/.test(p)),
      'nothing written into .git',
    );
    assert.equal(existsSync(path.join(gitDir, '.handoff')), false);
    // The fix the message names: a clone's working folder.
    assert.equal(spawnSync('git', ['clone', '-q', bare, 'work'], { cwd: parent, env: GIT_ENV }).status, 0);
    const clone = run([...HANDOVER, '--session-log', 'none'], path.join(parent, 'work'));
    assert.equal(clone.code, 0, clone.err);
  });
});
