import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { findGemini, findOpenCode, geminiProjectHash } from '../../../../src/evidence/session/discoveryGeminiOpenCode';
import { HandoverOkSchema } from '../../../../src/core/handoff/schema';
import { runCli } from '../../../../src/cli/main';
import { GeminiChatWriter, shellText, toolCall, writeCheckpoint, writeLogsJson } from '../../../helpers/geminiLogs';
import { bashPart, writeProject, writeSession } from '../../../helpers/opencodeStorage';
import { cleanupTempDirs, commitAll, initRepo, tempDir, write } from '../../../helpers/repo';

const T = (s: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, s)).toISOString();
const base = (files: Array<{ file: string }>) => files.map((f) => path.basename(f.file));
const at = (file: string, iso: string) => utimesSync(file, new Date(iso), new Date(iso));

/** A Gemini chat recording with one `npm test` run ending with `exit`. */
function geminiChat(file: string, sessionId: string, exit: number, time: string): GeminiChatWriter {
  const w = new GeminiChatWriter(file, sessionId, 'h', time);
  w.user(`run the tests (${sessionId})`, time);
  w.toolCalls(
    [
      toolCall(
        `${sessionId}-c1`,
        'run_shell_command',
        { command: 'npm test' },
        'success',
        shellText(exit ? 'Tests: 1 failed, 2 passed, 3 total' : 'Tests: 3 passed, 3 total', exit),
        time,
      ),
    ],
    time,
  );
  return w;
}

describe('Gemini CLI and OpenCode: discovery for the open folder', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);
  const saved = { GEMINI_CLI_HOME: process.env.GEMINI_CLI_HOME, XDG_DATA_HOME: process.env.XDG_DATA_HOME };
  beforeEach(() => {
    delete process.env.GEMINI_CLI_HOME;
    delete process.env.XDG_DATA_HOME;
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("Gemini CLI: the newest chat of the project folder named by the sha256 of the workspace, with its sub-agents; not another project's", async () => {
    const gemini = path.join(tempDir(), '.gemini');
    const ws = path.join(tempDir(), 'shop');
    mkdirSync(ws);
    const chats = path.join(gemini, 'tmp', geminiProjectHash(ws), 'chats');
    geminiChat(path.join(chats, 'session-2026-03-01T09-00-aaaaaaaa.jsonl'), 'aaaaaaaa-0000', 1, T(0));
    at(path.join(chats, 'session-2026-03-01T09-00-aaaaaaaa.jsonl'), '2026-03-01T09:00:00Z');
    geminiChat(path.join(chats, 'session-2026-03-02T10-00-bbbbbbbb.jsonl'), 'bbbbbbbb-1111', 0, T(10));
    geminiChat(path.join(chats, 'bbbbbbbb-1111', 'sub-agent-1.jsonl'), 'sub-agent-1', 0, T(11));
    // Another project, newer: not this workspace's.
    geminiChat(path.join(gemini, 'tmp', geminiProjectHash('/elsewhere'), 'chats', 'session-2026-03-03T00-00-cccccccc.jsonl'), 'cccccccc', 1, T(20));
    assert.deepEqual(base(await findGemini(gemini, ws)), ['session-2026-03-02T10-00-bbbbbbbb.jsonl', 'sub-agent-1.jsonl']);
    assert.deepEqual(await findGemini(gemini, path.join(tempDir(), 'never-used')), []);
    assert.deepEqual(await findGemini(path.join(tempDir(), 'no-gemini-here'), ws), []);
  });

  it("Gemini CLI: the project registry's slug folder (projects.json, .project_root); a checkpoint, else logs.json, when there is no chat", async () => {
    const gemini = path.join(tempDir(), '.gemini');
    const ws = path.join(tempDir(), 'Cart Service');
    mkdirSync(ws);
    writeFileSync(path.join(tempDir(), 'x'), '');
    mkdirSync(path.join(gemini, 'tmp', 'cart-service'), { recursive: true });
    writeFileSync(path.join(gemini, 'projects.json'), JSON.stringify({ projects: { [ws]: 'cart-service' } }, null, 2));
    writeFileSync(path.join(gemini, 'tmp', 'cart-service', '.project_root'), ws);
    writeLogsJson(path.join(gemini, 'tmp', 'cart-service', 'logs.json'), [{ sessionId: 's', message: 'hello', timestamp: T(1) }]);
    assert.deepEqual(base(await findGemini(gemini, ws)), ['logs.json']);
    writeCheckpoint(path.join(gemini, 'tmp', 'cart-service', 'checkpoint-old.json'), [{ role: 'user', parts: [{ text: 'a' }] }]);
    at(path.join(gemini, 'tmp', 'cart-service', 'checkpoint-old.json'), '2026-01-01T00:00:00Z');
    writeCheckpoint(path.join(gemini, 'tmp', 'cart-service', 'checkpoint-new.json'), [{ role: 'user', parts: [{ text: 'b' }] }]);
    assert.deepEqual(base(await findGemini(gemini, ws)), ['checkpoint-new.json']);
    // Found by its .project_root alone (no registry entry), under another slug.
    const ws2 = path.join(tempDir(), 'api');
    mkdirSync(path.join(gemini, 'tmp', 'api-1', 'chats'), { recursive: true });
    writeFileSync(path.join(gemini, 'tmp', 'api-1', '.project_root'), ws2);
    geminiChat(path.join(gemini, 'tmp', 'api-1', 'chats', 'session-2026-03-02T10-00-dddddddd.jsonl'), 'dddddddd', 0, T(5));
    assert.deepEqual(base(await findGemini(gemini, ws2)), ['session-2026-03-02T10-00-dddddddd.jsonl']);
  });

  it('OpenCode: the newest session run in the workspace (its project or the global one) with its sub-agent sessions', async () => {
    const storage = path.join(tempDir(), 'storage');
    const ws = path.join(tempDir(), 'parser');
    const t0 = Date.UTC(2026, 2, 2, 10, 0, 0);
    writeProject(storage, 'f00dcafe', ws);
    writeProject(storage, 'deadbeef', '/elsewhere');
    const msg = (n: number) => [{ role: 'user' as const, created: t0 + n, parts: [{ type: 'text', text: `task ${n}` }] }];
    writeSession(storage, { projectID: 'f00dcafe', directory: ws, id: 'ses_old', updated: t0 + 100 }, msg(1));
    writeSession(storage, { projectID: 'f00dcafe', directory: ws, id: 'ses_new', updated: t0 + 500 }, msg(2));
    writeSession(storage, { projectID: 'f00dcafe', directory: path.join(ws, 'pkg'), id: 'ses_child', parentID: 'ses_new', updated: t0 + 900 }, msg(3));
    writeSession(storage, { projectID: 'deadbeef', directory: '/elsewhere', id: 'ses_other', updated: t0 + 9999 }, msg(4));
    writeSession(storage, { projectID: 'global', directory: '/tmp/scratch', id: 'ses_global_other', updated: t0 + 9999 }, msg(5));
    assert.deepEqual(base(await findOpenCode(storage, ws)), ['ses_new.json', 'ses_child.json']);
    // Outside git, OpenCode files sessions under the `global` project.
    const loose = path.join(tempDir(), 'notes');
    writeSession(storage, { projectID: 'global', directory: loose, id: 'ses_loose', updated: t0 + 50 }, msg(6));
    assert.deepEqual(base(await findOpenCode(storage, loose)), ['ses_loose.json']);
    assert.deepEqual(await findOpenCode(storage, path.join(tempDir(), 'never-used')), []);
    assert.deepEqual(await findOpenCode(path.join(tempDir(), 'none'), ws), []);
  });

  it("a handoff's session log finds both under a temporary HOME, reads their test runs, and a second read adds nothing twice", async () => {
    const home = tempDir();
    const ws = path.join(tempDir(), 'app');
    mkdirSync(ws);
    const chat = path.join(home, '.gemini', 'tmp', geminiProjectHash(ws), 'chats', 'session-2026-03-02T10-00-eeeeeeee.jsonl');
    const w = geminiChat(chat, 'eeeeeeee', 1, T(0));
    const storage = path.join(home, '.local', 'share', 'opencode', 'storage');
    const t0 = Date.UTC(2026, 2, 2, 11, 0, 0);
    const s = writeSession(storage, { projectID: 'global', directory: ws, id: 'ses_app' }, [
      { role: 'user', created: t0, parts: [{ type: 'text', text: 'Fix the build.' }] },
      { role: 'assistant', created: t0 + 10, parts: [bashPart('cargo test', 101, 'test result: FAILED. 3 passed; 1 failed; 0 ignored', t0 + 20)] },
    ]);
    at(chat, '2026-03-02T10:00:00Z'); // the OpenCode session, just written, is the newest transcript
    const first = await collectSessionLog({ workspaceRoot: ws, home });
    assert.deepEqual(first.transcripts.map((t) => `${t.source}:${path.basename(t.file)}`).sort(), [
      'gemini:session-2026-03-02T10-00-eeeeeeee.jsonl',
      'opencode:ses_app.json',
    ]);
    assert.deepEqual(
      first.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [
        ['gemini', 'npm test', 'failed', 1],
        ['opencode', 'cargo test', 'failed', 101],
      ],
    );
    assert.deepEqual(
      first.recent_turns.map((t) => t.text),
      ['Fix the build.'],
      "the newest transcript's turns",
    );
    // More work in both; the OpenCode session file is rewritten (time.updated), the chat appended.
    w.toolCalls([toolCall('eeeeeeee-c2', 'run_shell_command', { command: 'npm test' }, 'success', shellText('Tests: 3 passed, 3 total', 0), T(30))], T(30));
    writeSession(storage, { projectID: 'global', directory: ws, id: s.id, updated: t0 + 999 }, [
      { role: 'assistant', created: t0 + 100, parts: [bashPart('cargo test', 0, 'test result: ok. 4 passed; 0 failed', t0 + 200)] },
    ]);
    const second = await collectSessionLog({ workspaceRoot: ws, home, state: first.next_state });
    assert.deepEqual(
      second.tests_run.map((t) => [t.source, t.command, t.result]),
      [
        ['gemini', 'npm test', 'passed'],
        ['opencode', 'cargo test', 'passed'],
      ],
    );
    const third = await collectSessionLog({ workspaceRoot: ws, home, state: second.next_state });
    assert.deepEqual(third.tests_run, [], 'nothing new');
    // The readers can be turned off, and their folders overridden (setting handoff.sessionLog.locations).
    assert.deepEqual(
      (await collectSessionLog({ workspaceRoot: ws, home, sources: ['gemini'] })).transcripts.map((t) => t.source),
      ['gemini'],
    );
    const moved = await collectSessionLog({ workspaceRoot: ws, home: tempDir(), locations: { gemini: path.join(home, '.gemini'), opencode: storage } });
    assert.equal(moved.transcripts.length, 2);
    // $GEMINI_CLI_HOME and $XDG_DATA_HOME move the defaults as they move the tools' own folders.
    process.env.GEMINI_CLI_HOME = home;
    process.env.XDG_DATA_HOME = path.join(home, '.local', 'share');
    assert.equal((await collectSessionLog({ workspaceRoot: ws, home: tempDir() })).transcripts.length, 2);
  });

  it('the CLI: --session-log names a Gemini chat or an OpenCode session file, told apart by content, and the handoff lists its test runs', async () => {
    const chat = path.join(tempDir(), 'exported-chat.jsonl');
    geminiChat(chat, 'ffffffff', 1, T(0));
    const storage = tempDir();
    const s = writeSession(storage, { projectID: 'global', directory: '/w' }, [
      { role: 'assistant', created: 1, parts: [bashPart('pytest -q', 0, '5 passed in 0.1s', 2)] },
    ]);
    for (const [log, expected] of [
      [chat, [['failed', 'gemini', 'npm test']]],
      [s.file, [['passed', 'opencode', 'pytest -q']]],
    ] as const) {
      const dir = initRepo();
      write(dir, 'a.txt', 'a\n');
      commitAll(dir, 'c');
      const out: string[] = [];
      const io = { stdout: (t: string) => out.push(t), stderr: () => undefined, cwd: dir };
      assert.equal(await runCli(['handover', '-s', 'hacker', '-t', 't', '--json', '--session-log', log], io), 0);
      const ok = HandoverOkSchema.parse(JSON.parse(out.pop() ?? ''));
      assert.deepEqual(
        ok.package.tests_run.map((t) => [t.result, t.source, t.command]),
        expected,
      );
    }
  });
});
