import assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit, SessionPlan, SessionTurn, TranscriptRead } from '../../../../src/core/session/events';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { cursorProjectKey, findCursor } from '../../../../src/evidence/session/discoveryCliAgents';
import { readCursorDb } from '../../../../src/evidence/session/readers/cursorDb';
import { cursorChatFor, writeCursorUser } from '../../../helpers/cursorStateDb';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (r: TranscriptRead) => r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran]);
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}: ${t.text}`);
const edits = (r: TranscriptRead) => r.events.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const plans = (r: TranscriptRead) => r.events.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}: ${i.text}`));

describe("Cursor IDE's own chat store (state.vscdb written here in the shapes readers of real stores document)", function () {
  this.timeout(30_000);
  after(cleanupTempDirs);
  const t0 = Date.UTC(2026, 3, 1, 9, 0, 0);

  function setup() {
    const ws = path.join(tempDir(), 'dates');
    const user = path.join(tempDir(), 'Cursor', 'User');
    const older = {
      id: '0a1b2c3d-0000-4000-8000-000000000001',
      createdAt: t0 - 86_400_000,
      lastUpdatedAt: t0 - 86_000_000,
      bubbles: [{ type: 1 as const, text: 'An older chat.' }],
    };
    const elsewhere = {
      id: '9e8d7c6b-0000-4000-8000-000000000002',
      createdAt: t0,
      lastUpdatedAt: t0 + 120_000,
      bubbles: [{ type: 1 as const, text: 'Another folder.' }],
    };
    const globalDb = writeCursorUser(user, [
      { hash: 'a1b2c3', folder: ws, composers: [older, cursorChatFor(t0)] },
      { hash: 'd4e5f6', folder: path.join(tempDir(), 'other'), composers: [elsewhere] },
    ]);
    return { ws, user, globalDb };
  }

  it("finds the workspace's newest chat and reads the user's words, commands with exit codes (a refused one not run), edits and the plan", async function () {
    const { ws, user, globalDb } = setup();
    const found = await findCursor(user, ws);
    assert.deepEqual(
      found.map((f) => [f.source, f.file, f.mtimeMs]),
      [['cursor', `${globalDb}#3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47`, t0 + 60_000]],
    );
    const got = await readByContent(found[0].file, { workspaceRoot: ws });
    assert.equal(got?.detected.source, 'cursor');
    const r = got!.read;
    assert.equal(r.error, undefined);
    assert.deepEqual(turns(r), [
      'user: The date parser test fails on leap years; fix it.',
      "assistant: I'll run the tests first.",
      'user: Skip the clean, just rerun the tests.',
      'assistant: Leap years parse correctly now; all 5 tests pass.',
    ]);
    assert.deepEqual(commands(r), [
      ['npm test', 1, true],
      ['rm -rf dist', null, false],
      ['npm test', 0, true],
    ]);
    assert.deepEqual(edits(r), [['src/date.ts', 'edit_file_v2']]);
    assert.deepEqual(plans(r).at(-1), ['completed: Fix leap-year parsing', 'completed: Run the tests']);
    assert.equal(r.last_time, t0 + 11_000);
    // Read again after the last message: nothing new.
    const since = await readCursorDb(found[0].file, { workspaceRoot: ws, sinceTime: r.last_time });
    assert.deepEqual([commands(since), turns(since)], [[], []]);
  });

  it('prefers the agent transcripts when they are newer than the IDE chat, the IDE chat when it is newer', async function () {
    const { ws, user, globalDb } = setup();
    const ide = `${globalDb}#3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47`;
    const later = t0 + 90_000;
    const cursorDir = path.join(tempDir(), '.cursor');
    const dir = path.join(cursorDir, 'projects', cursorProjectKey(ws), 'agent-transcripts', 'abc');
    mkdirSync(dir, { recursive: true });
    const transcript = path.join(dir, 'abc.jsonl');
    writeFileSync(transcript, JSON.stringify({ role: 'user', message: { content: [{ type: 'text', text: '<user_query>hi</user_query>' }] } }) + '\n');
    utimesSync(transcript, new Date(t0 + 30_000), new Date(t0 + 30_000));
    assert.deepEqual(
      (await findCursor(cursorDir, ws, user)).map((f) => f.file),
      [ide],
    );
    utimesSync(transcript, new Date(later), new Date(later));
    assert.deepEqual(
      (await findCursor(cursorDir, ws, user)).map((f) => f.file),
      [transcript],
    );
    assert.deepEqual(await findCursor(user, path.join(tempDir(), 'unknown')), []);
  });

  it("collected with the IDE's User folder as the cursor location: test runs once, nothing new the second time", async function () {
    const { ws, user } = setup();
    const opts = { workspaceRoot: ws, sources: ['cursor' as const], locations: { cursor: user } };
    const first = await collectSessionLog(opts);
    assert.deepEqual(
      first.tests_run.map((t) => [t.command, t.result, t.exit_code, t.source]),
      [
        ['npm test', 'failed', 1, 'cursor'],
        ['npm test', 'passed', 0, 'cursor'],
      ],
    );
    assert.deepEqual(first.notes, []);
    const again = await collectSessionLog({ ...opts, state: first.next_state });
    assert.deepEqual(again.tests_run, [], 'nothing new the second time');
  });

  it('bubbles without their own time (older builds): a message added after a read is read, the ones before are not read again', async function () {
    const ws = path.join(tempDir(), 'game');
    const user = path.join(tempDir(), 'Cursor', 'User');
    const run = (command: string, exitCode: number) => ({
      type: 2 as const,
      toolFormerData: {
        toolCallId: `tool_${command.length}`,
        name: 'run_terminal_cmd',
        status: 'completed',
        rawArgs: JSON.stringify({ command, is_background: false }),
        result: JSON.stringify({ output: '', exitCode, rejected: false }),
      },
    });
    const chat = (bubbles: Parameters<typeof writeCursorUser>[1][0]['composers'][0]['bubbles']) => {
      rmSync(user, { recursive: true, force: true });
      writeCursorUser(user, [
        { hash: 'f87f6e0b', folder: ws, composers: [{ id: '21bcf92c-5808-47db-8faa-d847cfad6512', createdAt: t0, lastUpdatedAt: t0 + 5000, bubbles }] },
      ]);
    };
    chat([{ type: 1, text: 'run the tests' }, run('swift test', 1)]);
    const opts = { workspaceRoot: ws, sources: ['cursor' as const], locations: { cursor: user } };
    const first = await collectSessionLog(opts);
    assert.deepEqual(
      first.tests_run.map((t) => [t.command, t.exit_code]),
      [['swift test', 1]],
    );
    chat([{ type: 1, text: 'run the tests' }, run('swift test', 1), { type: 1, text: 'again please' }, run('swift test --parallel', 0)]);
    const again = await collectSessionLog({ ...opts, state: first.next_state });
    assert.deepEqual(
      again.tests_run.map((t) => [t.command, t.exit_code]),
      [['swift test --parallel', 0]],
    );
  });

  it('a chat reference is detected by the database it names: an SQLite file, not a file merely called state.vscdb', async () => {
    const { globalDb } = setup();
    const id = '3f2a9c1e-7b4d-4e21-9a55-0c8d2e6b1f47';
    assert.equal((await readByContent(`${globalDb}#${id}`))?.detected.source, 'cursor');
    const fake = path.join(tempDir(), 'state.vscdb');
    writeFileSync(fake, JSON.stringify({ role: 'user', message: { content: 'hi' } }) + '\n');
    assert.equal(await readByContent(`${fake}#${id}`), undefined);
  });
});
