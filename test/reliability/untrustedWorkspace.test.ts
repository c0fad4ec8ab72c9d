/**
 * Reliability, "nothing run that should not be": with Workspace Trust on and the folder
 * untrusted (restricted mode), the extension must start no git process and write
 * nothing — git config can run code (core.fsmonitor, hooks). Two traps, in the real
 * workbench: `core.fsmonitor` names a hook that leaves a marker whenever git reads the
 * worktree, and `git.path` names a wrapper that logs every git invocation. VS Code's own
 * git extension is disabled in the test profile, so only this extension could run git.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { workspaceDir } from '../host/codeServer';
import { GIT_ENV, commitAll, git, initRepo, write } from '../helpers/repo';
import { activityBarItem, handOverFrame, openWorkbench, runCommand, screenshot, type Session } from '../e2e/workbench';

describe('UI: untrusted workspace', function () {
  let session: Session;
  let folder: string;
  let marker: string;
  let invocations: string;
  let failed = false;

  before(async () => {
    const root = workspaceDir('untrusted');
    folder = path.join(root, 'repo');
    marker = path.join(root, 'git-ran.marker');
    mkdirSync(folder);
    initRepo(folder);
    write(folder, 'a.txt', 'a\n');
    commitAll(folder, 'c1');
    write(folder, 'a.txt', 'a\nchanged\n');
    const hook = path.join(root, 'fsmonitor-hook.sh');
    writeFileSync(hook, `#!/bin/sh\necho "git ran: $*" >> "${marker}"\nexit 1\n`);
    chmodSync(hook, 0o755);
    git(folder, 'config', 'core.fsmonitor', hook);
    // The trap works: any git status in this repository runs the hook.
    execFileSync('git', ['status', '--porcelain'], { cwd: folder, env: GIT_ENV });
    assert.ok(existsSync(marker), 'the fsmonitor hook leaves its marker when git runs');
    rmSync(marker);
    invocations = path.join(root, 'git-invocations.log');
    const wrapper = path.join(root, 'git-wrapper.sh');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(wrapper, `#!/bin/sh\necho "git $*" >> "${invocations}"\nexec "${realGit}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    session = await openWorkbench(folder, { name: 'untrusted', trust: true, settings: { 'git.path': wrapper } });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-untrusted-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('opens in restricted mode, and the views say why nothing can be handed over', async () => {
    const { page } = session;
    await page
      .locator('.statusbar-item', { hasText: /Restricted Mode/i })
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => {
        throw new Error('timed out after 30 s waiting for "Restricted Mode" in the status bar: the folder was trusted');
      });
    await activityBarItem(page).click();
    await handOverFrame(page).locator('#status', { hasText: 'not trusted' }).waitFor({ timeout: 30_000 });
    // The panel's next action is to manage trust; no form, so no draft can be handed over here.
    await handOverFrame(page).locator('#manage-trust').waitFor({ timeout: 10_000 });
    assert.equal(await handOverFrame(page).locator('#hand-over').count(), 0);
    await page.locator('.welcome-view-content', { hasText: 'not trusted' }).first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'untrusted-sidebar');
  });

  it('the end-of-session command refuses: no git process runs and nothing is written', async () => {
    const { page } = session;
    await runCommand(page, 'Handoff: End Session and Hand Over');
    await page
      .locator('.notifications-toasts', { hasText: 'only in trusted workspaces' })
      .first()
      .waitFor({ timeout: 20_000 })
      .catch(() => {
        throw new Error('timed out after 20 s waiting for the "only in trusted workspaces" notification');
      });
    await screenshot(page, 'untrusted-refused');
    await page.waitForTimeout(1500);
    assert.equal(existsSync(marker), false, 'no git process read the worktree (the fsmonitor hook left no marker)');
    assert.equal(existsSync(invocations), false, `no git process ran at all: ${existsSync(invocations) ? readFileSync(invocations, 'utf8') : ''}`);
    assert.equal(existsSync(path.join(folder, '.handoff')), false, 'nothing was written');
    console.log('    figures: untrusted workspace: git processes started 0 (git.path wrapper log and fsmonitor marker absent), files written 0');
  });
});
