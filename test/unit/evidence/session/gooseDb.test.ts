/**
 * Goose's SQLite `sessions.db` (beside the JSON Lines it replaced in `~/.local/share/goose/sessions`), written here
 * with Goose's own tables and columns (test/helpers/gooseDb.ts, from block/goose `session/session_manager.rs`): no
 * public `sessions.db` was found (test/fixtures/real/SOURCES.md). `content_json` holds the same `Message` content as
 * the JSON Lines (test/unit/evidence/session/goose.test.ts). Every Node reads it: `node:sqlite` on 22.13+,
 * node-sqlite3-wasm before.
 */
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionPlan, SessionTurn } from '../../../../src/core/session/events';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findGoose } from '../../../../src/evidence/session/discoveryCliAgents';
import { readGooseSession } from '../../../../src/evidence/session/readers/gooseDb';
import { writeGooseDb, type GooseDbMessage } from '../../../helpers/gooseDb';
import { execSql } from '../../../helpers/sqlite';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const commands = (ev: SessionEvent[]) => ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.cwd]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => e.path);
const turns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}:${t.text}`);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));

const S = 1759320000;
const text = (role: 'user' | 'assistant', t: string, s: number): GooseDbMessage => ({ role, created: S + s, content: [{ type: 'text', text: t }] });
const call = (id: string, name: string, args: object, s: number): GooseDbMessage => ({
  role: 'assistant',
  created: S + s,
  content: [{ type: 'toolRequest', id, toolCall: { status: 'success', value: { name, arguments: args } } }],
});
const result = (id: string, out: string, s: number, isError = false): GooseDbMessage => ({
  role: 'user',
  created: S + s,
  content: [{ type: 'toolResponse', id, toolResult: { status: 'success', value: { content: [{ type: 'text', text: out }], isError } } }],
});
const declined = (id: string, s: number): GooseDbMessage => ({
  role: 'user',
  created: S + s,
  content: [{ type: 'toolResponse', id, toolResult: { status: 'error', error: 'The user has declined to run this tool.' } }],
});

function conversation(ws: string): GooseDbMessage[] {
  return [
    text('user', 'make the date parser tests pass', 0),
    call('call_1', 'shell', { command: 'cargo test' }, 2),
    result('call_1', 'test result: FAILED. 3 passed; 1 failed\n\nCommand exited with code 101', 3, true),
    call('call_2', 'developer__text_editor', { command: 'str_replace', path: path.join(ws, 'src/date.rs'), old_str: 'a', new_str: 'b' }, 4),
    result('call_2', 'The file has been edited', 5),
    call('call_3', 'todo__write', { content: '- [x] Find the off-by-one\n- [ ] Run the tests' }, 6),
    result('call_3', 'Updated', 7),
    call('call_4', 'shell', { command: 'git push --force' }, 8),
    declined('call_4', 9),
    text('assistant', 'The month was off by one; fixed.', 10),
  ];
}

describe("Goose's sessions.db (written here with Goose's tables)", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('read on every Node: commands with exit codes, a declined one not run, edits, the plan, the turns', async () => {
    const ws = path.join(tempDir(), 'dates');
    const sessions = tempDir();
    const db = path.join(sessions, 'sessions.db');
    writeGooseDb(db, [
      { id: '20251001_1', workingDir: ws, updatedAt: '2025-10-01 12:00:10', messages: conversation(ws) },
      { id: '20251001_2', workingDir: '/elsewhere', updatedAt: '2025-10-01 13:00:00', messages: [text('user', 'not this one', 0)] },
    ]);
    const found = await findGoose(sessions, ws);
    assert.deepEqual(
      found.map((f) => [f.source, path.basename(f.file), f.mtimeMs]),
      [['goose', 'sessions.db#20251001_1', Date.UTC(2025, 9, 1, 12, 0, 10)]],
    );
    const r = await readGooseSession(found[0].file, { workspaceRoot: ws });
    assert.equal(r.error, undefined);
    assert.equal(r.file, `${db}#20251001_1`);
    assert.deepEqual(commands(r.events), [
      ['cargo test', 101, true, ws],
      ['git push --force', null, false, ws],
    ]);
    assert.deepEqual(edits(r.events), ['src/date.rs']);
    assert.deepEqual(plans(r.events).at(-1), ['completed:Find the off-by-one', 'pending:Run the tests']);
    assert.deepEqual(turns(r.events), ['user:make the date parser tests pass', 'assistant:The month was off by one; fixed.']);
    assert.equal(r.last_time, (S + 10) * 1000);
    // The database alone: its newest session in the workspace.
    assert.deepEqual(commands((await readGooseSession(db, { workspaceRoot: ws })).events), commands(r.events));
    // Read again after that time: only what came since.
    assert.deepEqual((await readGooseSession(found[0].file, { workspaceRoot: ws, sinceTime: r.last_time })).events, []);
    // Through the collector twice: nothing new the second time; a message added later is all the third read brings.
    const opts = { workspaceRoot: ws, sources: ['goose' as const], locations: { goose: sessions } };
    const first = await collectSessionLog(opts);
    assert.deepEqual(
      first.tests_run.map((t) => [t.command, t.result, t.exit_code]),
      [['cargo test', 'failed', 101]],
    );
    const again = await collectSessionLog({ ...opts, state: first.next_state });
    assert.deepEqual(again.tests_run, [], 'nothing new the second time');
    const added = [call('call_5', 'shell', { command: 'cargo test' }, 20), result('call_5', 'test result: ok. 4 passed; 0 failed', 21)];
    execSql(
      db,
      added
        .map(
          (m) =>
            `INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20251001_1', '${m.role}', '${JSON.stringify(m.content)}', ${m.created});`,
        )
        .join('\n'),
    );
    const third = await collectSessionLog({ ...opts, state: again.next_state });
    assert.deepEqual(
      third.tests_run.map((t) => [t.command, t.result]),
      [['cargo test', 'passed']],
    );
    const missing = await readGooseSession(`${db}#20990101_1`, { workspaceRoot: ws });
    assert.match(missing.error ?? '', /sessions\.db#20990101_1: no such Goose session/);
  });

  it('is detected by its tables under any name; a SQLite file with other tables is not Goose', async () => {
    const dir = tempDir();
    const ws = path.join(dir, 'w');
    const renamed = path.join(dir, 'backup.sqlite');
    writeGooseDb(renamed, [{ id: '20251001_1', workingDir: ws, updatedAt: '2025-10-01 12:00:10', messages: conversation(ws) }]);
    assert.deepEqual(await detectTranscript(renamed), { source: 'goose', format: 'goose', file: renamed });
    assert.deepEqual(await detectTranscript(`${renamed}#20251001_1`), { source: 'goose', format: 'goose', file: `${renamed}#20251001_1` });
    const other = path.join(dir, 'sessions.db');
    execSql(other, 'CREATE TABLE sessions (id TEXT, title TEXT); CREATE TABLE notes (body TEXT);');
    assert.equal(await detectTranscript(other), undefined);
    const got = await collectSessionLog({ workspaceRoot: ws, mode: `${renamed}#20251001_1` });
    assert.deepEqual(
      got.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['goose', 'cargo test', 'failed', 101]],
    );
    assert.deepEqual(
      got.user_requests?.map((q) => q.text),
      ['make the date parser tests pass'],
    );
  });

  it('the newest session for the workspace across sessions.db and the JSON Lines beside it', async () => {
    const sessions = tempDir();
    const ws = path.join(tempDir(), 'app');
    const db = path.join(sessions, 'sessions.db');
    // chrono's RFC 3339 (an imported session) and SQLite's datetime('now') text, compared as times.
    writeGooseDb(db, [
      { id: '20251001_1', workingDir: ws, updatedAt: '2025-10-01T12:30:00.5+00:00', messages: conversation(ws) },
      { id: '20251001_2', workingDir: ws, updatedAt: '2025-10-01 12:10:00', messages: [text('user', 'older', 0)] },
    ]);
    const jsonl = path.join(sessions, '20250513_231848.jsonl');
    write(sessions, '20250513_231848.jsonl', `${JSON.stringify({ working_dir: ws, description: 'x', message_count: 1 })}\n`);
    const older = new Date(Date.UTC(2025, 8, 1)).getTime() / 1000;
    utimesSync(jsonl, older, older);
    assert.deepEqual(
      (await findGoose(sessions, ws)).map((f) => path.basename(f.file)),
      ['sessions.db#20251001_1'],
    );
    const newer = new Date(Date.UTC(2025, 9, 2)).getTime() / 1000;
    utimesSync(jsonl, newer, newer);
    assert.deepEqual(
      (await findGoose(sessions, ws)).map((f) => f.file),
      [jsonl],
    );
  });
});
