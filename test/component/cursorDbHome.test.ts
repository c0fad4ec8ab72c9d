/**
 * The real `specialist-handoff` process finds the Cursor IDE's own chat of the workspace under its
 * HOME (a temporary one), in Cursor's `User` folder (`$XDG_CONFIG_HOME/Cursor/User` here):
 * `workspaceStorage/<hash>/` names the folder and its chats, `globalStorage/state.vscdb` holds
 * them. No --session-log. On every Node (`node:sqlite` on 22.13+, node-sqlite3-wasm before) the
 * handoff carries the typed requests, the test runs with their exit codes and the edited file. Records in the shapes readers of real stores
 * document (test/helpers/cursorStateDb.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cursorChatFor, writeCursorUser } from '../helpers/cursorStateDb';
import { cleanupTempDirs, tempDir } from '../helpers/repo';

describe("the CLI finds the Cursor IDE's own chat under HOME", function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the workspace's chat from Cursor's User folder", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-cursordb-home-'));
    const t0 = Date.now() - 600_000;
    writeCursorUser(path.join(home, 'config', 'Cursor', 'User'), [{ hash: '5d41402abc4b2a76b9719d911017c592', folder: ws, composers: [cursorChatFor(t0)] }]);
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.exit_code, t.result]),
      [
        ['cursor', 'npm test', 1, 'failed'],
        ['cursor', 'npm test', 0, 'passed'],
      ],
    );
    assert.deepEqual(
      ok.package.user_requests.map((u) => u.text),
      ['The date parser test fails on leap years; fix it.', 'Skip the clean, just rerun the tests.'],
    );
    assert.ok(JSON.stringify(ok.package.session_edits).includes('src/date.ts'), JSON.stringify(ok.package.session_edits));
    assert.ok(!JSON.stringify(ok.package.session_edits).includes('src/other.ts'), JSON.stringify(ok.package.session_edits));
    assert.ok(
      JSON.stringify(ok.package.session_sources).includes('state.vscdb#3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47'),
      JSON.stringify(ok.package.session_sources),
    );
  });
});
