/**
 * The sweep of what interrupted writers left (src/store/leftovers.ts), on real folders with
 * real processes: a temporary file is removed when its writer's process no longer runs on
 * this machine, and otherwise only after its age says the writer is gone; a lock folder when
 * proper-lockfile finds it stale; never a live writer's file, never a name that is not ours.
 * And the one mechanism everywhere: every write through a temporary file or under a lock
 * sweeps its folder; the handoff root's `.gitignore` is written before anything it hides, and
 * hides every temporary file and lock folder.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOCK_STALE_MS, lockPathFor, withFileLock } from '../../../src/store/fileLock';
import { LIVE_PID_LEFTOVER_MS, STALE_LEFTOVER_MS, machineTag, removeStaleLeftovers, tempPathFor } from '../../../src/store/leftovers';
import { ROOT_GITIGNORE, ensureRootGitFiles } from '../../../src/store/handoffs/rootGitFiles';
import { stageHandoffFile } from '../../../src/store/handoffs/handoffStore';
import { createExclusive, replaceFileAtomic } from '../../../src/store/safeWrite';
import { cleanupTempDirs, git, initRepo, tempDir } from '../../helpers/repo';
import { gated } from '../../helpers/gate';

/** The id of a process that ran and exited: no process has it now (ids are not reused this soon). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.equal(r.status, 0);
  return r.pid as number;
}

/** A temporary file's name as a writer `pid` on the machine `tag` makes it. */
function tempName(target: string, pid: number, tag: string): string {
  return `.${target}.${pid}-${tag}.0123456789ab.tmp`;
}

/** Makes `name` in `dir` (a file, or a folder when it ends in `.lock`), `ageMs` old. */
function plant(dir: string, name: string, ageMs = 0): string {
  const full = path.join(dir, name);
  if (name.endsWith('.lock')) mkdirSync(full);
  else writeFileSync(full, 'part of a write');
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(full, when, when);
  return full;
}

describe('store: leftovers of interrupted writers', function () {
  this.timeout(20_000);
  let tag = '';
  let otherTag = '';
  const children: ChildProcess[] = [];

  before(async () => {
    tag = await machineTag();
    otherTag = tag === '00000000' ? 'ffffffff' : '00000000';
  });

  after(() => {
    for (const c of children) c.kill('SIGKILL');
    cleanupTempDirs();
  });

  it("names a temporary file hidden, after its target, with this process id and this machine tag; the handoff root's .gitignore hides it from git", async () => {
    const ws = initRepo();
    const root = path.join(ws, '.handoff');
    mkdirSync(path.join(root, 'briefings', 'a-b-2026-01-01'), { recursive: true });
    writeFileSync(path.join(root, '.gitignore'), `${ROOT_GITIGNORE.join('\n')}\n`);
    const tmp = await tempPathFor(path.join(root, 'briefings', 'a-b-2026-01-01', 'x.md'));
    assert.match(path.basename(tmp), new RegExp(`^\\.x\\.md\\.${process.pid}-${tag}\\.[0-9a-f]{12}\\.tmp$`));
    assert.match(tag, /^[0-9a-f]{8}$/);
    for (const file of [tmp, await tempPathFor(path.join(root, '.gitignore')), await tempPathFor(path.join(root, '.gitattributes'))]) {
      writeFileSync(file, 'x');
    }
    mkdirSync(lockPathFor(path.join(root, '.gitignore')));
    writeFileSync(path.join(lockPathFor(path.join(root, '.gitignore')), 'inside'), 'x'); // git lists no empty folder: give it a file
    assert.equal(git(ws, 'status', '--porcelain', '--untracked-files=all'), '?? .handoff/.gitignore\n', 'git shows the .gitignore alone');
  });

  it('removes a temporary file at once when its writer no longer runs on this machine; keeps one of a running writer (this process or another) until a day old', async () => {
    const dir = tempDir();
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    children.push(live);
    const dead = plant(dir, tempName('a.md', deadPid(), tag));
    const mine = plant(dir, tempName('b.md', process.pid, tag), STALE_LEFTOVER_MS * 2);
    const running = plant(dir, tempName('c.md', live.pid as number, tag), STALE_LEFTOVER_MS * 2);
    const reused = plant(dir, tempName('d.md', live.pid as number, tag), LIVE_PID_LEFTOVER_MS + 60_000);
    assert.equal(await removeStaleLeftovers(dir), 2);
    assert.ok(!existsSync(dead), "the dead writer's file, seconds old, is removed");
    assert.ok(existsSync(mine) && existsSync(running), 'the files of running writers stay, though older than 10 minutes');
    assert.ok(!existsSync(reused), "a file older than a day goes although a process has its writer's id: the id was reused");
  });

  it('keeps a temporary file of another machine, or one without a process id, until 10 minutes old', async () => {
    const dir = tempDir();
    const pid = deadPid();
    const young = [
      plant(dir, tempName('a.md', pid, otherTag), STALE_LEFTOVER_MS - 60_000),
      plant(dir, `.b.md.${pid}.0123456789ab.tmp`, STALE_LEFTOVER_MS - 60_000),
    ];
    const old = [
      plant(dir, tempName('c.md', pid, otherTag), STALE_LEFTOVER_MS + 60_000),
      plant(dir, `.d.md.${pid}.0123456789ab.tmp`, STALE_LEFTOVER_MS + 60_000),
    ];
    assert.equal(await removeStaleLeftovers(dir), 2);
    assert.ok(young.every(existsSync), "another machine's process may still run: its file stays while young");
    assert.ok(!old.some(existsSync), 'older than 10 minutes: removed');
  });

  it("removes a lock folder its holder stopped refreshing (through proper-lockfile), never a live holder's, never a folder with something in it", async () => {
    const dir = tempDir();
    const stale = plant(dir, '.a.md.lock', LOCK_STALE_MS + 1000);
    const fresh = plant(dir, '.b.md.lock');
    const notEmpty = plant(dir, '.c.md.lock', LOCK_STALE_MS + 1000);
    writeFileSync(path.join(notEmpty, 'x'), 'x');
    const gitLock = plant(dir, '..gitignore.lock', LOCK_STALE_MS + 1000);
    assert.equal(await removeStaleLeftovers(dir), 2);
    assert.ok(!existsSync(stale) && !existsSync(gitLock), 'the stale locks are gone');
    assert.ok(existsSync(fresh), 'a lock younger than LOCK_STALE_MS may be a live one: it stays');
    assert.ok(existsSync(notEmpty), 'a folder with a file in it is no lock of ours');

    // A live holder refreshes its lock: held longer than LOCK_STALE_MS, it stays.
    const heldDir = tempDir();
    const held = path.join(heldDir, 'held.md');
    await withFileLock(held, async () => {
      await sleep(LOCK_STALE_MS + 600);
      assert.equal(await removeStaleLeftovers(heldDir), 0);
      assert.ok(existsSync(lockPathFor(held)), "the live holder's lock stays");
    });
  });

  it('touches no name that is not one of ours, however old', async () => {
    const dir = tempDir();
    const pid = deadPid();
    const names = [
      'notes.tmp',
      `.x.md.${pid}.tmp`,
      `x.md.${pid}-${tag}.0123456789ab.tmp`,
      `.x.md.${pid}-${tag}.0123456789ab.temp`,
      'plain.md',
      'cache.lock',
      '.other.lock',
    ];
    for (const name of names) plant(dir, name, LIVE_PID_LEFTOVER_MS * 2);
    assert.equal(await removeStaleLeftovers(dir), 0);
    assert.deepEqual(readdirSync(dir).sort(), [...names].sort());
  });

  it('every write sweeps its folder: createExclusive, replaceFileAtomic and withFileLock each remove what a killed writer left beside them', async () => {
    for (const write of [
      async (dir: string) => assert.ok(await createExclusive(path.join(dir, 'new.md'), await gated('new\n'))),
      async (dir: string) => replaceFileAtomic(path.join(dir, 'state.json'), await gated('{}\n')),
      async (dir: string) => withFileLock(path.join(dir, 'briefing.md'), async () => undefined),
    ]) {
      const dir = tempDir();
      const temp = plant(dir, tempName('killed.md', deadPid(), tag));
      const lock = plant(dir, '.killed.md.lock', LOCK_STALE_MS + 1000);
      await write(dir);
      assert.ok(!existsSync(temp) && !existsSync(lock), `swept by the write: ${readdirSync(dir).join(', ')}`);
      assert.deepEqual(
        readdirSync(dir).filter((n) => n.startsWith('.')),
        [],
        'nothing of the write itself is left',
      );
    }
  });

  it("a handoff's write sweeps every briefing folder: what a killed writer left under another topic, which no later handoff writes, is removed", async () => {
    const ws = initRepo();
    const root = path.join(ws, '.handoff');
    const otherTopic = path.join(root, 'briefings', 'quality-reviewer-killed-2026-01-01');
    mkdirSync(otherTopic, { recursive: true });
    writeFileSync(path.join(otherTopic, 'section.md'), 'a section\n');
    const queue = path.join(otherTopic, '.section.md.lock-queue');
    mkdirSync(queue);
    const ticket = plant(queue, `${String(Date.now()).padStart(15, '0')}-${deadPid()}-${tag}-0123abcd`);
    const temp = plant(otherTopic, tempName('section.md', deadPid(), tag));
    const single = plant(path.join(root, 'briefings'), tempName('single.md', deadPid(), tag));
    await stageHandoffFile(ws, path.join(root, 'handoffs'), new Date(), async () => ({ name: await gated('a.md'), content: await gated('---\n---\n') }));
    for (const gone of [ticket, queue, temp, single]) assert.ok(!existsSync(gone), `swept: ${path.relative(root, gone)}`);
    assert.deepEqual(readdirSync(otherTopic), ['section.md'], 'the section itself stays');
  });

  it('ensureRootGitFiles writes .gitignore before .gitattributes (whose temporary file it hides), and sweeps the root even when both are complete', async () => {
    const root = tempDir();
    const events: string[] = [];
    const watcher = watch(root, (_event, name) => {
      if (name) events.push(name);
    });
    try {
      assert.deepEqual(await ensureRootGitFiles(root), []);
      await sleep(100); // inotify events arrive after the writes
    } finally {
      watcher.close();
    }
    const ignoreWritten = events.indexOf('.gitignore');
    const firstAttributesTemp = events.findIndex((n) => n.startsWith('..gitattributes.') && n.endsWith('.tmp'));
    assert.ok(ignoreWritten >= 0 && firstAttributesTemp >= 0, events.join(' '));
    assert.ok(ignoreWritten < firstAttributesTemp, `.gitignore is in place before .gitattributes' temporary file is made: ${events.join(' ')}`);

    // Another root whose two files are complete (a process sweeps a folder once a minute at most).
    const other = tempDir();
    for (const name of ['.gitignore', '.gitattributes']) copyFileSync(path.join(root, name), path.join(other, name));
    const leftover = plant(other, tempName('.gitattributes', deadPid(), tag));
    const before = readFileSync(path.join(other, '.gitignore'), 'utf8');
    assert.deepEqual(await ensureRootGitFiles(other), []);
    assert.ok(!existsSync(leftover), 'the root is swept though nothing was written');
    assert.equal(readFileSync(path.join(other, '.gitignore'), 'utf8'), before);
  });
});
