/**
 * The real `specialist-handoff` process finds the workspace's Antigravity conversation under its
 * HOME (a temporary one) with no --session-log: `~/.gemini/antigravity-cli/history.jsonl` ties the
 * conversation to the folder, its `brain/<id>/.system_generated/logs/transcript.jsonl` holds the
 * steps. The handoff carries the test run, the request and the plan of `task.md`; a conversation of
 * another folder is not read. Records in Antigravity's shapes (test/unit/evidence/session/antigravity.test.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { execSql } from '../helpers/sqlite';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const enc = (v: string) => JSON.stringify(v);

function transcript(request: string, command: string, output: string, exitCode: number): string {
  return jsonl([
    {
      step_index: 0,
      source: 'USER_EXPLICIT',
      type: 'USER_INPUT',
      status: 'DONE',
      created_at: '2026-07-05T09:14:21Z',
      content: `<USER_REQUEST>\n${request}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: 2026-07-05T11:14:21+02:00.\n</ADDITIONAL_METADATA>`,
    },
    { step_index: 1, source: 'SYSTEM', type: 'CONVERSATION_HISTORY', status: 'DONE', created_at: '2026-07-05T09:14:21Z' },
    {
      step_index: 2,
      source: 'MODEL',
      type: 'PLANNER_RESPONSE',
      status: 'DONE',
      created_at: '2026-07-05T09:14:22Z',
      tool_calls: [{ name: 'run_command', args: { CommandLine: enc(command), Cwd: enc('/tmp'), WaitMsBeforeAsync: '5000' } }],
    },
    {
      step_index: 3,
      source: 'MODEL',
      type: 'RUN_COMMAND',
      status: 'DONE',
      exit_code: exitCode,
      created_at: '2026-07-05T09:14:23Z',
      content: `Created At: 2026-07-05T11:14:23+02:00\nCompleted At: 2026-07-05T11:14:24+02:00\n\n\t\t\t\t${output}`,
    },
  ]);
}

describe('the CLI finds Antigravity conversations under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('handover with the default session log: the conversation history.jsonl ties to the workspace, with its test run and plan', () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-ag-home-'));
    const cli = '.gemini/antigravity-cli';
    write(
      home,
      `${cli}/history.jsonl`,
      jsonl([
        { display: 'run the tests', timestamp: 1779000000000, workspace: ws, conversationId: 'a1b2c3d4-0000-4000-8000-000000000001' },
        { display: 'other', timestamp: 1779000001000, workspace: '/somewhere/else', conversationId: 'a1b2c3d4-0000-4000-8000-000000000002' },
      ]),
    );
    const brain = `${cli}/brain/a1b2c3d4-0000-4000-8000-000000000001`;
    write(home, `${brain}/.system_generated/logs/transcript.jsonl`, transcript('run the unit tests', 'npm test', 'Tests: 1 failed, 2 passed, 3 total', 1));
    write(home, `${brain}/task.md`, '# Tests\n\n- [x] Find the failing test\n- [ ] Fix the failing test\n');
    write(
      home,
      `${cli}/brain/a1b2c3d4-0000-4000-8000-000000000002/.system_generated/logs/transcript.jsonl`,
      transcript('another folder', 'cargo test', 'test result: ok. 4 passed; 0 failed', 0),
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--draft', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['antigravity', 'npm test', 'failed', 1]],
    );
    assert.deepEqual(
      ok.package.user_requests.map((q) => [q.source, q.text]),
      [['antigravity', 'run the unit tests']],
    );
    assert.ok(
      ok.package.next_steps.some((s) => s.includes('Fix the failing test')),
      JSON.stringify(ok.package.next_steps),
    );
    assert.ok(
      ok.package.completed.some((s) => s.includes('Find the failing test')),
      JSON.stringify(ok.package.completed),
    );
    assert.doesNotMatch(JSON.stringify(ok.package), /another folder|cargo test/);
  });

  it("handover with the default session log: the IDE's conversation_summaries.db ties it to the workspace", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-ag-home-ide-'));
    const ide = path.join(home, '.gemini', 'antigravity');
    const id = 'b2c3d4e5-0000-4000-8000-000000000003';
    write(ide, `brain/${id}/.system_generated/logs/transcript.jsonl`, transcript('make the tests pass', 'pytest -q', '5 passed in 0.2s', 0));
    // The table's columns as Antigravity declares them (test/fixtures/real/SOURCES.md); the rows this test needs.
    execSql(
      path.join(ide, 'conversation_summaries.db'),
      `CREATE TABLE conversation_summaries (conversation_id text, title text NOT NULL DEFAULT "", preview text NOT NULL DEFAULT "",
        step_count integer NOT NULL DEFAULT 0, last_modified_time datetime NOT NULL, workspace_uris text NOT NULL, status text NOT NULL DEFAULT "",
        source text NOT NULL DEFAULT "", project_id text NOT NULL DEFAULT "", agent_name text NOT NULL DEFAULT "",
        parent_conversation_id text NOT NULL DEFAULT "", nesting_depth integer NOT NULL DEFAULT 0, last_user_input_time datetime NOT NULL,
        app_data_dir text NOT NULL DEFAULT "", raw_summary blob, PRIMARY KEY (conversation_id));
      INSERT INTO conversation_summaries (conversation_id, title, step_count, last_modified_time, workspace_uris, status, last_user_input_time, app_data_dir)
        VALUES ('${id}', 'Tests', 4, '2026-09-19 21:31:07.000000+00:00', '${JSON.stringify([pathToFileURL(ws).href])}', 'CASCADE_RUN_STATUS_IDLE',
        '2026-09-19 21:30:00.000000+00:00', 'antigravity'),
        ('c3d4e5f6-0000-4000-8000-000000000004', 'Other', 2, '2026-09-20 08:00:00.000000+00:00', '["file:///somewhere/else"]', 'CASCADE_RUN_STATUS_IDLE',
        '2026-09-20 08:00:00.000000+00:00', 'antigravity');`,
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['antigravity', 'pytest -q', 'passed', 0]],
    );
  });
});
