/**
 * The real `specialist-handoff` process finds the workspace's Amp thread where Amp keeps its
 * threads under HOME (a temporary one, `~/.local/share/amp/threads/T-<uuid>.json`, no
 * XDG_DATA_HOME), with no --session-log: the handoff it writes carries the thread's test run and
 * the user's request, not another folder's thread. Messages in the shape of a real exported thread
 * (test/unit/evidence/session/amp.test.ts).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

const MS = Date.UTC(2026, 6, 27, 18, 34, 15);

function thread(id: string, folder: string, request: string, command: string, output: string, exitCode: number): string {
  return JSON.stringify(
    {
      v: 12,
      id,
      env: { initial: { trees: [{ uri: pathToFileURL(folder).href, displayName: path.basename(folder) }], platform: { client: 'CLI' } } },
      title: 'tests',
      created: MS,
      messages: [
        { role: 'user', meta: { sentAt: MS }, content: [{ type: 'text', text: request }], messageId: 1 },
        {
          role: 'assistant',
          state: { type: 'complete', stopReason: 'tool_use' },
          usage: { timestamp: new Date(MS + 2000).toISOString() },
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { cmd: command, cwd: folder }, complete: true }],
          messageId: 2,
        },
        { role: 'user', content: [{ type: 'tool_result', toolUseID: 'toolu_1', run: { status: 'done', result: { output, exitCode } } }], messageId: 3 },
      ],
      agentMode: 'smart',
    },
    null,
    2,
  );
}

describe('the CLI finds Amp threads under HOME', function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it("handover with the default session log: the workspace's thread from ~/.local/share/amp/threads, its test run and request", () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-amp-home-'));
    const threads = '.local/share/amp/threads';
    write(
      home,
      `${threads}/T-019fa4db-29cf-70c9-8d9b-81524df70e52.json`,
      thread('T-019fa4db-29cf-70c9-8d9b-81524df70e52', ws, 'make the failing test pass', 'npm test', 'Tests: 1 failed, 4 passed, 5 total', 1),
    );
    write(
      home,
      `${threads}/T-019fa4db-29cf-70c9-8d9b-81524df70e53.json`,
      thread('T-019fa4db-29cf-70c9-8d9b-81524df70e53', path.join(home, 'other'), 'another project', 'pytest', '3 passed in 0.1s', 0),
    );
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'tests', '--json'], { xdgData: false });
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      ok.package.tests_run.map((t) => [t.source, t.command, t.result, t.exit_code]),
      [['amp', 'npm test', 'failed', 1]],
    );
    assert.deepEqual(
      (ok.package.user_requests ?? []).map((q) => q.text),
      ['make the failing test pass'],
    );
  });
});
