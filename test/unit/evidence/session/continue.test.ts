/**
 * Continue sessions (`~/.continue/sessions/<id>.json`), read by content whatever the file's name, in
 * the shapes continuedev/continue writes: the IDE's as in the real sessions of test/fixtures/real
 * (SOURCES.md: user content as text parts, `thinking` items, `toolCallStates` with `ContextItem`
 * outputs whose terminal `status` is "Command completed" / "Command failed with exit code N", a
 * `tool` item answering each call, `canceled` for a refused one); the `cn` CLI's as
 * `extensions/cli/src/stream/streamChatResponse.helpers.ts` and `ChatHistoryService.addToolResult`
 * write them (`Bash`, `Edit`, `Write`, `Checklist`; "Permission denied by user"; a failing command
 * rejected as "Error (exit code N): …"); the older single `toolCallState`.
 */
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findContinue } from '../../../../src/evidence/session/discoveryCliAgents';
import { continueExitCode, continueFolderPath } from '../../../../src/evidence/session/readers/continueSession';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionPlan } from '../../../../src/core/session/events';
import { cleanupTempDirs, tempDir, write as writeIn } from '../../../helpers/repo';

/** Writes the file and gives its path. */
const write = (root: string, rel: string, content: string) => {
  writeIn(root, rel, content);
  return path.join(root, rel);
};

const commands = (ev: SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.failed ?? false]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));

const user = (text: string) => ({ message: { role: 'user', content: [{ type: 'text', text }] }, contextItems: [], editorState: {} });
const call = (id: string, name: string, args: object, status: string, output?: object[]) => ({
  toolCallId: id,
  toolCall: { id, type: 'function', function: { name, arguments: JSON.stringify(args) } },
  status,
  parsedArgs: args,
  ...(output ? { output } : {}),
});
const assistant = (content: string, states: object[] = []) => ({
  message: { role: 'assistant', content, ...(states.length ? { toolCalls: [] } : {}) },
  contextItems: [],
  ...(states.length ? { toolCallStates: states } : {}),
});
const toolItem = (id: string, content: string) => ({ message: { role: 'tool', content, toolCallId: id }, contextItems: [] });
const terminal = (content: string, status: string) => [{ name: 'Terminal', description: 'Terminal command output', content, status }];
const cliResult = (content: string) => [{ content, name: 'Tool Result', description: 'Tool execution result' }];
const session = (workspaceDirectory: string, history: object[], sessionId = 's1') =>
  JSON.stringify({ sessionId, title: 'Fix the parser', workspaceDirectory, history }, undefined, 2);

describe('Continue sessions, read by content', () => {
  let dir: string;
  before(() => (dir = tempDir('handoff-continue-')));
  after(cleanupTempDirs);

  it("IDE: typed requests, terminal runs with the exit code of their status, a canceled call not run, edit / create tools' paths", async () => {
    const ws = path.join(dir, 'app');
    const file = write(
      dir,
      'log-ide',
      session(pathToFileURL(ws).href, [
        user('run the tests and fix the parser'),
        { message: { role: 'thinking', content: 'Considering the parser' }, contextItems: [] },
        assistant('', [
          call(
            'c1',
            'run_terminal_command',
            { command: 'npm test', waitForCompletion: true },
            'done',
            terminal('Tests: 1 failed, 3 passed', 'Command failed with exit code 1'),
          ),
        ]),
        toolItem('c1', 'Tests: 1 failed, 3 passed'),
        assistant('', [
          call('c2', 'edit_existing_file', { filepath: 'src/parser.ts', changes: '// ... existing code ...' }, 'done', []),
          call('c3', 'create_new_file', { filepath: pathToFileURL(path.join(ws, 'src/lexer.ts')).href, contents: 'x' }, 'done', []),
          call('c4', 'single_find_and_replace', { filepath: 'src/broken.ts', old_string: 'a', new_string: 'b' }, 'errored', []),
        ]),
        assistant('', [call('c5', 'run_terminal_command', { command: 'npm test' }, 'done', terminal('Tests: 4 passed', 'Command completed'))]),
        toolItem('c5', 'Tests: 4 passed'),
        assistant('', [call('c6', 'run_terminal_command', { command: 'git push --force' }, 'canceled')]),
        user('do not push; commit only'),
        assistant('Understood.'),
      ]),
    );
    const r = await readByContent(file, { workspaceRoot: ws });
    assert.equal(r?.detected.format, 'continue');
    const ev = r!.read.events;
    assert.deepEqual(
      r!.read.user_requests?.map((u) => u.text),
      ['run the tests and fix the parser', 'do not push; commit only'],
    );
    assert.deepEqual(commands(ev), [
      ['npm test', 1, true, false],
      ['npm test', 0, true, false],
      ['git push --force', null, false, false],
    ]);
    assert.deepEqual(edits(ev), [
      ['src/parser.ts', 'edit_existing_file'],
      ['src/lexer.ts', 'create_new_file'],
    ]);
    assert.ok(!ev.some((e) => e.kind === 'turn' && /Considering/.test(e.text)), 'thinking is not a turn');
    assert.equal(r!.read.stats.malformed, 0);
  });

  it('cn CLI: Bash without a recorded code, a failing one with its code, a refused one, Edit / Write paths, Checklist, a compaction, the older toolCallState', async () => {
    const ws = path.join(dir, 'cli-ws');
    const file = write(
      dir,
      'neutral-name',
      session(ws, [
        user('add a lexer'),
        assistant('Listing first.', [call('b1', 'Bash', { command: 'ls src' }, 'done', cliResult('parser.ts'))]),
        assistant('', [
          call('b2', 'Bash', { command: 'npx vitest run' }, 'errored', cliResult('Error executing tool Bash: Error (exit code 2): FAIL src/lexer.test.ts')),
          call('b3', 'Bash', { command: 'rm -rf dist' }, 'canceled', cliResult('Permission denied by user')),
        ]),
        assistant('', [
          call('e1', 'Edit', { file_path: path.join(ws, 'src/parser.ts'), old_string: 'a', new_string: 'b' }, 'done', cliResult('ok')),
          call('e2', 'Write', { filepath: 'src/lexer.ts', content: 'x' }, 'done', cliResult('ok')),
          call('e3', 'Checklist', { checklist: '- [x] Read the parser\n- [ ] Write the lexer' }, 'done', cliResult('Task list status')),
        ]),
        { ...assistant('Summary follows.'), conversationSummary: 'The user asked for a lexer; tests fail.' },
        { ...assistant(''), toolCallState: call('o1', 'run_terminal_command', { command: 'make' }, 'done', terminal('', 'Command completed')) },
      ]),
    );
    const r = await readByContent(file);
    assert.equal(r?.detected.source, 'continue');
    const ev = r!.read.events;
    assert.deepEqual(commands(ev), [
      ['ls src', null, true, false],
      ['npx vitest run', 2, true, false],
      ['rm -rf dist', null, false, false],
      ['make', 0, true, false],
    ]);
    assert.deepEqual(edits(ev), [
      ['src/parser.ts', 'Edit'],
      ['src/lexer.ts', 'Write'],
    ]);
    assert.deepEqual(plans(ev), [['completed:Read the parser', 'pending:Write the lexer']]);
    assert.deepEqual(
      ev.filter((e) => e.kind === 'compaction').map((e) => e.kind === 'compaction' && e.text),
      ['The user asked for a lexer; tests fail.'],
    );
  });

  it('exit codes as the tools record them, never guessed; folders as paths or file URIs', () => {
    assert.equal(continueExitCode('Command completed', ''), 0);
    assert.equal(continueExitCode('Command failed with exit code 127', ''), 127);
    assert.equal(continueExitCode('Command failed with: Command failed with exit code 3', ''), 3);
    assert.equal(continueExitCode('Command timed out', 'partial'), null);
    assert.equal(continueExitCode(undefined, 'all good'), null);
    assert.equal(continueFolderPath('/home/user/app'), '/home/user/app');
    assert.equal(continueFolderPath(pathToFileURL('/tmp/my app').href), path.resolve('/tmp/my app'));
    if (process.platform !== 'win32') assert.equal(continueFolderPath('file:///c%3A/laragon/www/hms'), 'c:/laragon/www/hms');
  });

  it('not a Continue session: its sessions.json index, the pre-2024 `history.timeline` document', async () => {
    write(dir, 'idx/sessions.json', JSON.stringify([{ sessionId: 's1', title: 't', dateCreated: '1', workspaceDirectory: '/w' }]));
    assert.equal(await detectTranscript(path.join(dir, 'idx/sessions.json')), undefined);
    write(dir, 'old.json', JSON.stringify({ history: { timeline: [{ step: { name: 'User Input' } }] }, session_info: { title: 't', session_id: 'x' } }));
    assert.equal(await detectTranscript(path.join(dir, 'old.json')), undefined);
  });

  it("found for the folder: the newest session sessions.json lists for it (IDE URI or CLI path), another folder's newer one left alone; without an index, by each file's workspaceDirectory", async () => {
    const ws = tempDir('handoff-continue-ws-');
    const other = tempDir('handoff-continue-other-');
    const sessions = path.join(dir, 'home/.continue/sessions');
    const older = write(sessions, 'a.json', session(pathToFileURL(ws).href, [user('first')], 'a'));
    const newer = write(sessions, 'b.json', session(ws, [user('second')], 'b'));
    const foreign = write(sessions, 'c.json', session(other, [user('elsewhere')], 'c'));
    utimesSync(older, 1000, 1000);
    utimesSync(newer, 2000, 2000);
    utimesSync(foreign, 3000, 3000);
    write(
      sessions,
      'sessions.json',
      JSON.stringify([
        { sessionId: 'a', title: 'first', dateCreated: '1', workspaceDirectory: pathToFileURL(ws).href },
        { sessionId: 'b', title: 'second', dateCreated: '2', workspaceDirectory: ws },
        { sessionId: 'c', title: 'elsewhere', dateCreated: '3', workspaceDirectory: other },
      ]),
    );
    assert.deepEqual(
      (await findContinue(sessions, ws)).map((f) => [f.source, f.file]),
      [['continue', newer]],
    );
    assert.deepEqual(
      (await findContinue(sessions, other)).map((f) => f.file),
      [foreign],
    );
    write(sessions, 'sessions.json', '');
    utimesSync(older, 4000, 4000);
    assert.deepEqual(
      (await findContinue(sessions, ws)).map((f) => f.file),
      [older],
    );
    assert.deepEqual(await findContinue(path.join(dir, 'nowhere'), ws), []);
  });
});
