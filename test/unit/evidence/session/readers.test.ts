import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionTurn, TranscriptRead } from '../../../../src/core/session/events';
import { readAider } from '../../../../src/evidence/session/readers/aider';
import { readClaudeCode } from '../../../../src/evidence/session/readers/claudeCode';
import { readClineTask } from '../../../../src/evidence/session/readers/cline';
import { readCodex } from '../../../../src/evidence/session/readers/codex';
import { readCopilotSession } from '../../../../src/evidence/session/readers/copilot';
import { readSpecStory } from '../../../../src/evidence/session/readers/specstory';
import { readRecorder } from '../../../../src/evidence/session/recorderLog';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const FIX = path.join(__dirname, '..', '..', '..', 'fixtures', 'session-logs');

const commands = (r: TranscriptRead) =>
  r.events.filter((e): e is SessionCommand => e.kind === 'command').map((c) => ({ command: c.command, exit: c.exit_code, ran: c.ran }));
const edits = (r: TranscriptRead) => r.events.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => e.path);
const turns = (r: TranscriptRead) => r.events.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => `${t.role}: ${t.text}`);
const outputOf = (r: TranscriptRead, i: number) => (r.events.filter((e) => e.kind === 'command')[i] as SessionCommand).output_tail ?? '';

describe('session-log readers (own fixtures)', () => {
  after(cleanupTempDirs);

  it('Claude Code: commands with exit codes, rejected ones not run, edits relative to the session folder, clean turns', async () => {
    const r = await readClaudeCode(path.join(FIX, 'claude-code.jsonl'));
    assert.deepEqual(commands(r), [
      { command: 'npm test', exit: 1, ran: true },
      { command: 'npm test', exit: 0, ran: true },
      { command: 'rm -rf dist', exit: null, ran: false },
    ]);
    assert.match(outputOf(r, 0), /1 failed, 9 passed/);
    assert.deepEqual(edits(r), ['src/login.ts']);
    assert.deepEqual(turns(r), [
      'user: Make the login tests pass.',
      'assistant: Running the tests first.',
      'user: Good. Now commit.',
      'assistant: All 10 tests pass now; committing.',
    ]);
    assert.deepEqual(r.stats, { lines: 14, malformed: 0, skipped: 0, invalid_utf8: 0 });
  });

  it('Codex: shell calls with exit codes from metadata and text, apply_patch edits, aborted calls not run, no duplicate turns', async () => {
    const r = await readCodex(path.join(FIX, 'codex.jsonl'));
    assert.deepEqual(commands(r), [
      { command: 'pytest -q', exit: 1, ran: true },
      { command: 'pytest -q', exit: 0, ran: true },
      { command: 'git push --force', exit: null, ran: false },
    ]);
    assert.deepEqual(edits(r), ['app/models.py', 'tests/test_new.py']);
    assert.deepEqual(turns(r), ['user: Fix the failing pytest.', 'assistant: Both tests pass now.']);
  });

  it('Aider: edits, commands answered yes ran and no did not, /run ran; exit codes unknown', async () => {
    const r = await readAider(path.join(FIX, 'aider.chat.history.md'));
    assert.deepEqual(commands(r), [
      { command: 'pytest tests/test_cli.py', exit: null, ran: true },
      { command: 'rm -rf build', exit: null, ran: false },
      { command: 'make lint', exit: null, ran: true },
    ]);
    assert.match(outputOf(r, 0), /3 passed/);
    assert.doesNotMatch(outputOf(r, 0), /rm -rf build/);
    assert.deepEqual(edits(r), ['cli.py']);
    const t = turns(r);
    assert.equal(t[0], 'user: Add input validation to parse_args');
    assert.match(t[1], /^assistant: I will add validation to `cli.py`\.\n\n\[edit block for cli\.py\]$/);
    assert.deepEqual(t.slice(-2), ["user: thanks, that's all", "assistant: You're welcome."]);
  });

  it('Cline: the task, feedback and completion as turns; approved commands ran, pending ones did not; edits', async () => {
    const r = await readClineTask(path.join(FIX, 'cline-task'));
    assert.deepEqual(commands(r), [
      { command: 'npm test', exit: null, ran: true },
      { command: 'git push origin main', exit: null, ran: false },
    ]);
    assert.match(outputOf(r, 0), /4 passing/);
    assert.deepEqual(edits(r), ['src/parser.ts']);
    assert.deepEqual(turns(r), [
      'user: Refactor the parser and run the tests.',
      "assistant: I'll start with the parser.",
      "user: Don't push, just finish.",
      'assistant: The parser is refactored and its 4 tests pass.',
    ]);
    assert.equal(r.last_time, 1772600009000);
  });

  it('SpecStory: turns without thinking or tool blocks, edits and shell commands', async () => {
    const r = await readSpecStory(path.join(FIX, 'specstory.md'));
    assert.deepEqual(commands(r), [{ command: 'npm test', exit: null, ran: true }]);
    assert.match(outputOf(r, 0), /5 passing/);
    assert.deepEqual(edits(r), ['src/build.ts']);
    assert.deepEqual(turns(r), ['user: The build is broken, please fix it.', 'assistant: Fixed: the import path in `src/build.ts` was wrong.']);
  });

  it('Copilot Chat (.json): terminal commands with exit codes, declined ones not run, text edits', async () => {
    const r = await readCopilotSession(path.join(FIX, 'copilot.json'), { workspaceRoot: '/ws/go' });
    assert.deepEqual(commands(r), [
      { command: 'go test ./...', exit: 1, ran: true },
      { command: 'go test -count=1 ./...', exit: null, ran: false },
    ]);
    assert.deepEqual(edits(r), ['parse.go']);
    assert.deepEqual(turns(r), ['user: Run the unit tests', 'assistant: Running them now.', 'user: Try again', 'assistant: You declined the command.']);
  });

  it('Copilot Chat (.jsonl mutation log): replays the requests', async () => {
    const r = await readCopilotSession(path.join(FIX, 'copilot.jsonl'));
    assert.deepEqual(commands(r), [{ command: 'pytest', exit: 0, ran: true }]);
    assert.deepEqual(turns(r), ['user: Add a test', 'assistant: Added a test.']);
  });

  it('the recorder: commands of terminals and tasks with exit codes, saves, and its session', async () => {
    const r = await readRecorder(path.join(FIX, 'recorder.jsonl'));
    assert.deepEqual(commands(r), [
      { command: 'npm test', exit: 1, ran: true },
      { command: 'npm run build', exit: 0, ran: true },
      { command: 'npm test', exit: 0, ran: true },
    ]);
    assert.deepEqual(edits(r), ['src/a.ts']);
    assert.deepEqual(r.session, { session_id: 'rec-1', base_commit: '0123456789abcdef0123456789abcdef01234567' });
  });
});

describe('session-log readers survive bad input', function () {
  this.timeout(20_000);
  after(cleanupTempDirs);

  const jsonlReaders: Array<[string, (f: string) => Promise<TranscriptRead>, string]> = [
    ['Claude Code', readClaudeCode, '{"type":"user","message":{"role":"user","content":"hello"},"timestamp":"2026-01-01T00:00:00Z"}'],
    [
      'Codex',
      readCodex,
      '{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}}',
    ],
    ['recorder', readRecorder, '{"v":1,"type":"save","path":"hello","time":"2026-01-01T00:00:00Z"}'],
  ];
  const markdownReaders: Array<[string, (f: string) => Promise<TranscriptRead>, string]> = [
    ['Aider', readAider, '#### hello'],
    ['SpecStory', readSpecStory, '_**User (2026-01-01 00:00Z)**_\n\nhello'],
  ];

  for (const [name, read, good] of [...jsonlReaders, ...markdownReaders]) {
    const isJsonl = jsonlReaders.some(([n]) => n === name);
    it(`${name}: truncated last line, invalid line, 10 MB line, invalid UTF-8, empty and missing files`, async () => {
      const dir = tempDir();
      const f = (n: string, content: string | Buffer) => {
        const p = path.join(dir, n);
        writeFileSync(p, content);
        return p;
      };
      const eventsOf = (r: TranscriptRead): SessionEvent[] => r.events;
      // Truncated last line: the good line counts, the half line is left for later.
      const truncated = await read(f('truncated', `${good}\n${good.slice(0, Math.floor(good.length / 2))}`));
      assert.ok(eventsOf(truncated).length >= 1, `${name}: the complete line is read`);
      if (isJsonl) {
        assert.equal(truncated.stats.malformed, 1, `${name}: the half line is counted`);
        assert.equal(truncated.end_offset, Buffer.byteLength(`${good}\n`), `${name}: resumes before the half line`);
      }
      // An invalid line among good ones.
      const invalid = await read(f('invalid', `${good}\n{not json at all\n${good}\n`));
      assert.ok(eventsOf(invalid).length >= 1);
      if (isJsonl) assert.equal(invalid.stats.lines, 3);
      if (isJsonl) assert.equal(invalid.stats.malformed, 1);
      // A 10 MB line is read or skipped without failing the read.
      const huge = await read(f('huge', `${good}\n${'x'.repeat(10 * 1024 * 1024)}\n${good}\n`));
      assert.ok(eventsOf(huge).length >= 1);
      assert.equal(huge.stats.lines, isJsonl ? 3 : huge.stats.lines);
      // Bytes that are not UTF-8.
      const bad = await read(f('bad-utf8', Buffer.concat([Buffer.from(`${good}\n`), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(`${good}\n`)])));
      assert.equal(bad.stats.invalid_utf8, 1);
      // Empty and missing files.
      const empty = await read(f('empty', ''));
      assert.deepEqual([empty.events.length, empty.stats.lines], [0, 0]);
      const missing = await read(path.join(dir, 'does-not-exist'));
      assert.deepEqual(missing.events, []);
      assert.match(missing.error ?? '', /does not exist/);
    });
  }

  it('a line over the 16 MiB cap is skipped and counted, without holding it', async () => {
    const dir = tempDir();
    const p = path.join(dir, 'big.jsonl');
    const good = jsonlReaders[0][2];
    writeFileSync(p, `${good}\n${'y'.repeat(17 * 1024 * 1024)}\n${good}\n`);
    const r = await readClaudeCode(p);
    assert.equal(r.stats.skipped, 1);
    assert.equal(turns(r).length, 2);
  });

  it('Cline: a truncated ui_messages.json keeps what was read; a missing one is reported', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'task'));
    writeFileSync(
      path.join(dir, 'task', 'ui_messages.json'),
      '[{"ts":1,"type":"say","say":"text","text":"task"},{"ts":2,"type":"say","say":"text","text":"reply"},{"ts":3,"type":"say"',
    );
    const r = await readClineTask(path.join(dir, 'task'));
    assert.equal(turns(r).length, 2);
    assert.equal(r.stats.malformed, 1);
    const missing = await readClineTask(path.join(dir, 'nope'));
    assert.match(missing.error ?? '', /does not exist/);
    writeFileSync(path.join(dir, 'task', 'ui_messages.json'), '');
    const empty = await readClineTask(path.join(dir, 'task'));
    assert.deepEqual(empty.events, []);
  });

  it('Copilot: invalid .json and .jsonl lines are counted, not fatal', async () => {
    const dir = tempDir();
    const p = path.join(dir, 's.jsonl');
    writeFileSync(p, '{"kind":0,"v":{"requests":[{"timestamp":1,"message":{"text":"hi"},"response":[]}]}}\nnot json\n');
    const r = await readCopilotSession(p);
    assert.equal(r.stats.malformed, 1);
    assert.deepEqual(turns(r), ['user: hi']);
    const j = path.join(dir, 's.json');
    writeFileSync(j, '{"requests":[{"timestamp":1,"message":{"text":"hi"},"response":[]},');
    const rj = await readCopilotSession(j);
    assert.deepEqual(turns(rj), ['user: hi']);
    assert.equal(rj.stats.malformed, 1);
  });
});
