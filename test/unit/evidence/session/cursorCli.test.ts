import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit, SessionPlan, SessionTurn, TranscriptRead } from '../../../../src/core/session/events';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { cursorProjectKey, findCursor } from '../../../../src/evidence/session/discoveryCliAgents';
import { blobChildren, cursorCliWorkspaceHash, readCursorCli } from '../../../../src/evidence/session/readers/cursorCli';
import { execSql } from '../../../helpers/sqlite';
import { cursorCliChat, writeCursorCliStore } from '../../../helpers/cursorCliStore';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (r: TranscriptRead) =>
  r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.output_tail]);
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}: ${t.text}`);
const edits = (r: TranscriptRead) => r.events.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const plans = (r: TranscriptRead) => r.events.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}: ${i.text}`));

describe("Cursor Agent CLI's own chat store (store.db written here in the shapes readers of real stores document)", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);
  const t0 = Date.UTC(2026, 3, 1, 9, 0, 0);

  function setup() {
    const ws = path.join(tempDir(), 'dates');
    const cursorDir = path.join(tempDir(), '.cursor');
    const chats = path.join(cursorDir, 'chats', cursorCliWorkspaceHash(ws));
    const older = writeCursorCliStore(path.join(chats, '0a1b2c3d-0000-4000-8000-000000000001'), ws, t0 - 86_400_000, [
      { role: 'user', content: '<user_query>An older chat.</user_query>' },
    ]);
    utimesSync(older, new Date(t0 - 86_000_000), new Date(t0 - 86_000_000));
    const store = writeCursorCliStore(path.join(chats, '3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47'), ws, t0, cursorCliChat());
    utimesSync(store, new Date(t0 + 60_000), new Date(t0 + 60_000));
    writeCursorCliStore(path.join(cursorDir, 'chats', cursorCliWorkspaceHash(path.join(tempDir(), 'other')), 'c1'), ws, t0, [
      { role: 'user', content: '<user_query>Another folder.</user_query>' },
    ]);
    return { ws, cursorDir, store };
  }

  it('the folder of a workspace is the MD5 of its absolute path', function () {
    assert.equal(cursorCliWorkspaceHash('/Users/me/app'), createHash('md5').update('/Users/me/app').digest('hex'));
    assert.match(cursorCliWorkspaceHash('/Users/me/app'), /^[0-9a-f]{32}$/);
  });

  it('a root list names its messages in order, other fields skipped; text that is not protobuf is not a list', function () {
    const a = Buffer.alloc(32, 0xab);
    const b = Buffer.alloc(32, 0xcd);
    const uri = Buffer.from('file:///w');
    const root = Buffer.concat([Buffer.from([0x0a, 0x20]), a, Buffer.from([0x0a, 0x20]), b, Buffer.from([0x4a, uri.length]), uri, Buffer.from([0x10, 0x05])]);
    assert.deepEqual(blobChildren(root), { children: [a.toString('hex'), b.toString('hex')], otherRefs: 0 });
    // Turns listed in field 8 (a newer store): references of a format not read here.
    assert.deepEqual(blobChildren(Buffer.concat([Buffer.from([0x42, 0x20]), a])), { children: [], otherRefs: 1 });
    assert.equal(blobChildren(Buffer.from([0x0a, 0x20, 1, 2])), undefined);
    assert.equal(blobChildren(Buffer.from([0x0f])), undefined);
  });

  it("finds the workspace's newest chat and reads the user's words, commands with their output, edits and the plan", async function () {
    const { ws, cursorDir, store } = setup();
    const found = await findCursor(cursorDir, ws);
    assert.deepEqual(
      found.map((f) => [f.source, f.file, f.mtimeMs]),
      [['cursor', store, t0 + 60_000]],
    );
    const got = await readByContent(store, { workspaceRoot: ws });
    assert.equal(got?.detected.source, 'cursor');
    const r = got!.read;
    assert.equal(r.error, undefined);
    assert.deepEqual(turns(r), [
      'user: The date parser fails on leap years; fix it.',
      "assistant: I'll run the tests first.",
      'assistant: Leap years parse correctly now; all 5 tests pass.',
    ]);
    assert.deepEqual(commands(r), [
      ['npm test', null, true, 'Tests: 1 failed, 4 passed, 5 total'],
      ['npm test', null, true, 'Tests: 5 passed, 5 total'],
    ]);
    assert.deepEqual(edits(r), [['src/date.ts', 'StrReplace']]);
    assert.deepEqual(plans(r).at(-1), ['completed: Fix leap-year parsing', 'completed: Run the tests']);
    // Ten messages, one ms apart from the chat's creation.
    assert.equal(r.last_time, t0 + 10);
    const since = await readCursorCli(store, { workspaceRoot: ws, sinceTime: r.last_time });
    assert.deepEqual([commands(since), turns(since)], [[], []]);
    // Messages added later are read, the ones before are not read again; a call whose result never came did not run.
    writeCursorCliStore(path.dirname(store), ws, t0, [
      ...cursorCliChat(),
      { id: '2', role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'toolu_6', toolName: 'Shell', args: { command: 'rm -rf dist' } }] },
      { role: 'user', content: '<user_query>Now run the linter.</user_query>' },
    ]);
    const later = await readCursorCli(store, { workspaceRoot: ws, sinceTime: r.last_time });
    assert.deepEqual(turns(later), ['user: Now run the linter.']);
    assert.deepEqual(commands(later), [['rm -rf dist', null, false, undefined]]);
  });

  it('a store.db without the tables is no chat of the CLI; a chat without its metadata says so', async function () {
    const ws = tempDir();
    const store = writeCursorCliStore(path.join(tempDir(), 'x'), ws, t0, [{ role: 'user', content: 'hi' }]);
    execSql(store, 'DELETE FROM meta');
    assert.match((await readCursorCli(store)).error ?? '', /no Cursor Agent CLI chat metadata \(meta row 0\)/);
    // A root listing its turns elsewhere (newer builds): the read says so rather than reading an empty chat.
    const nested = writeCursorCliStore(path.join(tempDir(), 'y'), ws, t0, [{ role: 'user', content: '<user_query>hi</user_query>' }], 8);
    const n = await readCursorCli(nested);
    assert.deepEqual(n.events, []);
    assert.match(n.error ?? '', /lists its messages in a store format not read here/);
    const other = path.join(tempDir(), 'store.db');
    execSql(other, 'CREATE TABLE t (a)');
    assert.equal(await readByContent(other, {}), undefined);
  });

  it('the newest of agent transcripts and CLI chats is read', async function () {
    const { ws, cursorDir, store } = setup();
    const dir = path.join(cursorDir, 'projects', cursorProjectKey(ws), 'agent-transcripts', 'abc');
    mkdirSync(dir, { recursive: true });
    const transcript = path.join(dir, 'abc.jsonl');
    writeFileSync(transcript, JSON.stringify({ role: 'user', message: { content: [{ type: 'text', text: '<user_query>hi</user_query>' }] } }) + '\n');
    utimesSync(transcript, new Date(t0 + 30_000), new Date(t0 + 30_000));
    assert.deepEqual(
      (await findCursor(cursorDir, ws)).map((f) => f.file),
      [store],
    );
    utimesSync(transcript, new Date(t0 + 90_000), new Date(t0 + 90_000));
    assert.deepEqual(
      (await findCursor(cursorDir, ws)).map((f) => f.file),
      [transcript],
    );
    // A running chat writes its log: the log's time counts.
    writeFileSync(`${store}-wal`, '');
    utimesSync(`${store}-wal`, new Date(t0 + 120_000), new Date(t0 + 120_000));
    assert.deepEqual(
      (await findCursor(cursorDir, ws)).map((f) => f.file),
      [store],
    );
  });

  it('collected from ~/.cursor: test runs with their results from the output, nothing new the second time', async function () {
    const { ws, cursorDir } = setup();
    const opts = { workspaceRoot: ws, sources: ['cursor' as const], locations: { cursor: cursorDir } };
    const first = await collectSessionLog(opts);
    assert.deepEqual(
      first.tests_run.map((t) => [t.command, t.result, t.source]),
      [
        ['npm test', 'failed', 'cursor'],
        ['npm test', 'passed', 'cursor'],
      ],
    );
    const again = await collectSessionLog({ ...opts, state: first.next_state });
    assert.deepEqual(again.tests_run, [], 'nothing new the second time');
  });
});
