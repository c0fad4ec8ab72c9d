import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { trimRecentTurns } from '../../../../src/core/handoff/request';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { readAsFormat, readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript, formatOfHead, readHead, type TranscriptFormat } from '../../../../src/evidence/session/detect';
import { findClineTasks } from '../../../../src/evidence/session/discovery';
import { readAider, slashCommand } from '../../../../src/evidence/session/readers/aider';
import { HandoverOkSchema } from '../../../../src/core/handoff/schema';
import { handover } from '../../../../src/engine/handover/handover';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../../helpers/repo';

const FIX = path.join(__dirname, '..', '..', '..', 'fixtures', 'session-logs');

/** The repository's fixtures (each agent's published shape) and their true formats. */
const FORMATS: Record<string, TranscriptFormat> = {
  'aider.chat.history.md': 'aider-chat',
  'claude-code.jsonl': 'claude-code',
  'cline-task/ui_messages.json': 'cline-task',
  'cline-task/api_conversation_history.json': 'cline-api',
  'codex.jsonl': 'codex',
  'copilot.json': 'copilot',
  'copilot.jsonl': 'copilot',
  'recorder.jsonl': 'recorder',
  'specstory.md': 'specstory',
};

/** An Aider chat history as aider v0.86 writes it: in-chat commands, a request, an edit, a /test run. */
const AIDER_WITH_COMMANDS = [
  '',
  '# aider chat started at 2026-03-06 09:00:00',
  '',
  '> aider --model gpt-4o  ',
  '> Aider v0.86.1  ',
  '',
  '#### /add src/app.py src/util.py  ',
  '> Added src/app.py to the chat  ',
  '> Added src/util.py to the chat  ',
  '',
  '#### /copy-context  ',
  '> Copied code context to clipboard.  ',
  '',
  '#### Fix the failing date parsing test  ',
  '',
  'I will fix the parser in `src/util.py`.',
  '',
  '> Applied edit to src/util.py  ',
  '',
  '#### /ask does parse_date accept time zones?  ',
  '',
  'Yes: it accepts an offset such as +02:00.',
  '',
  '#### /test pytest -q  ',
  '',
  '> ..F  ',
  '> FAILED tests/test_util.py::test_tz - AssertionError  ',
  '> 1 failed, 2 passed in 0.05s  ',
  '',
].join('\n');

describe('session logs by content (issue 16)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('every repository fixture has its format by content, renamed to a neutral name, with the same events', async () => {
    const dir = tempDir();
    let i = 0;
    for (const [rel, format] of Object.entries(FORMATS)) {
      const renamed = path.join(dir, `log-${i++}`);
      mkdirSync(renamed);
      const file = path.join(renamed, 'data.txt');
      copyFileSync(path.join(FIX, rel), file);
      assert.equal(formatOfHead(await readHead(file)), format, rel);
      const r = await readByContent(file);
      assert.ok(r, rel);
      assert.equal(r.detected.format, format, rel);
      assert.deepEqual(r.read.events, (await readAsFormat(path.join(FIX, rel), format)).events, rel);
      assert.ok(r.read.events.length > 0, `${rel}: events read`);
    }
  });

  it('a Cline ui_messages.json or api_conversation_history.json as the log path reads the task (was ENOTDIR / 0 events)', async () => {
    const ws = tempDir();
    const task = path.join(FIX, 'cline-task');
    const whole = await collectSessionLog({ workspaceRoot: ws, mode: task });
    for (const f of ['ui_messages.json', 'api_conversation_history.json']) {
      const r = await collectSessionLog({ workspaceRoot: ws, mode: path.join(task, f) });
      assert.deepEqual(
        r.transcripts.map((t) => [t.source, t.error]),
        [['cline', undefined]],
        f,
      );
      assert.deepEqual(r.tests_run, whole.tests_run, f);
      assert.deepEqual(
        r.tests_run.map((t) => [t.command, t.result, t.basis]),
        [['npm test', 'passed', 'output']],
        f,
      );
      assert.deepEqual(r.recent_turns, whole.recent_turns, f);
    }
  });

  it('an Aider history under any name is Aider: commands are not turns, /test results come from the output', async () => {
    const ws = tempDir();
    const file = path.join(tempDir(), 'notes-from-friday.md');
    writeFileSync(file, AIDER_WITH_COMMANDS);
    assert.equal((await detectTranscript(file))?.format, 'aider-chat');
    const r = await collectSessionLog({ workspaceRoot: ws, mode: file });
    assert.deepEqual(
      r.transcripts.map((t) => t.source),
      ['aider'],
    );
    assert.deepEqual(
      r.recent_turns.map((t) => [t.role, t.text]),
      [
        ['user', 'Fix the failing date parsing test'],
        ['assistant', 'I will fix the parser in `src/util.py`.'],
        ['user', 'does parse_date accept time zones?'],
        ['assistant', 'Yes: it accepts an offset such as +02:00.'],
      ],
    );
    assert.deepEqual(
      r.tests_run.map((t) => [t.command, t.result, t.basis, t.exit_code, t.counts]),
      [['pytest -q', 'failed', 'output', null, { passed: 2, failed: 1 }]],
    );
    assert.deepEqual(
      r.file_edits.map((e) => e.path),
      ['src/util.py'],
    );
    // Discovered too when the aider location names the file, whatever its name.
    const found = await collectSessionLog({ workspaceRoot: ws, sources: ['aider'], locations: { aider: file } });
    assert.deepEqual(
      found.transcripts.map((t) => [t.source, path.basename(t.file), t.turns]),
      [['aider', 'notes-from-friday.md', 4]],
    );
    assert.deepEqual(slashCommand('/add a.py b.py'), {});
    assert.deepEqual(slashCommand('/copy-context'), {});
    // The text after /copy-context, /ask, /code is the user's request (aider's cmd_copy_context puts it under the copied context).
    assert.deepEqual(slashCommand('/copy-context is the gemini handling missing parameters?'), { message: 'is the gemini handling missing parameters?' });
    assert.deepEqual(slashCommand('/ask does parse_date accept time zones?\nand offsets?'), { message: 'does parse_date accept time zones?\nand offsets?' });
    assert.deepEqual(slashCommand('/code add a --verbose flag'), { message: 'add a --verbose flag' });
    assert.deepEqual(slashCommand('!make lint'), { run: 'make lint' });
    assert.equal(slashCommand('fix /usr/lib paths'), undefined);
  });

  it("Aider writes the text of /ask and /code again as the next input line, and the architect's reply as the editor's input: one request each; a blank line ends an input", async () => {
    const file = path.join(tempDir(), '.aider.chat.history.md');
    writeFileSync(
      file,
      [
        '# aider chat started at 2026-03-06 09:00:00',
        '',
        '#### /ask can we make the terminal scroll down?  ',
        '',
        '#### can we make the terminal scroll down?  ',
        '',
        'Yes: add a scroll after sending.',
        '',
        '#### /code add the scroll  ',
        '',
        '#### add the scroll  ',
        '',
        'plugin/send.lua',
        '```lua',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
        '```',
        '',
        '> Applied edit to plugin/send.lua  ',
        '',
        '#### /copy-context is the gemini handling missing parameters?  ',
        '',
        // Architect mode: the architect's reply comes back as the editor's `#### ` input.
        '#### /architect add a km/h readout  ',
        '',
        '#### add a km/h readout  ',
        '',
        'Here are the instructions for your editor engineer.',
        '',
        '1. Add `SpeedKmh` to car.gd.',
        '',
        '> Tokens: 1k sent, 100 received.  ',
        '',
        '#### Here are the instructions for your editor engineer.  ',
        '####   ',
        '#### 1. Add `SpeedKmh` to car.gd.  ',
        '',
        'car.gd',
        '```',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
        '```',
        '',
        '> Applied edit to car.gd  ',
        '',
      ].join('\n'),
    );
    const r = await readAider(file);
    assert.deepEqual(
      r.user_requests?.map((q) => q.text),
      ['can we make the terminal scroll down?', 'add the scroll', 'is the gemini handling missing parameters?', 'add a km/h readout'],
    );
    assert.deepEqual(
      r.events.filter((e) => e.kind === 'file_edit').map((e) => e.kind === 'file_edit' && e.path),
      ['plugin/send.lua', 'car.gd'],
    );
  });

  it('says so when nothing in a file is understood, or it is no transcript at all', async () => {
    const ws = tempDir();
    const notes = path.join(tempDir(), 'notes.jsonl');
    writeFileSync(
      notes,
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'image' }] } })}\n${JSON.stringify({ type: 'summary', sessionId: 's' })}\n`,
    );
    const r = await collectSessionLog({ workspaceRoot: ws, mode: notes });
    assert.ok(
      r.notes.some((n) => n.includes('nothing in it was understood as a Claude Code transcript (2 lines read')),
      r.notes.join('\n'),
    );
    const text = path.join(tempDir(), 'todo.md');
    writeFileSync(text, '# Todo\n\n- buy milk\n');
    const none = await collectSessionLog({ workspaceRoot: ws, mode: text });
    assert.deepEqual(none.transcripts, []);
    assert.ok(
      none.notes.some(
        (n) =>
          n.includes('nothing in it is a transcript format this extension reads') &&
          /Claude Code, Codex CLI, Gemini CLI, OpenCode, Aider, Cline \/ Roo \/ Kilo Code, SpecStory, Copilot Chat/.test(n),
      ),
      none.notes.join('\n'),
    );
  });

  it('session sources report commands seen and kept', async () => {
    const ws = tempDir();
    const log = path.join(tempDir(), 'rollout.jsonl');
    const lines = [JSON.stringify({ timestamp: '2026-03-02T09:00:00.000Z', type: 'session_meta', payload: { id: 'c', cwd: ws } })];
    for (let i = 0; i < 121; i++) {
      lines.push(
        JSON.stringify({
          timestamp: '2026-03-02T09:00:01.000Z',
          type: 'response_item',
          payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `ls dir${i}`] }), call_id: `c${i}` },
        }),
      );
      lines.push(
        JSON.stringify({
          timestamp: '2026-03-02T09:00:02.000Z',
          type: 'response_item',
          payload: { type: 'function_call_output', call_id: `c${i}`, output: JSON.stringify({ output: 'x', metadata: { exit_code: 0 } }) },
        }),
      );
    }
    writeFileSync(log, `${lines.join('\n')}\n`);
    const r = await collectSessionLog({ workspaceRoot: ws, mode: log });
    assert.deepEqual(
      r.transcripts.map((t) => [t.source, t.commands, t.commands_kept]),
      [['codex', 121, 50]],
    );
    // In a handoff: both numbers in session_sources and in the text.
    const dir = initRepo();
    write(dir, 'a.txt', 'a\n');
    commitAll(dir, 'c');
    const ok = HandoverOkSchema.parse(
      await handover(
        { specialist: 'quality_reviewer', topic: 'counts' },
        { workspaceRoot: dir, sessionLog: { mode: log, statePath: path.join(tempDir(), 'state.json') } },
      ),
    );
    assert.deepEqual(
      ok.package.session_sources.map((s) => [s.commands, s.commands_kept]),
      [[121, 50]],
    );
    assert.match(readFileSync(ok.handoff_file, 'utf8'), /_Session log read: codex `rollout\.jsonl` \(121 commands seen, 50 kept, 0 test runs/);
  });

  it("recent turns alternate fairly: the user's one request is kept among many assistant messages", () => {
    const t = (role: 'user' | 'assistant', text: string) => ({ role, text });
    const turns = [t('user', 'old'), t('assistant', 'a0'), t('user', 'Fix the login bug'), ...[1, 2, 3, 4, 5, 6, 7].map((i) => t('assistant', `a${i}`))];
    // Each role keeps its newest floor(5 / 2) = 2 turns; the fifth is the newest other.
    assert.deepEqual(
      trimRecentTurns(turns, 5).map((x) => x.text),
      ['old', 'Fix the login bug', 'a5', 'a6', 'a7'],
    );
    assert.deepEqual(
      trimRecentTurns(turns.slice(2), 5).map((x) => x.text),
      ['Fix the login bug', 'a4', 'a5', 'a6', 'a7'],
    );
    assert.deepEqual(
      trimRecentTurns(turns, 4).map((x) => x.role),
      ['user', 'user', 'assistant', 'assistant'],
    );
    assert.deepEqual(
      trimRecentTurns([t('assistant', 'x'), t('assistant', 'y'), t('assistant', 'z')], 2).map((x) => x.text),
      ['y', 'z'],
      'one role only: the newest',
    );
    assert.deepEqual(
      trimRecentTurns(turns, 1).map((x) => x.text),
      ['a7'],
    );
  });

  it('Kilo Code task folders are found, and a task with only ui_messages.json is matched by the directory it names', async () => {
    const home = tempDir();
    const ws = path.join(tempDir(), 'shop');
    mkdirSync(ws);
    const user = path.join(home, '.config', 'Code', 'User', 'globalStorage');
    // Kilo Code: the Cline format under its own extension id; only ui_messages.json, whose readFile tool names the workspace.
    const kilo = path.join(user, 'kilocode.kilo-code', 'tasks', '1772900000000');
    mkdirSync(kilo, { recursive: true });
    const ui = [
      { ts: 1772900000000, type: 'say', say: 'text', text: 'Make the cart tests pass.' },
      {
        ts: 1772900001000,
        type: 'say',
        say: 'tool',
        text: JSON.stringify({ tool: 'readFile', path: 'src/cart.ts', content: path.join(ws, 'src', 'cart.ts') }),
      },
      { ts: 1772900002000, type: 'say', say: 'command', text: 'npx vitest run' },
      { ts: 1772900003000, type: 'ask', ask: 'command_output', text: ' Test Files  1 failed (1)\n      Tests  1 failed | 4 passed (5)\n' },
      { ts: 1772900004000, type: 'say', say: 'completion_result', text: 'One cart test still fails.' },
    ];
    writeFileSync(path.join(kilo, 'ui_messages.json'), JSON.stringify(ui));
    // Cline: only ui_messages.json, its first request's environment details name the workspace.
    const cline = path.join(user, 'saoudrizwan.claude-dev', 'tasks', '1772900005000');
    mkdirSync(cline, { recursive: true });
    writeFileSync(
      path.join(cline, 'ui_messages.json'),
      JSON.stringify([
        { ts: 1772900005000, type: 'say', say: 'text', text: 'Rename the cart module.' },
        {
          ts: 1772900005100,
          type: 'say',
          say: 'api_req_started',
          text: JSON.stringify({
            request: `<task>\nRename the cart module.\n</task>\n\n<environment_details>\n# Current Working Directory (${ws}) Files\nsrc/\n</environment_details>`,
          }),
        },
      ]),
    );
    assert.deepEqual(await findClineTasks(path.join(user, 'saoudrizwan.claude-dev', 'tasks'), ws, 'cline'), [
      { source: 'cline', file: cline, mtimeMs: statSync(path.join(cline, 'ui_messages.json')).mtimeMs },
    ]);
    const saved = process.env.XDG_CONFIG_HOME;
    delete process.env.XDG_CONFIG_HOME;
    try {
      const r = await collectSessionLog({ workspaceRoot: ws, home, sources: ['cline', 'kilo'] });
      assert.deepEqual(r.transcripts.map((t) => [t.source, path.basename(t.file)]).sort(), [
        ['cline', '1772900005000'],
        ['kilo', '1772900000000'],
      ]);
      assert.deepEqual(
        r.tests_run.map((t) => [t.command, t.result, t.basis, t.source]),
        [['npx vitest run', 'failed', 'output', 'kilo']],
      );
    } finally {
      if (saved !== undefined) process.env.XDG_CONFIG_HOME = saved;
    }
    // Given by path, a Kilo task folder (or its file) reads as Kilo.
    assert.equal((await detectTranscript(path.join(kilo, 'ui_messages.json')))?.source, 'kilo');
    const copy = path.join(tempDir(), 'kilocode.kilo-code', 'tasks', 't1');
    cpSync(kilo, copy, { recursive: true });
    assert.deepEqual(readdirSync(copy), ['ui_messages.json']);
    assert.equal((await detectTranscript(copy))?.source, 'kilo');
  });
});
