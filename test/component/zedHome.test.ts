/**
 * The real `specialist-handoff` process finds the workspace's Zed agent thread where Zed keeps them under HOME (a
 * temporary one: `~/.local/share/zed/threads/threads.db`, no XDG_DATA_HOME), with no --session-log: the handoff it
 * writes carries the thread's test run and the user's request, not another folder's thread. The database is written
 * with Zed's table and shapes (test/helpers/zedDb.ts). Every Node reads it: `node:sqlite` and zlib's zstd on Node
 * 22.15+ (`npm run test:lts`), node-sqlite3-wasm and fzstd before.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir } from '../helpers/repo';
import { writeZedDb, zedAgent, zedUser } from '../helpers/zedDb';

function handover(ws: string, home: string) {
  const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json'], { xdgData: false });
  assert.equal(r.status, 0, r.stderr);
  return HandoverOkSchema.parse(JSON.parse(r.stdout));
}

describe("the CLI finds Zed's agent threads under HOME", function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the workspace's thread from ~/.local/share/zed/threads/threads.db", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-zed-home-'));
    const db = path.join(home, '.local/share/zed/threads/threads.db');
    const thread = (request: string, command: string, output: string) => [zedUser(request), zedAgent('', [['terminal', { command, cd: '.' }, output]])];
    writeZedDb(db, [
      {
        id: 'thread-1',
        title: 'Failing test',
        updatedAt: '2025-10-01T12:00:00+00:00',
        folders: [ws],
        messages: thread(
          'make the failing test pass',
          'cargo test',
          'Command "cargo test" failed with exit code 101.\n\n```\ntest result: FAILED. 3 passed; 1 failed\n```',
        ),
      },
      {
        id: 'thread-2',
        title: 'Other',
        updatedAt: '2025-10-01T13:00:00+00:00',
        folders: [path.join(home, 'other')],
        messages: thread('another project', 'pytest', '```\n3 passed in 0.1s\n```'),
      },
    ]);
    const ok = handover(ws, home);
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['zed', 'cargo test', 'failed', 101]],
    );
    assert.deepEqual(
      ok.package.user_requests.map((q) => q.text),
      ['make the failing test pass'],
    );
  });
});
