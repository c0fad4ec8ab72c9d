/**
 * The real `specialist-handoff` process, with a temporary HOME and no --session-log, finds the workspace's Claude Code
 * session in ~/.claude/projects and its task list in ~/.claude/tasks/<session id>/ (where Claude Code keeps them):
 * the handoff's next steps and completed items come from the list on disk, which changed after the transcript's last
 * task call (a task finished and one added by the list's other writer).
 */
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import { repoWithWork, runCliInHome } from '../helpers/cli';
import { cleanupTempDirs, tempDir, write } from '../helpers/repo';

const SESSION = '9e1f2a3b-4c5d-4e6f-8a7b-1c2d3e4f5a6b';
const TRANSCRIPT = path.join(__dirname, '..', 'fixtures', 'session-logs', 'plans', 'claude-code-tasks.jsonl');

describe("the CLI finds a Claude Code session's task list under HOME", function () {
  // One real process compiled from the sources by tsx: seconds on a busy machine.
  this.timeout(120_000);
  after(cleanupTempDirs);

  it('handover --draft with the default session log drafts next steps and completed items from ~/.claude/tasks/<session id>', () => {
    const ws = realpathSync(repoWithWork());
    const home = realpathSync(tempDir('handoff-cli-claude-tasks-home-'));
    write(home, `.claude/projects/${claudeProjectDirName(ws)}/${SESSION}.jsonl`, readFileSync(TRANSCRIPT));
    const task = (id: string, subject: string, status: string) =>
      JSON.stringify({ id, subject, description: subject, activeForm: subject, status, blocks: [], blockedBy: [] }, null, 2);
    write(home, `.claude/tasks/${SESSION}/.lock`, '');
    write(home, `.claude/tasks/${SESSION}/.highwatermark`, '5');
    write(home, `.claude/tasks/${SESSION}/1.json`, task('1', 'Add the RSS route', 'completed'));
    write(home, `.claude/tasks/${SESSION}/2.json`, task('2', 'Render items as RSS 2.0', 'completed'));
    write(home, `.claude/tasks/${SESSION}/4.json`, task('4', 'Write the changelog entry for 1.4', 'in_progress'));
    write(home, `.claude/tasks/${SESSION}/5.json`, task('5', 'Publish the feed URL', 'pending'));
    const r = runCliInHome(ws, home, ['handover', '-s', 'hacker', '-t', 'feed', '--draft', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const ok = HandoverOkSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(ok.package.next_steps, ['(in progress) Write the changelog entry for 1.4', 'Publish the feed URL']);
    assert.deepEqual(ok.package.completed, ['Add the RSS route', 'Render items as RSS 2.0']);
    // The transcript alone would leave task 2 in progress and know nothing of task 5.
  });
});
