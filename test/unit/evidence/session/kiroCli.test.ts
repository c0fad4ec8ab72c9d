/**
 * Kiro CLI conversations, written here in the shapes of its own source (test/helpers/kiroCli.ts, from
 * aws/amazon-q-developer-cli `crates/chat-cli`) and of the two real `/save` files of the corpus (test/fixtures/real/SOURCES.md):
 * a `/save` file read by its content whatever its name, and `data.sqlite3`'s `conversations_v2` (or the older
 * `conversations`) read on every Node (`node:sqlite` on 22.13+, node-sqlite3-wasm before).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionCommand, SessionCompaction, SessionEvent, SessionFileEdit, SessionPlan, SessionTurn } from '../../../../src/core/session/events';
import { detectTranscript } from '../../../../src/evidence/session/detect';
import { findKiro } from '../../../../src/evidence/session/discoveryCliAgents';
import { readByContent } from '../../../../src/evidence/session/agentReaders';
import { readKiroSave } from '../../../../src/evidence/session/readers/kiroCli';
import { kiroDbRef, readKiroDb } from '../../../../src/evidence/session/readers/kiroCliDb';
import { cancelledUses, entry, kiroState, prompt, response, results, shellJson, toolUse, usesTools, writeKiroDb } from '../../../helpers/kiroCli';
import { execSql } from '../../../helpers/sqlite';
import { cleanupTempDirs, tempDir } from '../../../helpers/repo';

const commands = (ev: SessionEvent[]) => ev.filter((e): e is SessionCommand => e.kind === 'command').map((c) => [c.command, c.exit_code, c.ran, c.cwd]);
const edits = (ev: SessionEvent[]) => ev.filter((e): e is SessionFileEdit => e.kind === 'file_edit').map((e) => [e.path, e.tool]);
const userTurns = (ev: SessionEvent[]) => ev.filter((e): e is SessionTurn => e.kind === 'turn' && e.role === 'user').map((t) => t.text);
const plans = (ev: SessionEvent[]) => ev.filter((e): e is SessionPlan => e.kind === 'plan').map((p) => p.items.map((i) => [i.text, i.status]));

const T0 = Date.parse('2026-03-10T17:58:36.609Z');

/** Tests fail then pass, an edit, a refused write, a todo list, a push the user refused by typing, an interrupted call. */
function conversation(ws: string) {
  return [
    entry(
      ws,
      prompt('make the parser tests pass'),
      T0,
      usesTools(
        'Running the tests first.',
        toolUse('t1', 'execute_bash', { command: 'npm test', summary: 'Run the tests' }),
        toolUse('t2', 'todo_list', {
          command: 'create',
          tasks: [{ task_description: 'Fix the parser' }, { task_description: 'Run the tests' }],
          todo_list_description: 'Parser',
        }),
      ),
      T0,
    ),
    entry(
      ws,
      results(['t1', 'Success', [shellJson(1, '', '1 failing')]], ['t2', 'Success', [{ Text: 'TODO LIST CREATED' }]]),
      null,
      usesTools(
        '',
        toolUse('t3', 'fs_write', { command: 'str_replace', path: `${ws}/src/parser.ts`, old_str: 'a', new_str: 'b', summary: 'fix' }),
        toolUse('t4', 'fs_write', { command: 'create', path: '/etc/hosts', file_text: 'x' }),
      ),
      T0 + 1000,
    ),
    entry(
      ws,
      results(['t3', 'Success', [{ Text: '' }]], ['t4', 'Error', [{ Text: 'An error occurred processing the tool: \nPermission denied' }]]),
      null,
      usesTools(
        '',
        toolUse('t5', 'execute_bash', { command: 'npm test', working_dir: `${ws}/packages/parser` }),
        toolUse('t6', 'todo_list', { command: 'complete', completed_indices: [0], context_update: 'fixed', current_id: 'x' }),
      ),
      T0 + 2000,
    ),
    entry(
      ws,
      // A result too long for the model is kept as its JSON text cut short (`truncate_safe_tool_use_results`).
      results(['t5', 'Success', [{ Text: '{"exit_status":"0","stdout":"12 passing...content truncated due to length' }]], ['t6', 'Success', [{ Text: '' }]]),
      null,
      usesTools('Pushing.', toolUse('t7', 'execute_bash', { command: 'git push --force' })),
      T0 + 3000,
    ),
    entry(
      ws,
      cancelledUses('do not push, open a PR instead', 't7'),
      T0 + 60_000,
      usesTools('', toolUse('t8', 'execute_bash', { command: 'gh pr create' })),
      T0 + 61_000,
    ),
    entry(ws, cancelledUses('The user interrupted the tool execution.', 't8'), null, response('Stopped.'), T0 + 62_000),
  ];
}

describe('Kiro CLI conversations (its ConversationState JSON and data.sqlite3)', function () {
  this.timeout(30_000);
  after(cleanupTempDirs);

  it('a /save file, whatever its name: typed requests only, exit codes (a truncated result too), refused and interrupted calls not run, edits, the todo list', async () => {
    const ws = '/home/user/parser';
    const file = path.join(tempDir(), 'log-1');
    writeFileSync(file, kiroState('27b8f18e-8b53-4eff-a538-c36197d4c873', conversation(ws)));
    assert.deepEqual(await detectTranscript(file), { source: 'kiro', format: 'kiro', file });
    const r = await readKiroSave(file);
    assert.equal(r.error, undefined);
    assert.deepEqual(userTurns(r.events), ['make the parser tests pass', 'do not push, open a PR instead']);
    assert.deepEqual(commands(r.events), [
      ['npm test', 1, true, ws],
      ['npm test', 0, true, `${ws}/packages/parser`],
      ['git push --force', null, false, ws],
      ['gh pr create', null, false, ws],
    ]);
    assert.deepEqual(edits(r.events), [['src/parser.ts', 'fs_write:str_replace']]);
    assert.deepEqual(plans(r.events).at(-1), [
      ['Fix the parser', 'completed'],
      ['Run the tests', 'pending'],
    ]);
    assert.deepEqual(r.stats, { lines: 6, malformed: 0, skipped: 0, invalid_utf8: 0 });
    assert.equal(r.last_time, T0 + 62_000 + 900);
  });

  it('after /compact: the summary is a compaction, the tool output the CLI moved into the first prompt is no request', async () => {
    const ws = '/home/user/docs';
    const file = path.join(tempDir(), 'saved.json');
    const history = [
      entry(
        ws,
        prompt('# Total entries: 236\n-rw-rw-r-- 1 1000 1000 2412 Mar 11 08:49 PLUGIN.md'),
        null,
        usesTools('', toolUse('a1', 'execute_bash', { command: 'mkdir -p archive' })),
        T0,
      ),
      entry(ws, results(['a1', 'Success', [shellJson(0)]]), null, response('Organized.'), T0 + 1000),
      entry(ws, prompt('thank you now symlink the SOPS'), T0 + 5000, response('Done.'), T0 + 5000),
    ];
    writeFileSync(file, kiroState('40559d56-3f0a-45be-b9ce-82a6dcd98448', history, 'The user asked to organize ~/DOCS.'));
    const r = await readByContent(file);
    assert.equal(r?.detected.format, 'kiro');
    const ev = r?.read.events ?? [];
    assert.deepEqual(userTurns(ev), ['thank you now symlink the SOPS']);
    assert.deepEqual(
      ev.filter((e): e is SessionCompaction => e.kind === 'compaction').map((c) => c.text),
      ['The user asked to organize ~/DOCS.'],
    );
    assert.deepEqual(commands(ev), [['mkdir -p archive', 0, true, ws]]);
    // Only what came after the time given is new.
    const later = await readKiroSave(file, { sinceTime: T0 + 2000 });
    assert.deepEqual(userTurns(later.events), ['thank you now symlink the SOPS']);
    assert.deepEqual(commands(later.events), []);
  });

  it("data.sqlite3: the workspace's newest conversation of conversations_v2, or of the older conversations table", async () => {
    const ws = '/home/user/parser';
    const dataDir = tempDir();
    const db = path.join(dataDir, 'data.sqlite3');
    const other = kiroState('c-other', [entry('/home/user/other', prompt('not this folder'), T0 + 90_000, response('ok'), T0 + 90_000)]);
    const older = kiroState('c-old', [entry(ws, prompt('an older conversation here'), T0 - 90_000, response('ok'), T0 - 90_000)]);
    writeKiroDb(db, [
      { cwd: ws, id: 'c-old', state: older, updated: T0 - 90_000 },
      { cwd: ws, id: 'c-new', state: kiroState('c-new', conversation(ws)), updated: T0 + 62_000 },
      { cwd: '/home/user/other', id: 'c-other', state: other, updated: T0 + 90_000 },
    ]);
    const found = await findKiro(dataDir, ws);
    assert.deepEqual(
      found.map((f) => [f.source, f.file, f.mtimeMs]),
      [['kiro', kiroDbRef(db, 'c-new'), T0 + 62_000]],
    );
    assert.deepEqual(await detectTranscript(found[0].file), { source: 'kiro', format: 'kiro', file: found[0].file });
    const r = await readKiroDb(found[0].file);
    assert.equal(r.file, kiroDbRef(db, 'c-new'));
    assert.deepEqual(userTurns(r.events), ['make the parser tests pass', 'do not push, open a PR instead']);
    assert.deepEqual(commands(r.events).slice(0, 2), [
      ['npm test', 1, true, ws],
      ['npm test', 0, true, `${ws}/packages/parser`],
    ]);
    // The database alone: the newest conversation of the workspace.
    assert.deepEqual(userTurns((await readKiroDb(db, { workspaceRoot: ws })).events), ['make the parser tests pass', 'do not push, open a PR instead']);

    const legacyDir = tempDir();
    const legacy = path.join(legacyDir, 'data.sqlite3');
    writeKiroDb(legacy, [{ cwd: ws, id: 'c-old', state: older, updated: 0 }], { legacy: true });
    const [l] = await findKiro(legacyDir, ws);
    assert.equal(l.file, kiroDbRef(legacy, 'c-old'));
    assert.deepEqual(userTurns((await readKiroDb(l.file)).events), ['an older conversation here']);

    // Another program's data.sqlite3 is not taken for Kiro's.
    const foreign = path.join(tempDir(), 'data.sqlite3');
    execSql(foreign, 'CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT);');
    assert.equal(await detectTranscript(foreign), undefined);
  });
});
