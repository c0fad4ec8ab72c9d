/**
 * Reliability, "nothing written where it should not be": through the whole engine, every
 * kind of path that could lead a write elsewhere is refused with a clear error and
 * nothing is written — `..`, absolute paths, drive letters, NUL bytes, names reserved on
 * Windows, a `.handoff` (or a folder under it) that is a symbolic link out of the
 * workspace or into `.git`. Every file name written is safe on Windows, macOS and Linux.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { LINK_LOOP_WORDS } from '../../src/core/handoff/fsErrors';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { resolveProjectRoot } from '../../src/engine/agents/agentTool';
import { handover } from '../../src/engine/handover/handover';
import { repoWithWork } from '../helpers/cli';
import { cleanupTempDirs, git, tempDir } from '../helpers/repo';

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== '.git') out.push(...allFiles(p));
    else if (!e.isDirectory()) out.push(p);
  }
  return out;
}

describe('reliability: paths', function () {
  this.timeout(60_000);
  let refused = 0;
  after(() => {
    cleanupTempDirs();
    console.log(`    figures: hostile handoff folders and links refused through the engine: ${refused}, files written outside: 0`);
  });

  it('refuses every hostile handoff folder setting, writing nothing', async () => {
    const dir = repoWithWork();
    const before = allFiles(dir).length;
    const outside = tempDir();
    for (const directory of [
      '..',
      '../x',
      '/tmp/handoff',
      'C:\\handoff',
      'c:handoff',
      'a\u0000b',
      'CON',
      'nul.d/x',
      '.git',
      '.git/handoff',
      'x/../..',
      '~/handoff',
      outside,
    ]) {
      const r = await handover({ specialist: 'hacker', topic: 'x' }, { workspaceRoot: dir, handoffDirectory: directory, sessionLog: { mode: 'none' } });
      assert.equal(r.status, 'error', JSON.stringify(directory));
      assert.ok(r.status === 'error' && /^ERROR: /.test(r.message) && r.field === 'handoff.directory', r.status === 'error' ? r.message : '');
      refused += 1;
    }
    assert.equal(allFiles(dir).length, before);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('refuses a .handoff, or a folder under it, that is a link out of the workspace or into .git', async () => {
    const cases: Array<(dir: string, outside: string) => void> = [
      (dir, outside) => symlinkSync(outside, path.join(dir, '.handoff')),
      (dir, outside) => {
        mkdirSync(path.join(dir, '.handoff'));
        symlinkSync(outside, path.join(dir, '.handoff', 'handoffs'));
      },
      (dir, outside) => {
        mkdirSync(path.join(dir, '.handoff'));
        symlinkSync(outside, path.join(dir, '.handoff', 'briefings'));
      },
      (dir) => symlinkSync(path.join(dir, '.git', 'refs', 'heads'), path.join(dir, '.handoff')),
    ];
    for (const make of cases) {
      const dir = repoWithWork();
      const outside = tempDir();
      make(dir, outside);
      const r = await handover({ specialist: 'hacker', topic: 'x' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } });
      assert.equal(r.status, 'error');
      assert.ok(r.status === 'error');
      assert.match(r.message, /outside the workspace|inside a \.git folder/);
      assert.deepEqual(readdirSync(outside), [], 'nothing written outside');
      refused += 1;
    }
  });

  it("a handoff folder that is a link loop or a link to a missing target is refused in the settings' words, naming the link (and the target); nothing written", async () => {
    const loop = repoWithWork();
    symlinkSync('.handoff', path.join(loop, '.handoff'));
    const loopLink = path.join(loop, '.handoff');
    const dangling = repoWithWork();
    const target = path.join(dangling, 'kept-elsewhere');
    symlinkSync('kept-elsewhere', path.join(dangling, '.handoff'));
    const expected: Array<[string, string]> = [
      [
        loop,
        `ERROR: ${path.join(loopLink, 'briefings')}: ${loopLink} is ${LINK_LOOP_WORDS} — remove the link or point it at a real folder, or set "handoff.directory" to another folder inside the workspace`,
      ],
      [
        dangling,
        `ERROR: ${path.join(dangling, '.handoff')} is a link to a missing target: ${target} does not exist — remove the link or create ${target}, or set "handoff.directory" to another folder inside the workspace`,
      ],
    ];
    for (const [dir, message] of expected) {
      const before = allFiles(dir).length;
      const r = await handover({ specialist: 'hacker', topic: 'x' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } });
      assert.ok(r.status === 'error', JSON.stringify(r).slice(0, 200));
      assert.equal(r.message, message);
      assert.equal(r.field, 'io');
      assert.equal(r.setting, 'handoff.directory', 'a surface words the fix with its own name for the setting');
      assert.equal(allFiles(dir).length, before, 'nothing written');
      refused += 1;
    }
    assert.equal(existsSync(target), false, 'the missing target is not created');
  });

  it('a bare repository or a .git folder opened as the workspace (the panel, the agent tool) is refused naming project_root; nothing written', async () => {
    const parent = tempDir();
    git(parent, 'init', '-q', '--bare', 'origin.git');
    const bare = path.join(parent, 'origin.git');
    const ws = repoWithWork();
    for (const root of [bare, path.join(ws, '.git')]) {
      const before = readdirSync(root).sort();
      const r = await handover({ specialist: 'hacker', topic: 'x' }, { workspaceRoot: root, sessionLog: { mode: 'none' } });
      assert.ok(r.status === 'error', JSON.stringify(r).slice(0, 200));
      assert.equal(
        r.message,
        `ERROR: project_root ${root} is a bare git repository or a repository's .git folder: it has no working tree to hand over from, and nothing is written into it — use the working folder of a clone (git clone <repository> <folder>)`,
      );
      assert.equal(r.field, 'project_root');
      assert.deepEqual(readdirSync(root).sort(), before, 'nothing written');
      refused += 1;
    }
  });

  it("a project_root (the MCP and agent tools' argument) that is a link loop is named as one, not as missing", async () => {
    const dir = tempDir();
    symlinkSync('loop', path.join(dir, 'loop'));
    const loop = path.join(dir, 'loop');
    for (const [given, problem] of [
      [loop, `${loop} is ${LINK_LOOP_WORDS}`],
      [path.join(loop, 'project'), `${path.join(loop, 'project')}: ${loop} is ${LINK_LOOP_WORDS}`],
    ]) {
      assert.deepEqual(await resolveProjectRoot(given, { defaultRoot: undefined }), {
        ok: false,
        text: `ERROR: project_root ${problem} — remove the link, or pass the project folder's real path`,
      });
      refused += 1;
    }
    assert.deepEqual(await resolveProjectRoot(path.join(dir, 'missing'), { defaultRoot: undefined }), {
      ok: false,
      text: `ERROR: project_root ${path.join(dir, 'missing')} does not exist`,
    });
  });

  it('every file name written is portable: no ":" and no reserved names', async () => {
    const dir = repoWithWork();
    const r = HandoverOkSchema.parse(
      await handover({ specialist: 'hacker', topic: 'CON: aux / nul? <>|*' }, { workspaceRoot: dir, sessionLog: { mode: 'none' } }),
    );
    for (const f of allFiles(path.join(dir, '.handoff'))) {
      const name = path.basename(f);
      assert.doesNotMatch(name, /[:<>|*?"\\]/, name);
      assert.doesNotMatch(name.split('.')[0], /^(con|prn|aux|nul|com\d|lpt\d)$/i, name);
    }
    // One file per section in the briefing's folder (issue 20): the folder carries the briefing's name.
    assert.match(path.basename(path.dirname(r.briefing.path)), /^hacker-con-aux-nul-\d{4}-\d{2}-\d{2}$/);
  });
});
