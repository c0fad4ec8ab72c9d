/**
 * The real `specialist-handoff` process finds a Cursor agent transcript of the workspace under its
 * HOME (a temporary one), in `~/.cursor/projects/<project key>/agent-transcripts/<id>/<id>.jsonl`,
 * with no --session-log: the handoff carries the typed request, the test run with no exit code
 * (Cursor records none) and the result the agent claims, and the edited file; a sub-agent's run
 * too, never its prompt as the user's request. Records in Cursor's
 * shapes (test/unit/evidence/session/cursor.test.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

describe('the CLI finds a Cursor agent transcript under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('handover with the default session log: the request, the claimed test run and the edit, from ~/.cursor/projects', () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-cursor-home-'));
    // The folder name Cursor gives the workspace, formed here from its rule (every run of other characters is one `-`).
    const key = ws.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    write(
      home,
      `.cursor/projects/${key}/agent-transcripts/0f1e/0f1e.jsonl`,
      jsonl([
        {
          role: 'user',
          message: {
            content: [
              {
                type: 'text',
                text: '<timestamp>Friday, May 8, 2026, 6:05 AM (UTC+5:30)</timestamp>\n<user_query>\nfix the failing parser test\n</user_query>',
              },
            ],
          },
        },
        {
          role: 'assistant',
          message: {
            content: [
              { type: 'text', text: 'Fixing the parser.' },
              { type: 'tool_use', name: 'StrReplace', input: { path: path.join(ws, 'src', 'parser.ts'), old_string: 'a', new_string: 'b' } },
            ],
          },
        },
        { role: 'assistant', message: { content: [{ type: 'tool_use', name: 'Shell', input: { command: 'npm test', working_directory: ws } }] } },
        { role: 'assistant', message: { content: [{ type: 'text', text: 'All 14 tests pass now.' }] } },
        { type: 'turn_ended', status: 'success' },
      ]),
    );
    // A sub-agent's transcript beside it: its user record is the lead agent's prompt, its run is evidence all the same.
    write(
      home,
      `.cursor/projects/${key}/agent-transcripts/0f1e/subagents/9a8b.jsonl`,
      jsonl([
        { role: 'user', message: { content: [{ type: 'text', text: 'Run the parser tests and report.' }] } },
        { role: 'assistant', message: { content: [{ type: 'tool_use', name: 'Shell', input: { command: 'npx vitest run parser' } }] } },
        { role: 'assistant', message: { content: [{ type: 'text', text: '2 tests failed in parser.spec.ts.' }] } },
      ]),
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(ok.package.tests_run.map((t) => [t.source, t.command, t.exit_code, t.result, t.basis]).sort(), [
      ['cursor', 'npm test', null, 'passed', 'claim'],
      ['cursor', 'npx vitest run parser', null, 'failed', 'claim'],
    ]);
    assert.deepEqual(
      ok.package.user_requests.map((u) => u.text),
      ['fix the failing parser test'],
    );
    assert.ok(JSON.stringify(ok.package.session_edits).includes('src/parser.ts'), JSON.stringify(ok.package.session_edits));
    assert.ok(JSON.stringify(ok.package.session_sources).includes('0f1e.jsonl'), JSON.stringify(ok.package.session_sources));
  });
});
