/**
 * UI test of lazy activation in a trusted workspace: the extension activates at startup
 * but runs no git process until a view opens or a command runs. Two traps (VS Code's own
 * git extension is disabled in the test profile): the `git.path` setting names a wrapper
 * that logs every invocation before running git, so any git process the extension starts
 * leaves a line; and the repository's `core.fsmonitor` hook leaves a marker whenever git
 * reads the worktree. Both stay absent after activation; opening the Handoff view sets both.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { extensionHostLogs, waitFor, workspaceDir } from '../host/codeServer';
import { GIT_ENV, commitAll, git, initRepo, write } from '../helpers/repo';
import { activityBarItem, handOverFrame, openWorkbench, screenshot, type Session } from './workbench';

describe('UI: lazy activation', function () {
  let session: Session;
  let folder: string;
  let marker: string;
  let trace: string;
  let failed = false;

  before(async () => {
    const root = workspaceDir('lazy');
    folder = path.join(root, 'repo');
    marker = path.join(root, 'git-ran.marker');
    trace = path.join(root, 'git-invocations.log');
    mkdirSync(folder);
    initRepo(folder);
    write(folder, 'a.txt', 'a\n');
    commitAll(folder, 'c1');
    write(folder, 'a.txt', 'a\nchanged\n');
    const hook = path.join(root, 'fsmonitor-hook.sh');
    writeFileSync(hook, `#!/bin/sh\necho "git ran: $*" >> "${marker}"\nexit 1\n`);
    chmodSync(hook, 0o755);
    git(folder, 'config', 'core.fsmonitor', hook);
    execFileSync('git', ['status', '--porcelain'], { cwd: folder, env: GIT_ENV });
    assert.ok(existsSync(marker), 'the fsmonitor hook leaves its marker when git runs');
    rmSync(marker);
    const wrapper = path.join(root, 'git-wrapper.sh');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(wrapper, `#!/bin/sh\necho "git $*" >> "${trace}"\nexec "${realGit}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    session = await openWorkbench(folder, { name: 'lazy', settings: { 'git.path': wrapper } });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-lazy-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('activates at startup without running git; opening the Handoff view runs it', async () => {
    const { page, server } = session;
    await waitFor('the extension to log its activation', 60_000, () =>
      extensionHostLogs(server.userDataDir).some((f) => f.includes('Specialist Handoff') && /activated in [\d.]+ ms/.test(readFileSync(f, 'utf8'))),
    );
    // Startup settles (restored editors, the Explorer) with the extension active: still no git.
    await page.waitForTimeout(3000);
    assert.equal(existsSync(trace), false, `no git process ran at activation: ${existsSync(trace) ? readFileSync(trace, 'utf8').slice(0, 400) : ''}`);
    assert.equal(existsSync(marker), false, 'no git read the worktree (the fsmonitor hook left no marker)');
    await activityBarItem(page).click();
    await handOverFrame(page).locator('#evidence summary', { hasText: 'Touched files (1)' }).waitFor({ timeout: 30_000 });
    assert.ok(existsSync(marker) && existsSync(trace), 'opening the view collected git evidence (the traps work)');
    console.log('    trusted workspace: 0 git processes until the Handoff view opened');
  });
});
