/**
 * The real `specialist-handoff` process finds the workspace's Goose session where Goose keeps its
 * JSON Lines sessions under HOME (a temporary one, `~/.local/share/goose/sessions/<id>.jsonl`, no
 * XDG_DATA_HOME), with no --session-log: the handoff it writes carries the session's test run and
 * the user's request, not another folder's session. Lines in block/goose's shapes
 * (test/unit/evidence/session/goose.test.ts). Newer Goose keeps them in `sessions.db` in the same folder
 * (test/helpers/gooseDb.ts): the database's session for the workspace is read on every Node (`node:sqlite` on
 * 22.13+, node-sqlite3-wasm before).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';
import { writeGooseDb } from '../helpers/gooseDb';

const S = 1747178328;

function session(folder: string, request: string, command: string, output: string): string {
  return [
    { working_dir: folder, description: 'tests', message_count: 3, total_tokens: 100, input_tokens: 80, output_tokens: 20 },
    { role: 'user', created: S, content: [{ type: 'text', text: request }] },
    {
      role: 'assistant',
      created: S + 2,
      content: [{ type: 'toolRequest', id: 'toolu_1', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command } } } }],
    },
    {
      role: 'user',
      created: S + 3,
      content: [{ type: 'toolResponse', id: 'toolu_1', toolResult: { status: 'success', value: [{ type: 'text', text: output }] } }],
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
}

function handover(ws: string, home: string) {
  const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json'], { xdgData: false });
  assert.equal(r.status, 0, r.stderr);
  return HandoverOkSchema.parse(JSON.parse(r.stdout));
}

describe('the CLI finds Goose sessions under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the workspace's session from ~/.local/share/goose/sessions, its test run and request", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-goose-home-'));
    const sessions = '.local/share/goose/sessions';
    write(
      home,
      `${sessions}/20250513_231848.jsonl`,
      session(ws, 'make the failing test pass', 'cargo test', 'test result: FAILED. 3 passed; 1 failed\n\nCommand exited with code 101'),
    );
    write(home, `${sessions}/20250513_231900.jsonl`, session(path.join(home, 'other'), 'another project', 'pytest', '3 passed in 0.1s'));
    const ok = handover(ws, home);
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['goose', 'cargo test', 'failed', 101]],
    );
    assert.deepEqual(
      ok.package.user_requests.map((q) => q.text),
      ['make the failing test pass'],
    );
  });

  it("handover with the default session log: the workspace's session from ~/.local/share/goose/sessions/sessions.db", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-goose-db-home-'));
    const db = path.join(home, '.local/share/goose/sessions/sessions.db');
    // The same `Message`s as the JSON Lines session, without its metadata line: `content_json` holds their content.
    const messages = (request: string, command: string, output: string) =>
      session('', request, command, output)
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as { role: 'user' | 'assistant'; created: number; content: object[] });
    writeGooseDb(db, [
      {
        id: '20251001_1',
        workingDir: ws,
        updatedAt: '2025-10-01 12:00:00',
        messages: messages('make the failing test pass', 'cargo test', 'test result: FAILED. 3 passed; 1 failed\n\nCommand exited with code 101'),
      },
      {
        id: '20251001_2',
        workingDir: path.join(home, 'other'),
        updatedAt: '2025-10-01 13:00:00',
        messages: messages('another project', 'pytest', '3 passed in 0.1s'),
      },
    ]);
    const ok = handover(ws, home);
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['goose', 'cargo test', 'failed', 101]],
    );
    assert.deepEqual(
      ok.package.user_requests.map((q) => q.text),
      ['make the failing test pass'],
    );
  });
});
