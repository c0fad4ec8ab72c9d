import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionFileEdit, SessionTurn, TranscriptRead } from '../../../../src/core/session/events';
import { looksLikeOpenCode, readOpenCode } from '../../../../src/evidence/session/readers/opencode';
import { bashPart, errorToolPart, fileToolPart, writeProject, writeSession, type MessageDraft } from '../../../helpers/opencodeStorage';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (r: TranscriptRead) =>
  r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => ({ command: c.command, exit: c.exit_code, ran: c.ran }));
const edits = (r: TranscriptRead) =>
  r.events
    .filter((e): e is SessionFileEdit => e.kind === 'file_edit')
    .map((e) => `${e.tool}:${e.path}`)
    .sort();
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}: ${t.text}`);

const WS = '/home/dev/parser';
const t0 = Date.UTC(2026, 2, 2, 10, 0, 0);

/** A session: a failing run, an edit, a patch, a passing run, a refused push, a tool still running. */
function parserSession(): MessageDraft[] {
  return [
    {
      role: 'user',
      created: t0,
      parts: [
        { type: 'text', text: 'Make the parser tests pass.' },
        { type: 'text', text: 'Called the Read tool with …', synthetic: true },
      ],
    },
    {
      role: 'assistant',
      created: t0 + 1000,
      parts: [
        { type: 'step-start', snapshot: 'abc' },
        { type: 'text', text: 'Running the tests.', time: { start: t0 + 1000, end: t0 + 1100 } },
        bashPart('npm test', 1, '> vitest run\n Test Files  1 failed (1)\n      Tests  2 failed | 5 passed (7)', t0 + 1200),
        fileToolPart('edit', { filePath: `${WS}/src/parser.ts`, oldString: 'a', newString: 'b' }, t0 + 2000),
        fileToolPart('apply_patch', { patchText: '*** Begin Patch\n*** Add File: src/tokens.ts\n+export const T = 1\n*** End Patch' }, t0 + 2100),
        { type: 'patch', hash: 'def', files: [`${WS}/src/parser.ts`, `${WS}/README.md`] },
        bashPart('npm test', 0, ' Test Files  1 passed (1)\n      Tests  7 passed (7)', t0 + 3000),
        errorToolPart(
          'bash',
          { command: 'git push --force', description: 'Push' },
          'The user rejected permission to use this specific tool call. You may try again with different parameters.',
          t0 + 4000,
        ),
        { type: 'tool', callID: 'toolu_run', tool: 'write', state: { status: 'running', input: { filePath: `${WS}/notes.md` }, time: { start: t0 + 4500 } } },
        { type: 'text', text: 'All 7 tests pass.' },
        { type: 'step-finish', reason: 'stop', cost: 0.01, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } },
      ],
    },
    { role: 'assistant', created: t0 + 6000, summary: true, parts: [{ type: 'text', text: 'Summary of the conversation so far…' }] },
  ];
}

describe('OpenCode reader (storage files written here in the shapes OpenCode writes)', function () {
  // Large files are generated and read in full: several seconds on a busy machine.
  this.timeout(60_000);
  after(cleanupTempDirs);

  it('a session: bash commands with exit codes from metadata, a refused one not run, edits and patch files, turns', async () => {
    const storage = tempDir();
    writeProject(storage, '4b825dc642cb6eb9a060e54bf8d69288fbee4904', WS);
    const s = writeSession(storage, { projectID: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', directory: WS }, parserSession());
    const r = await readOpenCode(s.file, { workspaceRoot: WS });
    assert.equal(r.source, 'opencode');
    assert.equal(r.file, s.file);
    assert.deepEqual(commands(r), [
      { command: 'npm test', exit: 1, ran: true },
      { command: 'npm test', exit: 0, ran: true },
      { command: 'git push --force', exit: null, ran: false },
    ]);
    const first = r.events.find((e): e is SessionCommand => e.kind === 'command');
    assert.match(first?.output_tail ?? '', /2 failed \| 5 passed/);
    assert.equal(first?.cwd, WS);
    assert.deepEqual(edits(r), ['apply_patch:src/tokens.ts', 'snapshot:README.md', 'snapshot:src/parser.ts']);
    assert.deepEqual(turns(r), ['user: Make the parser tests pass.', 'assistant: Running the tests.\n\nAll 7 tests pass.']);
    assert.equal(r.error, undefined);
    assert.equal(r.last_time, t0 + 6000);
    assert.deepEqual({ ...r.stats, lines: 0 }, { lines: 0, malformed: 0, skipped: 0, invalid_utf8: 0 });
  });

  it('a message or part file of the session reads the same session', async () => {
    const storage = tempDir();
    const s = writeSession(storage, { projectID: 'global', directory: WS }, parserSession());
    const msgDir = path.join(storage, 'message', s.id);
    const msgFile = path.join(msgDir, readdirSync(msgDir)[0]);
    const msgID = path.basename(msgFile, '.json');
    const partFile = path.join(storage, 'part', msgID, readdirSync(path.join(storage, 'part', msgID))[0]);
    for (const f of [msgFile, partFile]) {
      assert.equal(commands(await readOpenCode(f, { workspaceRoot: WS })).length, 3, f);
    }
  });

  it('read again after new work: only tools that ended and messages created since the previous read', async () => {
    const storage = tempDir();
    const drafts = parserSession();
    const s = writeSession(storage, { projectID: 'global', directory: WS, id: 'ses_0000000000ffAb3dE5gH7jK9mN' }, drafts);
    const first = await readOpenCode(s.file, { workspaceRoot: WS });
    drafts.push({ role: 'user', created: t0 + 9000, parts: [{ type: 'text', text: 'Run the linter too.' }] });
    drafts.push({ role: 'assistant', created: t0 + 9500, parts: [bashPart('npm run lint', 0, 'no problems', t0 + 9600)] });
    writeSession(storage, { projectID: 'global', directory: WS, id: s.id }, drafts.slice(-2));
    const next = await readOpenCode(s.file, { workspaceRoot: WS, sinceTime: first.last_time });
    assert.deepEqual(commands(next), [{ command: 'npm run lint', exit: 0, ran: true }]);
    assert.deepEqual(turns(next), ['user: Run the linter too.']);
  });

  it('files too large, unreadable or not JSON are counted, not fatal; a session without messages says so', async () => {
    const storage = tempDir();
    const s = writeSession(storage, { projectID: 'global', directory: WS }, parserSession());
    const msgDir = path.join(storage, 'message', s.id);
    const [userMsg, assistantMsg] = readdirSync(msgDir).sort();
    const partDir = path.join(storage, 'part', path.basename(assistantMsg, '.json'));
    const huge = path.join(partDir, 'prt_zzzzzzzzzzzzhuge.json');
    writeFileSync(huge, JSON.stringify({ id: 'prt_huge', type: 'text', text: 'q'.repeat(17 * 1024 * 1024) }));
    writeFileSync(path.join(partDir, 'prt_zzzzzzzzzzzzbad.json'), '{"id": "prt_bad", "type": "te');
    const r = await readOpenCode(s.file, { workspaceRoot: WS });
    assert.equal(r.stats.skipped, 1);
    assert.equal(r.stats.malformed, 1);
    assert.equal(commands(r).length, 3);
    assert.ok(!turns(r).some((t) => t.includes('qqqq')), 'the oversized part is not read');
    void userMsg;
    const lone = writeSession(tempDir(), { projectID: 'global', directory: WS }, []);
    assert.match((await readOpenCode(lone.file)).error ?? '', /does not exist/);
    assert.match((await readOpenCode(path.join(tempDir(), 'x.json'))).error ?? '', /not in an OpenCode storage folder/);
  });

  it('reads a session of 120 messages one file at a time, keeping the newest 100 turns and every test run', async () => {
    const storage = tempDir();
    const drafts: MessageDraft[] = [];
    for (let i = 0; i < 60; i++) {
      drafts.push({ role: 'user', created: t0 + i * 10, parts: [{ type: 'text', text: `step ${i}` }] });
      drafts.push({
        role: 'assistant',
        created: t0 + i * 10 + 5,
        parts: [{ type: 'text', text: `ran ${i}` }, bashPart('npx vitest run', i === 59 ? 0 : 1, 'Tests  1 failed (1)', t0 + i * 10 + 6)],
      });
    }
    const s = writeSession(storage, { projectID: 'global', directory: WS }, drafts);
    const r = await readOpenCode(s.file, { workspaceRoot: WS });
    assert.equal(r.stats.lines, 120 + 180); // every message and part file, one at a time
    assert.equal(commands(r).length, 60);
    assert.deepEqual(commands(r).at(-1), { command: 'npx vitest run', exit: 0, ran: true });
    assert.equal(turns(r).length, 100); // MAX_KEPT_TURNS
    assert.equal(turns(r).at(-1), 'assistant: ran 59');
  });

  it('tells session, message and part files from other JSON by content', () => {
    const storage = tempDir();
    const s = writeSession(storage, { projectID: 'global', directory: WS }, parserSession());
    const msgDir = path.join(storage, 'message', s.id);
    const msgFile = path.join(msgDir, readdirSync(msgDir)[0]);
    const partDir = path.join(storage, 'part', path.basename(msgFile, '.json'));
    const partFile = path.join(partDir, readdirSync(partDir)[0]);
    for (const f of [s.file, msgFile, partFile]) assert.equal(looksLikeOpenCode(readFileSync(f, 'utf8'), path.basename(f)), true, f);
    assert.equal(looksLikeOpenCode('{"sessionId":"x","projectHash":"y"}', 'session-a.jsonl'), false);
    assert.equal(looksLikeOpenCode('[{"ts":1,"type":"say"}]', 'ui_messages.json'), false);
    assert.equal(looksLikeOpenCode('{"id":"ses_1","title":"x"}', 'a.json'), false);
  });
});
