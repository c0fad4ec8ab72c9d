/**
 * UI test of the panel and the commands as a new user meets them, in the real workbench at
 * 1400×900 on a folder with uncommitted changes and a handoff written before the window opens:
 * a copied prompt leaves the handoff pending until the user says it was taken, and Insights
 * counts it picked up only then; the success banner acts on the handoff it names; "Open
 * Briefing" opens one read-only preview beside what is open; the panel and the end-session
 * command ask the same way over budget; the end-session command keeps a multi-line summary and
 * says an empty topic in its own input box; the view shows its loading state, never VS Code's
 * "no data provider"; and the panel arrives with its drafted summary in sight, the picker's list
 * whole, the focused field in view.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { parseHandoff } from '../../src/core/handoff/parse';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import { readHandoffHead } from '../../src/engine/handover/handoffFiles';
import { buildPrompt } from '../../src/engine/receive/prompt';
import { handover } from '../../src/engine/handover/handover';
import { waitFor, workspaceDir } from '../host/codeServer';
import type { FrameLocator } from 'playwright-core';
import {
  activityBarItem,
  clearNotifications,
  handOverFrame,
  notificationToast,
  openWorkbench,
  runCommand,
  runContextMenuItem,
  screenshot,
  typeAndEnter,
  waitForQuickInput,
  type Session,
} from './workbench';

const REQUEST = 'Add bearer-token auth to the todo API and keep the old routes working.';
const AGENT_SAID = 'The middleware checks the bearer token; the old routes still answer.';
const NOTICE = 'Invalid API key · Please run /login';

/**
 * A Claude Code transcript of the last minutes in its own JSONL format: the user's request, the
 * agent's answer, then — as after *Continue in…* — our receiving prompt as the next user
 * message, answered by the CLI's own notice (`isApiErrorMessage`, model `<synthetic>`).
 */
function writeTranscript(projectsDir: string, workspace: string, prompt: string): void {
  const sessionId = '3b9e0c1d-2f4a-4b5c-8d6e-7f8091a2b3c4';
  const t0 = Date.now() - 5 * 60_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: workspace, sessionId, version: '2.1.152', gitBranch: 'main' };
  const user = (content: string, s: number) => ({ ...base, type: 'user', message: { role: 'user', content }, uuid: `u${s}`, timestamp: at(s) });
  const assistant = (text: string, s: number, model = 'claude-opus-4-7', extra: object = {}) => ({
    ...base,
    type: 'assistant',
    message: { model, id: `msg_${s}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
    uuid: `a${s}`,
    timestamp: at(s),
    ...extra,
  });
  const lines = [user(REQUEST, 0), assistant(AGENT_SAID, 30), user(prompt, 120), assistant(NOTICE, 121, '<synthetic>', { isApiErrorMessage: true })];
  const dir = path.join(projectsDir, claudeProjectDirName(workspace));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

/** The handoff's status on disk now (its file and its status events, as every reader reads them). */
async function statusOf(file: string): Promise<string> {
  const head = await readHandoffHead(file);
  assert.ok(head, `${file} reads as a handoff`);
  return head?.frontmatter.status ?? '';
}

/** The insights webview's content frame. */
async function insightsFrame(page: Page): Promise<Frame> {
  return waitFor('the Handoff Insights webview', 60_000, async () => {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator('#insights-body')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    return undefined;
  });
}

/** The Overall row's "Picked up" figure (the table's third column). */
async function pickedUp(frame: Frame): Promise<string> {
  return frame
    .locator('#figures tfoot tr td, #figures tfoot tr th')
    .nth(2)
    .innerText()
    .then((t) => t.trim());
}

/** Types into a toolkit text field (its input lives in the shadow root), replacing what it holds. */
async function typeInto(frame: FrameLocator, id: string, text: string): Promise<void> {
  const input = frame.locator(`#${id}`).locator('input, textarea').first();
  await input.click();
  await input.selectText();
  await input.pressSequentially(text, { delay: 5 });
  await waitFor(`"${text}" in #${id}`, 5_000, async () => (await input.inputValue()) === text);
}

/** Picks a specialist in the panel's dropdown by its visible label. */
async function pickSpecialist(frame: FrameLocator, label: string): Promise<void> {
  await frame.locator('#specialist').click();
  await frame.locator('#specialist vscode-option', { hasText: label }).first().click();
}

/** Opens the Handoff container and waits for the panel's form. */
async function openPanel(page: Page): Promise<FrameLocator> {
  const frame = handOverFrame(page);
  if (
    !(await frame
      .locator('#specialist')
      .isVisible()
      .catch(() => false))
  )
    await activityBarItem(page).click();
  await frame.locator('#specialist').waitFor({ timeout: 60_000 });
  return frame;
}

/** Clicks `action` of the notification holding `text`: on its toast, else in the notification center (a toast may hide). */
async function notificationAction(page: Page, text: string | RegExp, action: string): Promise<void> {
  const toast = notificationToast(page, text);
  if (!(await toast.isVisible().catch(() => false))) {
    await runCommand(page, 'Notifications: Show Notifications');
  }
  const item = page.locator('.notification-toast, .notifications-center .notification-list-item', { hasText: text }).first();
  await item.locator('.monaco-button', { hasText: action }).first().click({ timeout: 15_000 });
}

/** The labels of the editor tabs, in each group, left to right. */
async function tabGroups(page: Page): Promise<string[][]> {
  return page
    .locator('.part.editor .editor-group-container')
    .evaluateAll((groups) =>
      groups.map((g) =>
        [...g.querySelectorAll('.tab')].map((t) => ((t as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-label') ?? '').trim()),
      ),
    );
}

describe('UI: the panel and the commands as a new user meets them', function () {
  let session: Session;
  let folder: string;
  let first: string;
  let failed = false;

  before(async () => {
    folder = path.join(workspaceDir('trial'), 'todo-api');
    createDemoRepository(folder);
    const handed = HandoverOkSchema.parse(
      await handover(
        { specialist: 'quality_reviewer', topic: 'token auth', summary: 'Token auth is in place.', next_steps: ['Review the diff'] },
        { workspaceRoot: folder },
      ),
    );
    first = handed.handoff_file;
    const built = await buildPrompt({ handoff: 'latest', take: false }, { workspaceRoot: folder });
    assert.equal(built.status, 'ok');
    const claudeConfig = mkdtempSync(path.join(workspaceDir('trial'), 'claude-'));
    writeTranscript(path.join(claudeConfig, 'projects'), folder, built.status === 'ok' ? built.prompt : '');
    session = await openWorkbench(folder, { name: 'trial', env: { CLAUDE_CONFIG_DIR: claudeConfig } }, { width: 1400, height: 900 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-trial-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it("the panel arrives drafted from the transcript: the request and the agent's words, never our prompt or the CLI's notice", async () => {
    const { page } = session;
    const frame = await openPanel(page);
    const summary = frame.locator('#summary textarea').first();
    const drafted = await waitFor('the drafted summary', 60_000, async () => {
      const v = await summary.inputValue().catch(() => '');
      return v.startsWith('Asked: ') ? v : undefined;
    });
    assert.equal(drafted.split('\n')[0], `Asked: "${REQUEST}"`, drafted);
    assert.match(drafted, new RegExp(`the agent's last message: "${AGENT_SAID.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`), drafted);
    assert.ok(!drafted.includes('[quality reviewer]') && !drafted.includes(NOTICE), drafted);
    const requests = await frame.locator('#list-user_requests li').allInnerTexts();
    assert.ok(requests.length >= 1 && requests.every((r) => !r.includes('Receive rules') && !r.includes('You are the Quality')), requests.join(' | '));
    await screenshot(page, 'trial-panel-drafted-on-arrival');
  });

  it('a copied prompt leaves the handoff pending; "Mark as Picked Up" takes it, and only then Insights counts it picked up', async () => {
    const { page } = session;
    await runCommand(page, 'Handoff: Show Insights');
    const insights = await insightsFrame(page);
    await insights.locator('#figures').waitFor({ timeout: 30_000 });
    assert.equal(await pickedUp(insights), '0');
    await runCommand(page, 'Handoff: Copy Prompt for Specialist');
    const toast = notificationToast(page, 'is on the clipboard: paste it into the receiving agent');
    await toast.waitFor({ timeout: 30_000 });
    assert.match(
      await toast.locator('.notification-list-item-message').innerText(),
      /^The prompt for \[quality reviewer\]/,
      'the notification starts with a capital',
    );
    await screenshot(page, 'trial-copied-prompt-still-pending');
    assert.equal(await statusOf(first), 'pending', 'copying the prompt takes nothing up');
    await page.waitForTimeout(1000);
    assert.equal(await pickedUp(insights), '0', 'Insights does not count a copied prompt as picked up');
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Mark as Picked Up' }).first().click();
    await waitFor('the handoff accepted on disk', 15_000, async () => ((await statusOf(first)) === 'accepted' ? true : undefined));
    await waitFor('Insights counting it picked up', 30_000, async () => ((await pickedUp(insights)) === '1' ? true : undefined));
  });

  it('the success banner acts on the handoff it names, not on a later one', async () => {
    const { page } = session;
    await clearNotifications(page);
    // One webview of ours at a time (the panel's): the Insights editor closes.
    await runCommand(page, 'View: Close All Editors');
    const frame = await openPanel(page);
    await pickSpecialist(frame, 'Solution architect');
    await typeInto(frame, 'topic', 'token storage');
    await frame.locator('#hand-over').click();
    const banner = frame.locator('#banner .note.success');
    await banner.waitFor({ timeout: 60_000 });
    const named = /Handed over to \[solution architect\]: (\S+\.md)/.exec(await banner.innerText());
    assert.ok(named, await banner.innerText());
    const fromPanel = path.join(folder, named[1]);
    // A later handoff, written elsewhere (the palette, the CLI, another window), is now the newest.
    const later = HandoverOkSchema.parse(
      await handover({ specialist: 'release_auditor', topic: 'token docs', summary: 'Docs next.' }, { workspaceRoot: folder }),
    );
    await frame.locator('#copy-prompt').click();
    const toast = notificationToast(page, 'is on the clipboard');
    await toast.waitFor({ timeout: 30_000 });
    const text = await toast.locator('.notification-list-item-message').innerText();
    assert.match(text, /^The prompt for \[solution architect\]/, text);
    assert.ok(text.includes(path.basename(fromPanel, '.md')), `the prompt is the banner's handoff: ${text}`);
    await screenshot(page, 'trial-banner-acts-on-its-handoff');
    assert.equal(await statusOf(later.handoff_file), 'pending', 'the later handoff is untouched');
    assert.equal(await statusOf(fromPanel), 'pending', 'copying takes nothing up');
  });

  it('"Open Briefing" from the notification and from the timeline opens one read-only preview beside the handoff', async () => {
    const { page } = session;
    // The panel's handoff above opened its preview; its notification offers "Open Briefing".
    await waitFor('the handoff preview open', 30_000, async () =>
      (await tabGroups(page)).flat().some((t) => /^Preview .*solution_architect/.test(t)) ? true : undefined,
    );
    await notificationAction(page, /Handed over to \[solution architect\]/, 'Open Briefing');
    const both = await waitFor('the briefing beside the handoff preview', 30_000, async () => {
      const groups = await tabGroups(page);
      return groups.length >= 2 && groups.some((g) => g.some((t) => /^Preview Briefing /.test(t))) ? groups : undefined;
    });
    assert.ok(
      both.some((g) => g.some((t) => /^Preview .*solution_architect/.test(t))),
      `the handoff preview stays open: ${JSON.stringify(both)}`,
    );
    assert.ok(!both.flat().some((t) => /Untitled/.test(t)), `no unsaved buffer: ${JSON.stringify(both)}`);
    // Both previews drawn before the picture: the briefing's title and the handoff's.
    for (const title of ['Briefing for Solution architect', 'Handoff to Solution architect']) {
      await waitFor(`the preview showing "${title}"`, 30_000, async () => {
        for (const f of page.frames())
          if (
            await f
              .locator('h1', { hasText: title })
              .count()
              .catch(() => 0)
          )
            return true;
        return undefined;
      });
    }
    await screenshot(page, 'trial-briefing-beside-handoff');
    await page.locator('.part.editor .tab').first().click();
    await runCommand(page, 'View: Close All Editors');
    await page.waitForTimeout(500);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'closing the briefing asks nothing');
    // From the timeline's context menu: the same.
    const row = page
      .locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) })
      .locator('.monaco-list-row', { hasText: /^token storage\s*pending · Solution architect · / })
      .first();
    await row.waitFor({ timeout: 30_000 });
    await runContextMenuItem(page, row, 'Open Briefing', async () => (await tabGroups(page)).flat().some((t) => /^Preview Briefing /.test(t)));
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0);
    // The keyboard back to the workbench (the preview's webview holds the focus), then close it.
    await page.locator('.part.editor .tab').first().click();
    await runCommand(page, 'View: Close All Editors');
    await page.waitForTimeout(500);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'closing the briefing asks nothing');
  });

  it('over budget, the panel asks as the end-of-session command does: fit and hand over, or hand over without fitting', async () => {
    const { page } = session;
    await clearNotifications(page);
    await runCommand(page, 'View: Close All Editors');
    const frame = await openPanel(page);
    await pickSpecialist(frame, 'Codebase explorer');
    await typeInto(frame, 'topic', 'token map');
    await frame
      .locator('#summary textarea')
      .first()
      .fill(`${'The token path goes through the middleware, the store and the routes. '.repeat(300)}`);
    await frame.locator('#token-count.over').waitFor({ timeout: 30_000 });
    await frame.locator('#hand-over').click();
    await waitForQuickInput(page, 'Hand over without fitting', 'the over-budget question');
    // Each row's label (its description, the tokens, follows it).
    const rowsOf = async () =>
      (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((r) =>
        r
          .replace(/\s+/g, ' ')
          .replace(/\s*[\d,]+ \/ [\d,]+ tokens.*$/, '')
          .trim(),
      );
    const panelRows = await rowsOf();
    assert.deepEqual(panelRows, ['Fit to budget and hand over', 'Hand over without fitting'], panelRows.join(' | '));
    await screenshot(page, 'trial-panel-over-budget-asks');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Hand over without fitting' }).first().click();
    const banner = frame.locator('#banner .note.success', { hasText: 'Handed over to [codebase explorer]' });
    await banner.waitFor({ timeout: 60_000 });
    const written = /\(([\d,]+) \/ 3,000 tokens\)/.exec(await banner.innerText());
    assert.ok(written && Number(written[1].replace(/,/g, '')) > 3000, await banner.innerText());
    // The end-of-session command, over budget: the same two choices, in the same words.
    await runCommand(page, 'Handoff: End Session and Hand Over');
    await waitForQuickInput(page, 'Hand over to which specialist?', 'the specialist quick pick');
    await typeAndEnter(page, 'codebase explorer');
    await waitForQuickInput(page, 'Topic:', 'the topic input box');
    await typeAndEnter(page, 'token map again');
    await waitForQuickInput(page, 'Summary:', 'the summary input box');
    await typeAndEnter(page, 'The token path goes through the middleware, the store and the routes. '.repeat(300).trim());
    for (const what of ['decisions', 'next-steps', 'blockers']) {
      await waitForQuickInput(page, /No (decisions|next steps|blockers) yet|Added \d/, `the ${what} input box`);
      await typeAndEnter(page, '');
    }
    await waitForQuickInput(page, 'Hand over without fitting', 'the confirmation over budget');
    const commandRows = (await rowsOf()).slice(0, 2);
    assert.deepEqual(commandRows, panelRows, 'the same question');
    await page.keyboard.press('Escape');
  });

  it("End Session: an empty topic is the input box's own message, and a multi-line summary keeps its line breaks", async () => {
    const { page } = session;
    await clearNotifications(page);
    await runCommand(page, 'Handoff: End Session and Hand Over');
    await waitForQuickInput(page, 'Hand over to which specialist?', 'the specialist quick pick');
    await typeAndEnter(page, 'test & debug engineer');
    await waitForQuickInput(page, 'Topic:', 'the topic input box');
    await typeAndEnter(page, '');
    await waitForQuickInput(page, 'A topic is required', "the input box's own validation message");
    assert.equal(await page.locator('.notification-toast').count(), 0, 'no toast');
    await screenshot(page, 'trial-end-session-topic-required');
    await typeAndEnter(page, 'token tests');
    await waitForQuickInput(page, 'Summary:', 'the summary input box');
    const shown = await page.locator('.quick-input-widget input.input').inputValue();
    assert.match(shown, /^Asked: ".*" ⏎ /, `the drafted summary shows its line breaks: ${shown}`);
    await screenshot(page, 'trial-end-session-summary-line-breaks');
    await page.keyboard.press('Enter');
    for (const what of ['decisions', 'next-steps', 'blockers']) {
      await waitForQuickInput(page, /No (decisions|next steps|blockers) yet|Added \d/, `the ${what} input box`);
      await typeAndEnter(page, '');
    }
    await waitForQuickInput(page, /Touched files \(\d+\)/, 'the confirmation');
    await page.keyboard.press('Enter');
    const toast = notificationToast(page, 'Handed over to [test & debug engineer]');
    await toast.waitFor({ timeout: 30_000 });
    const file = /(\.handoff\/handoffs\/\S+_test_debug_engineer\.md)/.exec(await toast.innerText());
    assert.ok(file, await toast.innerText());
    const parsed = parseHandoff(readFileSync(path.join(folder, file[1]), 'utf8'));
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    const summary = parsed.handoff.sections.get('Summary') ?? '';
    assert.equal(summary.split('\n')[0], `Asked: "${REQUEST}"`, summary);
    assert.ok(summary.split('\n').length >= 2 && summary.split('\n')[1].startsWith('Now: '), `the summary keeps its lines: ${summary}`);
  });
});
