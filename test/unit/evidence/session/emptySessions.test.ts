/**
 * Issue 17: VS Code 1.139 writes an empty Copilot chat session into the workspace storage
 * at every start. An empty session is not a source: it is not listed in a handoff's
 * session sources, and it does not hide the session the user worked in. The empty
 * session is written in VS Code's `.jsonl` mutation-log format (since 1.109: a `kind: 0`
 * line holding the initial session with an empty `requests` array), the older `.json`
 * format (one object, `requests: []`) beside it.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const FIX = path.join(__dirname, '..', '..', '..', 'fixtures', 'session-logs');

/** The first line VS Code writes for a new, empty chat session (.jsonl mutation log). */
function emptyJsonlSession(id: string): string {
  return `${JSON.stringify({
    kind: 0,
    v: {
      version: 3,
      sessionId: id,
      creationDate: 1772900000000,
      initialLocation: 'panel',
      requesterUsername: '',
      responderUsername: '',
      requests: [],
      hasPendingEdits: false,
    },
  })}\n`;
}

function workspaceStorage(home: string, ws: string): string {
  const storage = path.join(home, 'workspaceStorage', 'f00d');
  mkdirSync(path.join(storage, 'chatSessions'), { recursive: true });
  writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(ws).href }));
  return path.join(storage, 'chatSessions');
}

describe('session log: empty Copilot chat sessions are not sources', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('an empty session newer than the real one neither hides it nor is listed', async () => {
    const home = tempDir();
    const ws = tempDir();
    const sessions = workspaceStorage(home, ws);
    copyFileSync(path.join(FIX, 'copilot.jsonl'), path.join(sessions, 'worked.jsonl'));
    utimesSync(path.join(sessions, 'worked.jsonl'), new Date('2026-03-01'), new Date('2026-03-01'));
    writeFileSync(path.join(sessions, 'empty-at-start.jsonl'), emptyJsonlSession('empty-at-start'));
    writeFileSync(path.join(sessions, 'empty-old-format.json'), JSON.stringify({ version: 3, sessionId: 'e2', requests: [] }));
    const r = await collectSessionLog({ workspaceRoot: ws, home, sources: ['copilot'], locations: { copilot: path.join(home, 'workspaceStorage') } });
    assert.deepEqual(
      r.transcripts.map((t) => path.basename(t.file)),
      ['worked.jsonl'],
      'the session with requests is the source; the newer empty ones are not',
    );
    assert.ok(
      r.tests_run.some((t) => t.source === 'copilot' && t.command === 'pytest'),
      'its test run is read',
    );
  });

  it('only empty sessions: no Copilot source at all, and a session that gets a request later is read then', async () => {
    const home = tempDir();
    const ws = tempDir();
    const sessions = workspaceStorage(home, ws);
    const file = path.join(sessions, 'new.jsonl');
    writeFileSync(file, emptyJsonlSession('new'));
    const locations = { copilot: path.join(home, 'workspaceStorage') };
    const first = await collectSessionLog({ workspaceRoot: ws, home, sources: ['copilot'], locations });
    assert.deepEqual(first.transcripts, [], 'no "0 commands, 0 test runs, 0 turns" source');
    // The same session, named explicitly: still read, still not a source.
    const named = await collectSessionLog({ workspaceRoot: ws, mode: file });
    assert.deepEqual(named.transcripts, []);
    assert.ok(named.next_state.files[file], 'its read position is kept for the next handoff');
    // The user asks something in that chat (a kind 2 push onto `requests`).
    appendFileSync(
      file,
      `${JSON.stringify({ kind: 2, k: ['requests'], v: [{ requestId: 'r1', timestamp: 1772900005000, message: { text: 'Explain the parser' }, response: [{ value: 'It reads the log.' }] }] })}\n`,
    );
    const later = await collectSessionLog({ workspaceRoot: ws, home, sources: ['copilot'], locations, state: first.next_state });
    assert.deepEqual(
      later.transcripts.map((t) => [path.basename(t.file), t.turns]),
      [['new.jsonl', 2]],
    );
  });

  it("the extension's own recording of a session where nothing ran yet (its session_start alone) is no source and no warning", async () => {
    // Seen in the README's screenshot on 1.139: every first handoff of a window warned "nothing in it was understood as
    // the extension's session recording (1 line read …)" about the recorder's own fresh file.
    const ws = tempDir();
    const recorderFile = path.join(tempDir(), 'session.jsonl');
    writeFileSync(
      recorderFile,
      `${JSON.stringify({ v: 1, type: 'session_start', session_id: 'fresh', base_commit: null, time: '2026-12-01T15:00:00.000Z' })}\n`,
    );
    const r = await collectSessionLog({ workspaceRoot: ws, sources: ['recorder'], recorderFile });
    assert.deepEqual(r.notes, []);
    assert.deepEqual(r.transcripts, []);
    assert.equal(r.recorder_session?.session_id, 'fresh');
    // A recorder file with nothing of the recorder's in it still says so.
    writeFileSync(recorderFile, `${JSON.stringify({ hello: 'world' })}\n`);
    const other = await collectSessionLog({ workspaceRoot: ws, sources: ['recorder'], recorderFile });
    assert.ok(
      other.notes.some((n) => n.includes('nothing in it was understood')),
      other.notes.join('\n'),
    );
  });
});
