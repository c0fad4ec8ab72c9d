/**
 * Zed's agent threads (`threads/threads.db` in Zed's data folder), written here with Zed's own table and serialized
 * shapes (test/helpers/zedDb.ts, from zed-industries/zed `crates/agent/src/db.rs`, `thread.rs` and the terminal tool's
 * `process_content`): no public threads.db was found (test/fixtures/real/SOURCES.md). Every Node reads them: with
 * `node:sqlite` and zlib's zstd where it has them (22.15+), else with node-sqlite3-wasm and fzstd.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionTurn } from '../../../../src/core/session/events';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findZed } from '../../../../src/evidence/session/discoveryCliAgents';
import { readZedDb } from '../../../../src/evidence/session/readers/zedDb';
import { execSql } from '../../../helpers/sqlite';
import { writeZedDb, zedAgent, zedUser, type ZedMessage } from '../../../helpers/zedDb';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (ev: SessionEvent[]) => ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.cwd]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const turns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}:${t.text}`);

/** A thread in `ws` (its worktree root name is the folder's name): the terminal tool's results as `process_content` words them. */
function conversation(ws: string): ZedMessage[] {
  const root = path.basename(ws);
  return [
    {
      User: {
        id: 'u1',
        content: [{ Text: 'make the date parser tests pass' }, { Mention: { uri: { File: { abs_path: `${ws}/src/date.rs` } }, content: 'fn parse() {}' } }],
      },
    },
    zedAgent('Running the tests first.', [
      ['terminal', { command: 'cargo test', cd: root }, 'Command "cargo test" failed with exit code 101.\n\n```\ntest result: FAILED. 3 passed; 1 failed\n```'],
      ['read_file', { path: `${root}/src/date.rs` }, 'fn parse() {}'],
      ['edit_file', { display_description: 'Fix the month', path: `${root}/src/date.rs`, mode: 'edit' }, 'Edited src/date.rs'],
      ['delete_path', { path: `${root}/src/old.rs` }, 'Deleted src/old.rs'],
      ['terminal', { command: 'git push --force', cd: '.' }, 'Permission to run tool denied by user', true],
      ['terminal', { command: 'cargo test', cd: root }, '```\ntest result: ok. 4 passed; 0 failed\n```'],
    ]),
    'Resume',
    zedAgent('The month was off by one; fixed.'),
  ];
}

describe("Zed's agent threads (threads.db written here with Zed's table)", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('read on every Node: commands with exit codes, a refused one not run, edits, the turns', async () => {
    const ws = path.join(tempDir(), 'dates');
    const threads = tempDir();
    const db = path.join(threads, 'threads.db');
    writeZedDb(db, [
      { id: 'a1b2', title: 'Date parser', updatedAt: '2025-10-01T12:00:10+00:00', folders: [ws], messages: conversation(ws) },
      { id: 'c3d4', title: 'Elsewhere', updatedAt: '2025-10-01T13:00:00+00:00', folders: ['/elsewhere'], messages: [zedUser('not this one')] },
    ]);
    const found = await findZed(threads, ws);
    assert.deepEqual(
      found.map((f) => [f.source, path.basename(f.file), f.mtimeMs]),
      [['zed', 'threads.db#a1b2', Date.UTC(2025, 9, 1, 12, 0, 10)]],
    );
    const r = await readZedDb(found[0].file, { workspaceRoot: ws });
    assert.equal(r.error, undefined);
    assert.equal(r.file, `${db}#a1b2`);
    assert.deepEqual(commands(r.events), [
      ['cargo test', 101, true, ws],
      ['git push --force', null, false, ws],
      ['cargo test', 0, true, ws],
    ]);
    assert.deepEqual(edits(r.events), [
      ['src/date.rs', 'edit_file'],
      ['src/old.rs', 'delete_path'],
    ]);
    // The mention is context, not the request; the agent's words are its own turns.
    assert.deepEqual(turns(r.events), [
      'user:make the date parser tests pass',
      'assistant:Running the tests first.',
      'assistant:The month was off by one; fixed.',
    ]);
    // Four messages, 1 ms apart from the thread's creation.
    assert.equal(r.last_time, Date.UTC(2025, 9, 1, 12, 0, 10) + 4);
    // The database alone: its newest thread in the workspace.
    assert.deepEqual(commands((await readZedDb(db, { workspaceRoot: ws })).events), commands(r.events));
    assert.deepEqual((await readZedDb(found[0].file, { workspaceRoot: ws, sinceTime: r.last_time })).events, []);
    // Through the collector twice: nothing new the second time; a message Zed saves later is all the third read brings.
    const opts = { workspaceRoot: ws, sources: ['zed' as const], locations: { zed: threads } };
    const first = await collectSessionLog(opts);
    assert.deepEqual(
      first.tests_run.map((t) => [t.command, t.result, t.exit_code]),
      [
        ['cargo test', 'failed', 101],
        ['cargo test', 'passed', 0],
      ],
    );
    assert.deepEqual(
      first.user_requests?.map((q) => q.text),
      ['make the date parser tests pass'],
    );
    const again = await collectSessionLog({ ...opts, state: first.next_state });
    assert.deepEqual(again.tests_run, [], 'nothing new the second time');
    writeZedDb(db, [
      {
        id: 'a1b2',
        title: 'Date parser',
        updatedAt: '2025-10-01T12:05:00+00:00',
        folders: [ws],
        messages: [
          ...conversation(ws),
          zedUser('run them once more'),
          zedAgent('', [['terminal', { command: 'cargo test', cd: '.' }, 'Command executed successfully.']]),
        ],
      },
    ]);
    const third = await collectSessionLog({ ...opts, state: again.next_state });
    assert.deepEqual(
      third.tests_run.map((t) => [t.command, t.result]),
      [['cargo test', 'passed']],
    );
    assert.deepEqual(
      third.user_requests?.map((q) => q.text),
      ['run them once more'],
    );
    const missing = await readZedDb(`${db}#nope`, { workspaceRoot: ws });
    assert.match(missing.error ?? '', /threads\.db#nope: no such Zed agent thread/);
  });

  it("is detected by its table under any name; a SQLite file with another threads table is not Zed's", async () => {
    const dir = tempDir();
    const ws = path.join(dir, 'w');
    const renamed = path.join(dir, 'backup.sqlite');
    writeZedDb(renamed, [{ id: 'a1b2', title: 'x', updatedAt: '2025-10-01T12:00:10Z', folders: [ws], messages: conversation(ws), dataType: 'json' }]);
    assert.deepEqual(await detectTranscript(renamed), { source: 'zed', format: 'zed', file: renamed });
    assert.deepEqual(await detectTranscript(`${renamed}#a1b2`), { source: 'zed', format: 'zed', file: `${renamed}#a1b2` });
    const other = path.join(dir, 'threads.db');
    execSql(other, 'CREATE TABLE threads (id TEXT, title TEXT, body TEXT);');
    assert.equal(await detectTranscript(other), undefined);
    // 'json' rows (older builds) are read too.
    const got = await collectSessionLog({ workspaceRoot: ws, mode: `${renamed}#a1b2` });
    assert.deepEqual(
      got.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [
        ['zed', 'cargo test', 'failed', 101],
        ['zed', 'cargo test', 'passed', 0],
      ],
    );
  });

  it("a row of Zed's first table (no folder_paths) is matched by its project snapshot's worktrees; the newest thread of the workspace wins", async () => {
    const threads = tempDir();
    const ws = path.join(tempDir(), 'app');
    const db = path.join(threads, 'threads.db');
    writeZedDb(
      db,
      [
        { id: 'old', title: 'older', updatedAt: '2025-10-01T12:10:00Z', folders: [ws], messages: [zedUser('older')], dataType: 'json' },
        { id: 'new', title: 'newer', updatedAt: '2025-10-01T12:30:00.500Z', folders: [ws], messages: [zedUser('newer')], dataType: 'json' },
        { id: 'far', title: 'other', updatedAt: '2025-10-02T00:00:00Z', folders: ['/other'], messages: [zedUser('other')], dataType: 'json' },
      ],
      true,
    );
    const found = await findZed(threads, ws);
    assert.deepEqual(
      found.map((f) => [path.basename(f.file), f.mtimeMs]),
      [['threads.db#new', Date.UTC(2025, 9, 1, 12, 30, 0, 500)]],
    );
    assert.deepEqual(turns((await readZedDb(found[0].file, { workspaceRoot: ws })).events), ['user:newer']);
    assert.deepEqual(await findZed(path.join(threads, 'none'), ws), []);
  });
});
