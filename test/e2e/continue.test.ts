/**
 * UI test of "Continue in …" in the real workbench: a handoff written before the window
 * opens, recording executables named `claude` and `codex` first on the server's PATH (the
 * extension host inherits it). From the handoff's context menu in the timeline, the picker
 * lists what this machine has; "Claude Code" starts a terminal whose process receives the
 * prompt in the workspace folder; "Copilot Chat" (where VS Code has it: 1.139 builds it in)
 * opens a new chat holding the prompt, not sent, and where it is absent is not offered.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { exportAgents } from '../../src/engine/exportAgents';
import { handover } from '../../src/engine/handover';
import { waitFor, workspaceDir } from '../host/codeServer';
import { activeHost } from '../host/hosts';
import { hostPath } from '../host/install';
import { readAgentRecord, writeRecordingAgent } from '../helpers/recordingAgent';
import { activityBarItem, clearNotifications, notificationToast, screenshot, openWorkbench, waitForQuickInput, type Session } from './workbench';

function timelineRow(page: Page, text: string | RegExp): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) }).locator('.monaco-list-row', { hasText: text }).first();
}

/** Opens "Continue in…" from the handoff's context menu and waits for the picker. */
async function openPicker(page: Page): Promise<string[]> {
  await timelineRow(page, /quality reviewer/i).click({ button: 'right' });
  await page.locator('.context-view .action-label', { hasText: 'Continue in…' }).first().click();
  await waitForQuickInput(page, 'Where the receiving specialist continues', 'the Continue in… picker');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  return Promise.all(Array.from({ length: await rows.count() }, (_, i) => rows.nth(i).innerText().then((t) => t.replace(/\s+/g, ' ').trim())));
}

describe('UI: Continue in …', function () {
  let session: Session;
  let folder: string;
  let bin: string;
  let failed = false;

  before(async () => {
    folder = path.join(workspaceDir('continue'), 'todo-api');
    createDemoRepository(folder);
    HandoverOkSchema.parse(await handover({ specialist: 'quality_reviewer', topic: 'token auth', summary: 'Review the token middleware.', next_steps: ['Review the diff'] }, { workspaceRoot: folder }));
    assert.equal((await exportAgents({ target: 'github' }, { workspaceRoot: folder })).status, 'ok');
    bin = mkdtempSync(path.join(tmpdir(), 'agents-'));
    writeRecordingAgent(bin, 'claude', path.join(bin, 'claude.json'));
    writeRecordingAgent(bin, 'codex', path.join(bin, 'codex.json'));
    // On PATH for the server, and named by the settings too: the remote extension host may take PATH from the login shell.
    session = await openWorkbench(
      folder,
      { name: 'continue', env: { PATH: `${bin}${path.delimiter}${hostPath()}` }, settings: { 'handoff.agents.claude.path': path.join(bin, 'claude'), 'handoff.agents.codex.path': path.join(bin, 'codex') } },
      { width: 1400, height: 900 },
    );
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-continue-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('the picker offers the agents found here, and Claude Code starts in a terminal with the prompt, in the workspace folder', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    await timelineRow(page, /quality reviewer/i).waitFor({ timeout: 30_000 });
    const rows = await openPicker(page);
    const hasChat = activeHost().id === 'current';
    const labels = ['Copilot Chat', 'Claude Code', 'Codex CLI', 'Gemini CLI', 'Aider', 'Copy prompt'].filter((l) => rows.some((r) => r.includes(l)));
    assert.deepEqual(labels, [...(hasChat ? ['Copilot Chat'] : []), 'Claude Code', 'Codex CLI', 'Copy prompt'], rows.join(' | '));
    await waitForQuickInput(page, 'not found on this machine: Gemini CLI, Aider', 'the agents not found');
    await screenshot(page, 'continue-picker');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Claude Code' }).first().click();
    const seen = await waitFor('claude to record its arguments', 30_000, () => readAgentRecord(path.join(bin, 'claude.json')));
    assert.equal(seen.argv.length, 2);
    assert.equal(seen.argv[0], '--');
    assert.match(seen.argv[1], /You are the Quality reviewer specialist/);
    assert.equal(realpathSync(seen.cwd), realpathSync(folder));
    await page.locator('.terminal-tabs-entry, .single-terminal-tab, .pane-header, .tabs-container .tab', { hasText: 'Claude Code' }).first().waitFor({ timeout: 15_000 });
  });

  it(activeHost().id === 'current' ? 'Copilot Chat opens a new chat holding the prompt, not sent' : 'without Copilot Chat, Copy prompt puts the prompt on the clipboard and says so', async () => {
    const { page } = session;
    await clearNotifications(page);
    const rows = await openPicker(page);
    assert.equal(rows[0].includes('Claude Code'), true, `the last choice comes first: ${rows.join(' | ')}`);
    if (activeHost().id === 'current') {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Copilot Chat' }).first().click();
      await notificationToast(page, 'Opened a new chat in the custom agent "Quality reviewer"').waitFor({ timeout: 30_000 });
      const input = page.locator('.interactive-input-part .monaco-editor .view-lines').first();
      await waitFor('the chat input to hold the prompt', 30_000, async () => /Quality reviewer/.test(await input.innerText().catch(() => '')) || undefined);
      assert.equal(await page.locator('.interactive-item-container.interactive-request').count(), 0, 'nothing was sent');
      await screenshot(page, 'continue-copilot-chat');
    } else {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Copy prompt' }).first().click();
      await notificationToast(page, 'is on the clipboard: paste it into the receiving agent').waitFor({ timeout: 30_000 });
    }
  });
});
