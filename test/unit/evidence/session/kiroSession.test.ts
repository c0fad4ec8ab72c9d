/**
 * Kiro CLI's session store (`~/.kiro/sessions/cli/<id>.json` + `<id>.jsonl`), written here in the shapes of its own
 * source (test/helpers/kiroSession.ts, from aws/amazon-q-developer-cli `crates/agent` and `crates/chat-cli-v2`): no
 * real session log is public (test/fixtures/real/SOURCES.md), so every shape below is the source's.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionCompaction, SessionEvent, SessionFileEdit, SessionPlan, SessionTurn } from '../../../../src/core/session/events';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findKiro, findKiroSessions } from '../../../../src/evidence/session/discoveryCliAgents';
import { kiroExitCode, readKiroSession } from '../../../../src/evidence/session/readers/kiroSession';
import { entry, kiroState, prompt, response, results, shellJson as v1ShellJson, toolUse as v1ToolUse, usesTools, writeKiroDb } from '../../../helpers/kiroCli';
import {
  assistantEntry,
  cancelled,
  compactionEntry,
  failed,
  promptEntry,
  shellJson,
  succeeded,
  text,
  toolResultsEntry,
  toolUse,
  writeKiroSession,
} from '../../../helpers/kiroSession';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (ev: SessionEvent[]) => ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.cwd]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const userTurns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn' && e.role === 'user').map((t) => t.text);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => [i.text, i.status]));

const S0 = 1774900000;
const taskState = (...tasks: Array<[string, string, boolean]>) => ({
  kind: 'json',
  data: {
    tasks: tasks.map(([id, task_description, completed]) => ({ id, task_description, completed })),
    description: 'Parser',
    context: [],
    modified_files: [],
  },
});

/** Tests fail then pass, edits, a denied write and push, an interrupted call, the task list, the CLI's own prompts. */
function session(ws: string) {
  return [
    promptEntry([text('make the parser tests pass')], S0),
    assistantEntry(
      'Running the tests first.',
      toolUse('t1', 'shell', { command: 'npm test', __tool_use_purpose: 'Run the tests' }),
      toolUse('t2', 'task', {
        command: 'create',
        tasks: [{ task_description: 'Fix the parser' }, { task_description: 'Run the tests' }],
        task_list_description: 'Parser',
      }),
    ),
    toolResultsEntry([
      succeeded('t1', [shellJson('exit status: 1', '', '1 failing')]),
      succeeded('t2', [taskState(['1', 'Fix the parser', false], ['2', 'Run the tests', false])]),
    ]),
    assistantEntry(
      '',
      toolUse('t3', 'write', { command: 'strReplace', path: `${ws}/src/parser.ts`, oldStr: 'a', newStr: 'b' }),
      toolUse('t4', 'write', { command: 'create', path: '/etc/hosts', content: 'x' }),
    ),
    toolResultsEntry([succeeded('t3', [text('')]), failed('t4', 'Tool use was denied by the user.')]),
    assistantEntry('', toolUse('t5', 'shell', { command: 'git push --force' })),
    toolResultsEntry([failed('t5', 'Tool use was denied by the user.')]),
    assistantEntry('', toolUse('t6', 'shell', { command: 'rm -rf build', working_dir: `${ws}/pkg` })),
    toolResultsEntry([cancelled('t6')]),
    assistantEntry('Tool uses were interrupted, waiting for the next user prompt'),
    // A stop hook's reason and a retry request: prompts the CLI sends, unstamped.
    promptEntry([text('Stop hook: the tests still fail, keep going')]),
    promptEntry([text('You took too long to respond - try to split up the work into smaller steps.')]),
    promptEntry([text('now run them again'), text('{"type":"resource_link","uri":"file:///x/README.md","name":"README.md"}')], S0 + 60),
    assistantEntry(
      '',
      toolUse('t7', 'execute_bash', { command: 'npm test' }),
      toolUse('t8', 'task', { command: 'complete', completed_task_ids: ['1', '2'], context_update: 'done' }),
    ),
    // Completing the last task empties the store before the answer.
    toolResultsEntry([succeeded('t7', [shellJson('exit status: 0', '4 passing')]), succeeded('t8', [taskState()])]),
    compactionEntry('## OBJECTIVE\nMake the parser tests pass.'),
    assistantEntry('All green.'),
  ];
}

describe("Kiro CLI's session store", () => {
  after(cleanupTempDirs);

  it('a session log, whatever its name: typed requests only, exit codes, denied and interrupted calls not run, edits, the task list, the compaction', async () => {
    const ws = tempDir('kiro-ws-');
    const log = writeKiroSession(tempDir('kiro-sessions-'), { id: 'a1b2', cwd: ws, entries: session(ws) });
    const renamed = path.join(tempDir('kiro-renamed-'), 'transcript.txt');
    copyFileSync(log, renamed);
    const byContent = await readByContent(renamed, { workspaceRoot: ws });
    assert.equal(byContent?.detected.format, 'kiro-session');
    assert.equal(byContent?.detected.source, 'kiro');
    const r = await readKiroSession(log, { workspaceRoot: ws });
    assert.equal(r.error, undefined);
    assert.equal(r.stats.malformed, 0);
    assert.deepEqual(userTurns(r.events), ['make the parser tests pass', 'now run them again']);
    assert.deepEqual(
      r.user_requests?.map((q) => [q.text, q.time]),
      [
        ['make the parser tests pass', new Date(S0 * 1000).toISOString()],
        ['now run them again', new Date((S0 + 60) * 1000).toISOString()],
      ],
    );
    assert.deepEqual(commands(r.events), [
      ['npm test', 1, true, ws],
      ['git push --force', null, false, ws],
      ['rm -rf build', null, false, `${ws}/pkg`],
      ['npm test', 0, true, ws],
    ]);
    assert.deepEqual(edits(r.events), [['src/parser.ts', 'write:strReplace']]);
    // The CLI's own line after interrupted calls is not the agent's words.
    assert.deepEqual(
      r.events.filter((e): e is SessionTurn => e.kind === 'turn' && e.role === 'assistant').map((t) => t.text),
      ['Running the tests first.', 'All green.'],
    );
    assert.deepEqual(plans(r.events).at(-1), [
      ['Fix the parser', 'completed'],
      ['Run the tests', 'completed'],
    ]);
    assert.deepEqual(
      r.events.filter((e): e is SessionCompaction => e.kind === 'compaction').map((c) => c.text),
      ['## OBJECTIVE\nMake the parser tests pass.'],
    );
    assert.equal(r.last_time, (S0 + 60) * 1000);
  });

  it('the results map left empty: the toolResult blocks decide; Windows and signal statuses', async () => {
    const ws = tempDir('kiro-ws-');
    const log = writeKiroSession(tempDir('kiro-sessions-'), {
      id: 'b2',
      cwd: ws,
      entries: [
        promptEntry([text('build it')], S0),
        assistantEntry(
          '',
          toolUse('t1', 'shell', { command: 'cargo test' }),
          toolUse('t2', 'shell', { command: 'make' }),
          toolUse('t3', 'shell', { command: 'git push' }),
        ),
        toolResultsEntry([succeeded('t1', [shellJson('exit code: 101')]), succeeded('t2', [shellJson('signal: 9 (SIGKILL)')]), cancelled('t3')], false),
      ],
    });
    const r = await readKiroSession(log, { workspaceRoot: ws });
    assert.deepEqual(commands(r.events), [
      ['cargo test', 101, true, ws],
      ['make', null, true, ws],
      ['git push', null, false, ws],
    ]);
    assert.equal(r.events.filter((e): e is SessionCommand => e.kind === 'command')[1].failed, true);
    assert.equal(kiroExitCode('exit code: 0xc0000005'), -1073741819);
    assert.equal(kiroExitCode('exit status: 0'), 0);
    assert.equal(kiroExitCode('0'), 0);
    assert.equal(kiroExitCode('signal: 15 (SIGTERM)'), null);
  });

  it('a writer before prompt stamps: the first text block is the request, the hook output after it and the retry prompt are not', async () => {
    const ws = tempDir('kiro-ws-');
    const log = writeKiroSession(tempDir('kiro-sessions-'), {
      id: 'c3',
      cwd: ws,
      entries: [
        promptEntry([text('add a README'), text('HOOK: branch main, 2 files changed')]),
        assistantEntry('', toolUse('t1', 'fs_write', { command: 'create', path: 'README.md', file_text: '# x' })),
        toolResultsEntry([succeeded('t1', [text('')])]),
        promptEntry([text('The generated tool was too large, try again but this time split up the work between multiple tool uses')]),
        assistantEntry('Done.'),
      ],
    });
    const r = await readKiroSession(log, { workspaceRoot: ws });
    assert.deepEqual(userTurns(r.events), ['add a README']);
    assert.deepEqual(edits(r.events), [['README.md', 'fs_write:create']]);
  });

  it("a conversation exported from the older store: its unstamped prompts are the CLI's, a prompt typed over pending calls is the user's", async () => {
    const ws = tempDir('kiro-ws-');
    const log = writeKiroSession(tempDir('kiro-sessions-'), {
      id: 'd4',
      cwd: ws,
      exportedFromV1: true,
      entries: [
        promptEntry([text('# Total entries: 236\nfile-a\nfile-b')]),
        promptEntry([text('list the archive')], S0),
        assistantEntry('', toolUse('t1', 'execute_bash', { command: 'ls archive' })),
        // `convert_user_message`: a `CancelledToolUses` becomes one ToolResults, its prompt a text block after the results.
        {
          version: 'v1',
          kind: 'ToolResults',
          data: {
            message_id: 'm',
            content: [
              { kind: 'toolResult', data: { toolUseId: 't1', content: [text('Tool use was cancelled by the user')], status: 'error' } },
              text('no, count them instead'),
            ],
            results: {},
          },
        },
        assistantEntry('', toolUse('t2', 'execute_bash', { command: 'ls archive | wc -l' })),
        toolResultsEntry([succeeded('t2', [{ kind: 'json', data: { exit_status: '0', stdout: '236', stderr: '' } }])], false),
      ],
    });
    const r = await readKiroSession(log, { workspaceRoot: ws });
    assert.deepEqual(userTurns(r.events), ['list the archive', 'no, count them instead']);
    assert.deepEqual(commands(r.events), [
      ['ls archive', null, false, ws],
      ['ls archive | wc -l', 0, true, ws],
    ]);
  });

  it('the metadata file given stands for its log; read on from an offset, the task list continues from the remembered plan', async () => {
    const ws = tempDir('kiro-ws-');
    const dir = tempDir('kiro-sessions-');
    const log = writeKiroSession(dir, { id: 'e5', cwd: ws, entries: session(ws).slice(0, 3) });
    const detected = await detectTranscript(path.join(dir, 'e5.json'));
    assert.deepEqual([detected?.format, detected?.file], ['kiro-session', log]);
    const first = await readKiroSession(log, { workspaceRoot: ws });
    const plan = first.events.filter((e): e is SessionPlan => e.kind === 'plan').at(-1);
    assert.ok(plan);
    appendFileSync(
      log,
      [
        promptEntry([text('go on')], S0 + 120),
        assistantEntry('', toolUse('t9', 'task', { command: 'complete', completed_task_ids: ['1'], context_update: 'fixed' })),
        toolResultsEntry([succeeded('t9', [taskState(['1', 'Fix the parser', true], ['2', 'Run the tests', false])])]),
      ]
        .map((e) => `${JSON.stringify(e)}\n`)
        .join(''),
    );
    const next = await readKiroSession(log, { workspaceRoot: ws, fromOffset: first.end_offset, sinceTime: first.last_time, plan });
    assert.deepEqual(userTurns(next.events), ['go on']);
    assert.deepEqual(commands(next.events), []);
    assert.deepEqual(plans(next.events), [
      [
        ['Fix the parser', 'completed'],
        ['Run the tests', 'pending'],
      ],
    ]);
  });

  it('an export (kiro-session-export-v1: metadata and log_entries in one document), whatever its name, is read as the session', async () => {
    const ws = tempDir('kiro-ws-');
    const dir = tempDir('kiro-sessions-');
    const log = writeKiroSession(dir, { id: 'f6', cwd: ws, entries: session(ws) });
    const metadata: unknown = JSON.parse(readFileSync(path.join(dir, 'f6.json'), 'utf8'));
    const entries = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
    // `save_as_json`: `serde_json::to_string_pretty` of `{format, metadata, log_entries}`.
    const exported = path.join(tempDir('kiro-export-'), 'bug.md');
    writeFileSync(exported, JSON.stringify({ format: 'kiro-session-export-v1', metadata, log_entries: entries }, null, 2));
    const got = await readByContent(exported, { workspaceRoot: ws });
    assert.equal(got?.detected.format, 'kiro-session-export');
    const r = got!.read;
    assert.equal(r.error, undefined);
    assert.deepEqual(userTurns(r.events), ['make the parser tests pass', 'now run them again']);
    assert.deepEqual(commands(r.events), [
      ['npm test', 1, true, ws],
      ['git push --force', null, false, ws],
      ['rm -rf build', null, false, `${ws}/pkg`],
      ['npm test', 0, true, ws],
    ]);
    assert.deepEqual(edits(r.events), [['src/parser.ts', 'write:strReplace']]);
    assert.equal(r.last_time, (S0 + 60) * 1000);
  });

  it("discovery: the workspace's newest non-empty session, not another folder's, not a sub-agent's; the newer of the two stores", async () => {
    const ws = tempDir('kiro-ws-');
    const other = tempDir('kiro-other-');
    const dir = tempDir('kiro-sessions-');
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);
    const mine = writeKiroSession(dir, { id: 'mine', cwd: ws, entries: session(ws) });
    at(mine, S0);
    at(writeKiroSession(dir, { id: 'theirs', cwd: other, entries: session(other) }), S0 + 10);
    at(writeKiroSession(dir, { id: 'sub', cwd: ws, parentSessionId: 'mine', entries: session(ws) }), S0 + 20);
    at(writeKiroSession(dir, { id: 'empty', cwd: ws, entries: [] }), S0 + 30);
    const found = await findKiroSessions(dir, ws);
    assert.deepEqual(
      found.map((f) => [f.file, f.format, f.source]),
      [[mine, 'kiro-session', 'kiro']],
    );
    assert.equal(found[0].mtimeMs, statSync(mine).mtimeMs);

    // data.sqlite3 with an older conversation of the workspace: the session store's is newer, so it is read.
    const dataDir = tempDir('kiro-data-');
    const older = kiroState('c-1', [
      entry(ws, prompt('old request'), (S0 - 100) * 1000, usesTools('', v1ToolUse('x', 'execute_bash', { command: 'true' })), (S0 - 100) * 1000),
      entry(ws, results(['x', 'Success', [v1ShellJson(0)]]), null, response('ok'), (S0 - 99) * 1000),
    ]);
    writeKiroDb(path.join(dataDir, 'data.sqlite3'), [{ cwd: ws, id: 'c-1', state: older, updated: (S0 - 99) * 1000 }]);
    assert.deepEqual(
      (await findKiro(dataDir, ws, dir)).map((f) => f.file),
      [mine],
    );
    // A newer conversation in the database wins over the session store.
    const newerDir = tempDir('kiro-data-');
    writeKiroDb(path.join(newerDir, 'data.sqlite3'), [{ cwd: ws, id: 'c-2', state: older, updated: (S0 + 100) * 1000 }]);
    assert.deepEqual(
      (await findKiro(newerDir, ws, dir)).map((f) => path.basename(f.file)),
      ['data.sqlite3#c-2'],
    );
    assert.deepEqual(await findKiroSessions(dir, tempDir('kiro-none-')), []);
  });
});
