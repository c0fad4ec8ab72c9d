/**
 * Cursor agent transcripts (`~/.cursor/projects/<key>/agent-transcripts/<id>/<id>.jsonl`, written by
 * the Cursor IDE's agent and the Cursor Agent CLI), read by content whatever the file's name. No
 * public transcript was found (test/fixtures/real/SOURCES.md), so every record here is written in
 * the shapes open-source readers of these files document from real sessions: two keys, `role` and
 * `message: {content}`, with `text` and `tool_use {name, input}` blocks only (an `ApplyPatch`'s
 * input is the patch text), user text behind `<timestamp>` / `<image_files>` preambles inside
 * `<user_query>`, and `{type: "turn_ended", status, error?}` markers. No tool result is recorded.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { SessionCommand, SessionEvent, SessionFileEdit, SessionPlan, SessionTurn } from '../../../../src/core/session/events';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { cursorProjectKey, findCursor } from '../../../../src/evidence/session/discoveryCliAgents';
import { cursorUserQuery, readCursor } from '../../../../src/evidence/session/readers/cursor';
import { cleanupTempDirs, tempDir, write } from '../../../helpers/repo';

/** Writes the file; its path. */
const put = (dir: string, rel: string, content: string) => {
  write(dir, rel, content);
  return path.join(dir, rel);
};
const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const user = (text: string) => ({ role: 'user', message: { content: [{ type: 'text', text }] } });
const assistant = (...content: object[]) => ({ role: 'assistant', message: { content } });
const text = (t: string) => ({ type: 'text', text: t });
const tool = (name: string, input: object | string) => ({ type: 'tool_use', name, input });
const query = (q: string) => `<timestamp>Friday, May 8, 2026, 6:05 AM (UTC+5:30)</timestamp>\n<user_query>\n${q}\n</user_query>`;

const commands = (ev: readonly SessionEvent[]) =>
  ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.claimed ?? null]);
const edits = (ev: readonly SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.tool, e.path]);
const plans = (ev: readonly SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => `${i.status}:${i.text}`));
const turns = (ev: readonly SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn').map((t) => [t.role, t.text, t.injected ?? false]);

describe('Cursor agent transcripts', () => {
  after(cleanupTempDirs);
  const ws = '/Users/example/demo-app';

  const session = [
    user(
      '[Image]\n<image_files>\nThe following images were provdied by the user and saved to the workspace for future use:\n1. /Users/example/demo-app/assets/image-1.png\n\nThese images can be copied for use in other locations.\n</image_files>\n' +
        query('add a health check endpoint and wire it into the router'),
    ),
    assistant(
      text('**Planning the change**\n\nRouter first, then the handler.'),
      tool('ReadFile', { path: `${ws}/src/router.ts`, offset: 1, limit: 200 }),
      tool('Glob', { target_directory: ws, glob_pattern: 'src/**/*.ts' }),
    ),
    assistant(
      tool('TodoWrite', {
        merge: false,
        todos: [
          { id: '1', content: 'Add the health handler', status: 'in_progress' },
          { id: '2', content: 'Wire it into the router', status: 'pending' },
          { id: '3', content: 'Run the tests', status: 'pending' },
        ],
      }),
    ),
    assistant(
      tool('ApplyPatch', `*** Begin Patch\n*** Add File: ${ws}/src/health.ts\n+export function health() {\n+  return { ok: true };\n+}\n*** End Patch`),
    ),
    assistant(tool('StrReplace', { path: `${ws}/src/router.ts`, old_string: 'a', new_string: 'b' })),
    assistant(
      tool('TodoWrite', {
        merge: true,
        todos: [
          { id: '1', status: 'completed' },
          { id: '2', status: 'completed' },
        ],
      }),
    ),
    assistant(text('Running the tests.'), tool('Shell', { command: 'npm test', working_directory: ws, description: 'Run tests' })),
    assistant(text('All 12 tests pass.')),
    { type: 'turn_ended', status: 'success' },
    user(
      '<timestamp>Monday, May 4, 2026, 12:47 AM (UTC+5:30)</timestamp>\n\n<user_query>The above subagent result is already visible to the user. DO NOT reiterate or summarize its contents unless asked, or if multi-task result synthesis is required. Otherwise do not say anything and end your turn.</user_query>',
    ),
    user('<system_reminder>internal Cursor state</system_reminder>'),
    user(
      '<timestamp>Friday, May 8, 2026, 9:56 PM (UTC+5)</timestamp>\n<system_notification>\nThe following task has finished.\n<task>\nkind: subagent\nstatus: success\ntitle: Check the models\n</task>\n</system_notification>\n<user_query>The beginning of the above subagent result is already visible to the user. Perform any follow-up actions (if needed).</user_query>\n\n<timestamp>Friday, May 8, 2026, 9:56 PM (UTC+5)</timestamp>\n<system_notification>\n<task>\nkind: subagent\nstatus: error\n</task>\n</system_notification>\n<user_query>The above subagent result is already visible to the user. DO NOT reiterate or summarize its contents unless asked.</user_query>',
    ),
    user(query('now delete the old ping route')),
    assistant(tool('Delete', { path: `${ws}/src/ping.ts` }), tool('Shell', { command: 'git status --short' })),
    assistant(tool('Grep path\n/Users/example/demo-app', { pattern: '^export function', glob: '*.ts' })),
    { type: 'turn_ended', status: 'error', error: 'context limit' },
  ];

  it('is detected by its records, whatever the file is called', async () => {
    const dir = tempDir('handoff-cursor-');
    const file = put(dir, 'log-1', jsonl(session));
    const found = await detectTranscript(file);
    assert.equal(found?.source, 'cursor');
    assert.equal(found?.format, 'cursor');
    // A `turn_ended` marker first (a resumed chat's tail) decides too.
    const marker = put(dir, 'log-2', jsonl([{ type: 'turn_ended', status: 'success' }, user(query('hi'))]));
    assert.equal((await detectTranscript(marker))?.source, 'cursor');
  });

  it("gives the user's requests verbatim, never Cursor's preambles, reminders or its own continuations", async () => {
    const dir = tempDir('handoff-cursor-');
    const read = await readCursor(put(dir, 'a.jsonl', jsonl(session)), { workspaceRoot: ws });
    assert.equal(read.error, undefined);
    assert.deepEqual(
      turns(read.events).filter(([role]) => role === 'user'),
      [
        ['user', 'add a health check endpoint and wire it into the router', false],
        [
          'user',
          'The above subagent result is already visible to the user. DO NOT reiterate or summarize its contents unless asked, or if multi-task result synthesis is required. Otherwise do not say anything and end your turn.',
          true,
        ],
        [
          'user',
          'The beginning of the above subagent result is already visible to the user. Perform any follow-up actions (if needed).\n\nThe above subagent result is already visible to the user. DO NOT reiterate or summarize its contents unless asked.',
          true,
        ],
        ['user', 'now delete the old ping route', false],
      ],
    );
    assert.deepEqual(
      read.user_requests?.map((r) => r.text),
      ['add a health check endpoint and wire it into the router', 'now delete the old ping route'],
    );
  });

  it("takes the typed query from a record that also holds Cursor's notifications, and a query quoting the tag whole", () => {
    assert.deepEqual(
      cursorUserQuery(
        '<system_notification>\n<task>\nkind: subagent\n</task>\n</system_notification>\n<user_query>The above subagent result is already visible to the user.</user_query>\n<timestamp>Friday, May 8, 2026, 9:58 PM (UTC+5)</timestamp>\n<user_query>\nnow ship it\n</user_query>',
      ),
      { text: 'now ship it', injected: false },
    );
    assert.deepEqual(cursorUserQuery('<user_query>\nwhy does <user_query> break the parser?\n</user_query>'), {
      text: 'why does <user_query> break the parser?',
      injected: false,
    });
    assert.equal(cursorUserQuery('<system_reminder>x</system_reminder>'), undefined);
  });

  it('gives commands with no exit code (none is recorded), a test run with the result only the agent claims', async () => {
    const dir = tempDir('handoff-cursor-');
    const read = await readCursor(put(dir, 'a.jsonl', jsonl(session)), { workspaceRoot: ws });
    assert.deepEqual(commands(read.events), [
      ['npm test', null, true, 'passed'],
      ['git status --short', null, true, null],
    ]);
    assert.equal(read.events.find((e): e is SessionCommand => e.kind === 'command')?.cwd, ws);
  });

  it('gives the edited paths of ApplyPatch (a string input), StrReplace and Delete, not of reads or a malformed tool name', async () => {
    const dir = tempDir('handoff-cursor-');
    const read = await readCursor(put(dir, 'a.jsonl', jsonl(session)), { workspaceRoot: ws });
    assert.deepEqual(edits(read.events), [
      ['ApplyPatch', 'src/health.ts'],
      ['StrReplace', 'src/router.ts'],
      ['Delete', 'src/ping.ts'],
    ]);
  });

  it("keeps the todo list as TodoWrite's merges leave it: items not named again keep their text and status", async () => {
    const dir = tempDir('handoff-cursor-');
    const read = await readCursor(put(dir, 'a.jsonl', jsonl(session)), { workspaceRoot: ws });
    // The newest snapshot is what is kept: the merge changed two statuses and left the third item as it was.
    assert.deepEqual(plans(read.events), [['completed:Add the health handler', 'completed:Wire it into the router', 'pending:Run the tests']]);
  });

  it('reads the older snake_case tools (run_terminal_cmd, edit_file, search_replace, todo_write) and a string content', async () => {
    const dir = tempDir('handoff-cursor-');
    const file = put(
      dir,
      'b.jsonl',
      jsonl([
        { role: 'user', message: { content: '<user_query>\nfix the build\n</user_query>' } },
        assistant(tool('edit_file', { target_file: 'src/a.ts', instructions: 'x', code_edit: 'y' })),
        assistant(tool('search_replace', { file_path: 'src/b.ts', old_string: 'a', new_string: 'b' })),
        assistant(tool('run_terminal_cmd', { command: 'npx tsc --noEmit', is_background: false })),
        assistant(tool('todo_write', { merge: false, todos: [{ id: 'a', content: 'Fix types', status: 'completed' }] })),
      ]),
    );
    const read = await readCursor(file, { workspaceRoot: ws });
    assert.deepEqual(
      read.user_requests?.map((r) => r.text),
      ['fix the build'],
    );
    assert.deepEqual(edits(read.events), [
      ['edit_file', 'src/a.ts'],
      ['search_replace', 'src/b.ts'],
    ]);
    assert.deepEqual(commands(read.events), [['npx tsc --noEmit', null, true, null]]);
    assert.deepEqual(plans(read.events), [['completed:Fix types']]);
  });

  it('a merge read on from an offset changes the remembered plan, matched by id', async () => {
    const dir = tempDir('handoff-cursor-');
    const first = jsonl(session.slice(0, 5));
    const file = put(dir, 'd.jsonl', first + jsonl(session.slice(5)));
    const before = await readCursor(file, { workspaceRoot: ws });
    const whole = plans(before.events);
    const head = await readCursor(put(dir, 'e.jsonl', first), { workspaceRoot: ws });
    const remembered = head.events.filter((e): e is SessionPlan => e.kind === 'plan').at(-1);
    assert.deepEqual(
      remembered?.items.map((i) => i.id),
      ['1', '2', '3'],
    );
    const rest = await readCursor(file, { workspaceRoot: ws, fromOffset: Buffer.byteLength(first), plan: remembered });
    assert.deepEqual(plans(rest.events), whole);
  });

  it('reads on from an offset: only the lines after it', async () => {
    const dir = tempDir('handoff-cursor-');
    const first = jsonl(session.slice(0, 9));
    const file = put(dir, 'c.jsonl', first + jsonl(session.slice(9)));
    const read = await readCursor(file, { workspaceRoot: ws, fromOffset: Buffer.byteLength(first) });
    assert.deepEqual(
      read.user_requests?.map((r) => r.text),
      ['now delete the old ping route'],
    );
    assert.deepEqual(commands(read.events), [['git status --short', null, true, null]]);
  });

  it("forms the project key as Cursor's folders show it, and finds the workspace's newest transcript", async () => {
    // Folder names seen in public Cursor paths: `_` and `.` become `-`, runs collapse, the drive letter is lower case.
    assert.equal(cursorProjectKey('/home/anant_gupta/projects/hackathon/safereach'), 'home-anant-gupta-projects-hackathon-safereach');
    assert.equal(cursorProjectKey('/Users/me/Desktop/.nosync/app'), 'Users-me-Desktop-nosync-app');
    assert.equal(cursorProjectKey('C:\\Users\\Andreas\\Fahrgemeinschaft-Website'), 'c-Users-Andreas-Fahrgemeinschaft-Website');
    assert.equal(cursorProjectKey('D:\\Fudan\\Second\\vibe-coding\\lab4'), 'd-Fudan-Second-vibe-coding-lab4');

    const home = tempDir('handoff-cursor-home-');
    const root = path.join(home, 'work', 'my_app');
    const dir = path.join(home, '.cursor', 'projects', cursorProjectKey(root), 'agent-transcripts');
    const older = put(dir, 'a1/a1.jsonl', jsonl([user(query('old'))]));
    const newer = put(dir, 'b2/b2.jsonl', jsonl([user(query('new'))]));
    const sub = put(dir, 'b2/subagents/c3.jsonl', jsonl([user('the sub-agent prompt'), assistant(tool('Write', { path: `${root}/notes.md`, contents: 'x' }))]));
    const { utimesSync } = await import('node:fs');
    utimesSync(older, new Date(2026, 0, 1), new Date(2026, 0, 1));
    utimesSync(newer, new Date(2026, 0, 2), new Date(2026, 0, 2));
    const found = await findCursor(path.join(home, '.cursor'), root);
    // The newest session, and its sub-agents' transcripts (their user records are the lead agent's prompts).
    assert.deepEqual(
      found.map((f) => [f.source, f.file, f.subagent ?? false]),
      [
        ['cursor', newer, false],
        ['cursor', sub, true],
      ],
    );
    assert.deepEqual(await findCursor(path.join(home, '.cursor'), path.join(home, 'other')), []);
    const viaContent = await readByContent(newer);
    assert.equal(viaContent?.detected.source, 'cursor');
  });
});
