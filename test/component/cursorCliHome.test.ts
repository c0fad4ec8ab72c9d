/**
 * The real `specialist-handoff` process finds the Cursor Agent CLI's chat of the workspace under its
 * HOME (a temporary one), in `~/.cursor/chats/<md5 of the workspace path>/<chat id>/store.db`, with no
 * --session-log: the handoff carries its test runs on every Node (`node:sqlite` on 22.13+, node-sqlite3-wasm before). Store in the documented shapes (test/helpers/cursorCliStore.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { cursorCliWorkspaceHash } from '../../src/evidence/session/readers/cursorCli';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cursorCliChat, writeCursorCliStore } from '../helpers/cursorCliStore';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

describe("the CLI finds the Cursor Agent CLI's chat under HOME", function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the chat's test runs, from ~/.cursor/chats", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-cursor-cli-home-'));
    writeCursorCliStore(
      path.join(home, '.cursor', 'chats', cursorCliWorkspaceHash(ws), '3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47'),
      ws,
      Date.now() - 60_000,
      cursorCliChat(),
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result]),
      [
        ['cursor', 'npm test', 'failed'],
        ['cursor', 'npm test', 'passed'],
      ],
    );
  });
});
