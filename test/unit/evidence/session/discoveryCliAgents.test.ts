/**
 * Discovery of GitHub Copilot CLI, Qwen Code and Factory Droid sessions for the open folder, under
 * a temporary home: each agent's folder as the agent lays it out, a session of the workspace and
 * a newer one of another folder, then the handoff's session evidence read through the same path
 * `auto` takes (records in the shapes of ./cliAgents.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { collectSessionLog } from '../../../../src/evidence/session/collectSessionLog';
import { findCopilotCli, findDroid, findQwen, qwenProjectDirName } from '../../../../src/evidence/session/discoveryCliAgents';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const at = (file: string, iso: string) => utimesSync(file, new Date(iso), new Date(iso));
const base = (found: Array<{ file: string }>) => found.map((f) => path.relative(path.dirname(path.dirname(f.file)), f.file));

/** A Copilot CLI session run in `cwd` with one `npm test` ending with `exit`. */
function copilotSession(cwd: string, exit: number): string {
  return jsonl([
    {
      type: 'session.start',
      data: { sessionId: 's', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.63', startTime: '2026-06-18T20:00:00Z', context: { cwd } },
      id: 'e1',
      timestamp: '2026-06-18T20:00:00Z',
      parentId: null,
    },
    {
      type: 'user.message',
      data: { content: `run the tests in ${path.basename(cwd)}`, attachments: [] },
      id: 'e2',
      timestamp: '2026-06-18T20:00:01Z',
      parentId: 'e1',
    },
    {
      type: 'tool.execution_start',
      data: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm test', description: 'tests' } },
      id: 'e3',
      timestamp: '2026-06-18T20:00:02Z',
      parentId: 'e2',
    },
    {
      type: 'tool.execution_complete',
      data: { toolCallId: 'c1', success: true, result: { content: `Tests: 3 total\n<shellId: 0 completed with exit code ${exit}>` } },
      id: 'e4',
      timestamp: '2026-06-18T20:00:03Z',
      parentId: 'e3',
    },
  ]);
}

/** A Qwen Code chat with one `cargo test` whose output ends with `exit`. */
function qwenChat(cwd: string, exit: number): string {
  const r = (uuid: string, type: string, extra: object) => ({
    uuid,
    parentUuid: null,
    sessionId: 'q',
    timestamp: '2026-06-18T21:00:00Z',
    type,
    cwd,
    version: '0.15.0',
    ...extra,
  });
  return jsonl([
    r('u1', 'user', { message: { role: 'user', parts: [{ text: 'run cargo test' }] } }),
    r('a1', 'assistant', { message: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'cargo test' } } }] } }),
    r('t1', 'tool_result', {
      message: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'c1',
              name: 'run_shell_command',
              response: { output: `Command: cargo test\nDirectory: (root)\nOutput: test result: ok\nError: (none)\nExit Code: ${exit}` },
            },
          },
        ],
      },
      toolCallResult: { callId: 'c1', status: 'success' },
    }),
  ]);
}

/** A Droid session run in `cwd` with one `pytest` ending with `exit`. */
function droidSession(cwd: string, exit: number): string {
  return jsonl([
    { type: 'session_start', id: 'd', title: 'tests', owner: 'user', version: 2, cwd },
    { type: 'message', id: 'm1', timestamp: '2026-06-18T22:00:00Z', message: { role: 'user', content: [{ type: 'text', text: 'run pytest' }] } },
    {
      type: 'message',
      id: 'm2',
      timestamp: '2026-06-18T22:00:01Z',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Execute', input: { command: 'pytest' } }] },
    },
    {
      type: 'message',
      id: 'm3',
      timestamp: '2026-06-18T22:00:02Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `5 passed\n\n[Process exited with code ${exit}]` }] },
    },
  ]);
}

describe('Copilot CLI, Qwen Code and Factory Droid: discovery for the open folder', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);
  const saved = { COPILOT_HOME: process.env.COPILOT_HOME, QWEN_RUNTIME_DIR: process.env.QWEN_RUNTIME_DIR };
  beforeEach(() => {
    delete process.env.COPILOT_HOME;
    delete process.env.QWEN_RUNTIME_DIR;
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("Copilot CLI: the newest session-state/<id>/events.jsonl whose session.start names the workspace (or, older, a flat <id>.jsonl); not another folder's", async () => {
    const copilot = path.join(tempDir(), '.copilot');
    const ws = path.join(tempDir(), 'shop');
    mkdirSync(ws);
    write(copilot, 'session-state/aaaa/events.jsonl', copilotSession(ws, 1));
    at(path.join(copilot, 'session-state/aaaa/events.jsonl'), '2026-06-18T20:00:00Z');
    write(copilot, 'session-state/bbbb/events.jsonl', copilotSession(ws, 0));
    at(path.join(copilot, 'session-state/bbbb/events.jsonl'), '2026-06-18T21:00:00Z');
    write(copilot, 'session-state/cccc/events.jsonl', copilotSession('/elsewhere', 1)); // newest, another folder
    assert.deepEqual(base(await findCopilotCli(copilot, ws)), ['bbbb/events.jsonl']);
    // A folder named only by the session's workspace.yaml (its first event not a session.start).
    const other = path.join(tempDir(), '.copilot');
    write(other, 'session-state/dddd/events.jsonl', copilotSession('/x', 0).split('\n').slice(1).join('\n'));
    write(other, 'session-state/dddd/workspace.yaml', `id: dddd\ncwd: ${ws}\nsummary: tests\n`);
    assert.deepEqual(base(await findCopilotCli(other, ws)), ['dddd/events.jsonl']);
    // The older flat layout.
    const flat = path.join(tempDir(), '.copilot');
    write(flat, 'session-state/eeee.jsonl', copilotSession(ws, 0));
    assert.deepEqual(
      (await findCopilotCli(flat, ws)).map((f) => path.basename(f.file)),
      ['eeee.jsonl'],
    );
    assert.deepEqual(await findCopilotCli(path.join(tempDir(), 'none'), ws), []);
  });

  it('Qwen Code: the newest chat of projects/<workspace path, letters and digits kept>/chats', async () => {
    const qwen = path.join(tempDir(), '.qwen');
    const ws = path.join(tempDir(), 'my app.v2');
    mkdirSync(ws);
    assert.match(qwenProjectDirName(ws), /^[A-Za-z0-9-]+-my-app-v2$/);
    const chats = path.join(qwen, 'projects', qwenProjectDirName(ws), 'chats');
    write(chats, 'old.jsonl', qwenChat(ws, 1));
    at(path.join(chats, 'old.jsonl'), '2026-06-18T20:00:00Z');
    write(chats, 'new.jsonl', qwenChat(ws, 0));
    write(path.join(qwen, 'projects', qwenProjectDirName('/elsewhere'), 'chats'), 'other.jsonl', qwenChat('/elsewhere', 1));
    assert.deepEqual(
      (await findQwen(qwen, ws)).map((f) => path.basename(f.file)),
      ['new.jsonl'],
    );
  });

  it('Factory Droid: the newest session whose session_start names the workspace, in a project folder or (older) straight under sessions/', async () => {
    const sessions = path.join(tempDir(), '.factory', 'sessions');
    const ws = path.join(tempDir(), 'api');
    mkdirSync(ws);
    const enc = ws.replace(/[\\/:]/g, '-');
    write(sessions, `${enc}/s1.jsonl`, droidSession(ws, 1));
    at(path.join(sessions, enc, 's1.jsonl'), '2026-06-18T20:00:00Z');
    write(sessions, 's0.jsonl', droidSession(ws, 0));
    at(path.join(sessions, 's0.jsonl'), '2026-06-18T19:00:00Z');
    write(sessions, `${enc}/s1.settings.json`, '{}');
    write(sessions, '-elsewhere/s2.jsonl', droidSession('/elsewhere', 0)); // newest, another folder
    assert.deepEqual(
      (await findDroid(sessions, ws)).map((f) => path.basename(f.file)),
      ['s1.jsonl'],
    );
  });

  it("auto: each agent's session found under the home folder and its test runs read; $COPILOT_HOME and $QWEN_RUNTIME_DIR move the defaults", async () => {
    const home = tempDir();
    const ws = path.join(tempDir(), 'app');
    mkdirSync(ws);
    write(home, '.copilot/session-state/s1/events.jsonl', copilotSession(ws, 1));
    write(home, `.qwen/projects/${qwenProjectDirName(ws)}/chats/q1.jsonl`, qwenChat(ws, 0));
    write(home, `.factory/sessions/${ws.replace(/[\\/:]/g, '-')}/d1.jsonl`, droidSession(ws, 2));
    const got = await collectSessionLog({ workspaceRoot: ws, home });
    assert.deepEqual(got.transcripts.map((t) => `${t.source}:${path.basename(t.file)}`).sort(), [
      'copilot-cli:events.jsonl',
      'droid:d1.jsonl',
      'qwen:q1.jsonl',
    ]);
    assert.deepEqual(got.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]).sort(), [
      ['copilot-cli', 'npm test', 'failed', 1],
      ['droid', 'pytest', 'failed', 2],
      ['qwen', 'cargo test', 'passed', 0],
    ]);
    assert.deepEqual(
      (await collectSessionLog({ workspaceRoot: ws, home, sources: ['qwen'] })).transcripts.map((t) => t.source),
      ['qwen'],
    );
    const moved = tempDir();
    write(moved, 'copilot/session-state/s9/events.jsonl', copilotSession(ws, 0));
    write(moved, `qwen/projects/${qwenProjectDirName(ws)}/chats/q9.jsonl`, qwenChat(ws, 0));
    process.env.COPILOT_HOME = path.join(moved, 'copilot');
    process.env.QWEN_RUNTIME_DIR = path.join(moved, 'qwen');
    const envMoved = await collectSessionLog({ workspaceRoot: ws, home: tempDir() });
    assert.deepEqual(envMoved.transcripts.map((t) => path.basename(t.file)).sort(), ['events.jsonl', 'q9.jsonl']);
  });
});
