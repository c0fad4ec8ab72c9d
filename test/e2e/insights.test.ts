/**
 * UI test of "Handoff: Show Insights" (issue 21) in the real workbench: a workspace whose
 * handoffs were written by the real engine with known times and statuses (one pending for
 * five days, one accepted three days ago and never answered, one picked up and completed, one
 * pending for two hours, one completed forty days ago), the command run from the palette, and
 * the figures in the editor's webview checked cell by cell against what those files say; the
 * period picker asks for the last 30 days and the figures change; a handoff written while
 * the view is open shows up without a click; the pending handoff older than
 * `handoff.pendingWarnAfter` (default 2 days) carries its warning icon in the timeline. Ends
 * with the view in a dark and a light theme (the README's screenshots come from there), and a
 * window reload that brings the view back on the period it showed (its serializer).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { setHandoffStatus } from '../../src/engine/handover/handoffFiles';
import { handover } from '../../src/engine/handover/handover';
import { waitFor, workspaceDir } from '../host/codeServer';
import { activityBarItem, openWorkbench, runCommand, screenshot, type Session } from './workbench';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The insights webview's content frame: the one frame whose document has the insights page. */
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

/** The figures table as text: one row per specialist, then Overall. */
async function tableRows(frame: Frame): Promise<string[][]> {
  return frame
    .locator('#figures tbody tr, #figures tfoot tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => ((c as unknown as { textContent: string }).textContent ?? '').trim())));
}

/** Switches the colour theme as a user does: "Preferences: Color Theme", the theme's row, Enter. */
async function switchTheme(page: Page, label: string, workbenchClass: string): Promise<void> {
  // The keyboard focus may be inside the webview (the period picker): give it back to the workbench first.
  await page.locator('.part.editor .tab', { hasText: 'Handoff Insights' }).first().click();
  const input = page.locator('.quick-input-widget input.input');
  await waitFor('the command palette', 30_000, async () => {
    if (!(await input.isVisible())) await page.keyboard.press('F1');
    await page.waitForTimeout(300);
    return (await input.isVisible()) && (await input.evaluate((el) => el === el.ownerDocument.activeElement)) ? true : undefined;
  });
  await page.keyboard.type('Preferences: Color Theme');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: /^\s*Preferences: Color Theme(?!s)/ })
    .first()
    .click({ timeout: 15_000 });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Dark Modern' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.type(label);
  const row = page.locator('.quick-input-list .monaco-list-row.focused').first();
  await waitFor(`the "${label}" row focused in the theme picker`, 15_000, async () =>
    (await row.innerText().catch(() => '')).trim().startsWith(label) ? true : undefined,
  );
  await page.keyboard.press('Enter');
  await waitFor(`the workbench in the "${label}" theme`, 60_000, async () => (await page.locator(`.monaco-workbench.${workbenchClass}`).count()) > 0);
}

describe('UI: "Handoff: Show Insights"', function () {
  let session: Session;
  let folder: string;
  let failed = false;
  let now: number;

  /** Writes a handoff to `specialist` created `ago` ms before now; then its status changes, each `ago` ms before now. */
  async function write(specialist: string, topic: string, ago: number, changes: Array<['accepted' | 'complete', number]> = []): Promise<string> {
    const out = HandoverOkSchema.parse(
      await handover({ specialist, topic, summary: `Work on ${topic}.` }, { workspaceRoot: folder, now: () => new Date(now - ago) }),
    );
    for (const [to, at] of changes) {
      const set = await setHandoffStatus(out.handoff_file, to, { at: new Date(now - at).toISOString(), session_id: 'insights-test' });
      assert.ok(set.ok, `status ${to} set on ${out.handoff_file}`);
    }
    return out.handoff_file;
  }

  before(async () => {
    folder = path.join(workspaceDir('insights'), 'todo-api');
    createDemoRepository(folder);
    now = Date.now();
    await write('codebase_explorer', 'map the auth code', 5 * DAY);
    await write('implementation_engineer', 'token middleware', 30 * HOUR, [
      ['accepted', 29 * HOUR],
      ['complete', 20 * HOUR],
    ]);
    await write('quality_reviewer', 'review the middleware', 4 * DAY, [['accepted', 3 * DAY]]);
    await write('quality_reviewer', 'review the tests', 2 * HOUR);
    await write('implementation_engineer', 'first prototype', 40 * DAY, [
      ['accepted', 39 * DAY],
      ['complete', 38 * DAY],
    ]);
    assert.equal(readdirSync(path.join(folder, '.handoff', 'handoffs')).filter((f) => f.endsWith('.md')).length, 5);
    session = await openWorkbench(folder, { name: 'insights' }, { width: 1400, height: 1000 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-insights-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it("opens from the palette in the editor area and shows the figures of the workspace's handoff files", async () => {
    const { page } = session;
    await runCommand(page, 'Handoff: Show Insights');
    await page.locator('.part.editor .tab', { hasText: 'Handoff Insights' }).first().waitFor({ timeout: 30_000 });
    const frame = await insightsFrame(page);
    await frame.locator('#figures').waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('h1').innerText(), 'Handoff insights');
    // Columns: Specialist, Written, Picked up, Completed, Blocked, Pending, Accepted, In progress,
    // Pending too long, Unanswered too long, Median pick-up, Median completion, Hand-backs, Retries, Tests failing.
    assert.deepEqual(await tableRows(frame), [
      ['Codebase explorer', '1', '0', '0', '0', '1', '0', '0', '1', '0', '—', '—', '0', '0', '0'],
      // Picked up after 1 h and after 1 day; completed 10 h and 2 days after it was written.
      ['Implementation engineer', '2', '2', '2', '0', '0', '0', '0', '0', '0', '12.5 h', '29 h', '0', '0', '0'],
      ['Quality reviewer', '2', '1', '0', '0', '1', '1', '0', '0', '1', '24 h', '—', '0', '0', '0'],
      ['Overall', '5', '3', '2', '0', '2', '1', '0', '1', '1', '24 h', '29 h', '0', '0', '0'],
    ]);
    const waiting = await frame.locator('#waiting li').allTextContents();
    assert.equal(waiting.length, 2, waiting.join('\n'));
    assert.match(waiting[0], /Codebase explorer — not picked up for 5 days/);
    assert.match(waiting[1], /Quality reviewer — accepted, not answered for 3 days/);
    assert.equal(await frame.locator('svg.chart[role="img"]').count(), 3);
    assert.equal(
      await frame.locator('svg.chart').nth(1).getAttribute('aria-label'),
      'Implementation engineer: 2 written, 2 picked up, 2 completed, 0 blocked, 0 still pending',
    );
    assert.deepEqual(
      await frame
        .locator('#chains tbody tr')
        .allInnerTexts()
        .then((r) => r.map((t) => t.replace(/\s+/g, ' ').trim())),
      ['1 5'],
    );
  });

  it('the period picker asks the host for the last 30 days, by keyboard, and the figures follow', async () => {
    const { page } = session;
    const frame = await insightsFrame(page);
    await frame.locator('#period-all').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // The 40-day-old handoff is left out: 4 written, the medians of the others.
    const expected = ['Overall', '4', '2', '1', '0', '2', '1', '0', '1', '1', '12.5 h', '10 h', '0', '0', '0'];
    await waitFor('the figures of the last 30 days', 15_000, async () =>
      (await frame.locator('#period-30d').isChecked()) && (await frame.locator('#range', { hasText: ' to ' }).count()) > 0 ? true : undefined,
    );
    await waitFor('the overall row of the last 30 days', 15_000, async () =>
      JSON.stringify((await tableRows(frame)).at(-1)) === JSON.stringify(expected) ? true : undefined,
    ).catch(async (err) => {
      assert.deepEqual((await tableRows(frame)).at(-1), expected, String(err));
    });
    assert.equal(
      await frame.locator('#period-30d').evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement),
      true,
      'the focus stays on the picker',
    );
  });

  it('a handoff written while the view is open shows up by itself', async () => {
    const { page } = session;
    const frame = await insightsFrame(page);
    await write('security_data_engineer', 'threat model', 10 * 60_000);
    await waitFor('the new handoff in the figures', 30_000, async () => ((await tableRows(frame)).at(-1)?.[1] === '5' ? true : undefined));
    assert.ok((await tableRows(frame)).some((r) => r[0] === 'Security & data engineer' && r[1] === '1'));
  });

  it('the handoff pending longer than handoff.pendingWarnAfter carries its warning icon in the timeline', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    const timeline = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) });
    const row = (text: RegExp) => timeline.locator('.monaco-list-row', { hasText: text }).first();
    // The topic is the label (clipped past 17 characters); the status and its waiting words, then the specialist, start the description.
    await row(/^map the auth code\s*pending · waiting 5 days · Codebase explorer · 5 days ago$/).waitFor({ timeout: 30_000 });
    // Pending for 5 days, and accepted 3 days ago without an answer: both past the 2 days of the setting's default.
    await row(/^map the auth code\s*pending · waiting 5 days · /)
      .locator('.codicon-warning')
      .waitFor({ timeout: 15_000 });
    await row(/^review the…\s*accepted · waiting 3 days · Quality reviewer · 4 days ago$/)
      .locator('.codicon-warning')
      .waitFor({ timeout: 15_000 });
    // Pending for two hours, and completed: no warning.
    assert.equal(
      await row(/^review the tests\s*pending · Quality reviewer · 2 hours ago$/)
        .locator('.codicon-warning')
        .count(),
      0,
    );
    assert.equal(
      await row(/^token middleware\s*complete · Implementation engineer · yesterday$/)
        .locator('.codicon-warning')
        .count(),
      0,
    );
    await screenshot(page, 'insights-timeline-warning');
  });

  it('looks right in a dark and a light theme', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1400, height: 1250 });
    // The insights tab in front, the side bar closed: the editor area holds the whole page.
    await runCommand(page, 'Handoff: Show Insights');
    await page.keyboard.press('ControlOrMeta+b');
    for (const [label, cls, name] of [
      ['Dark Modern', 'vs-dark', 'insights-dark'],
      ['Light Modern', 'vs', 'insights-light'],
    ] as const) {
      if ((await page.locator(`.monaco-workbench.${cls}`).count()) === 0) await switchTheme(page, label, cls);
      const frame = await insightsFrame(page);
      await frame.locator('#period-all').check();
      await frame.locator('#range', { hasText: 'All time' }).waitFor({ timeout: 15_000 });
      await frame.locator('svg.chart').first().waitFor({ timeout: 15_000 });
      await frame.locator('body').evaluate((b) => b.ownerDocument.scrollingElement?.scrollTo(0, 0));
      await page.waitForTimeout(800);
      const box = await page.locator('.part.editor').boundingBox();
      assert.ok(box, 'the editor area is visible');
      await screenshot(page, name, false, box);
    }
  });

  it('comes back after a window reload, on the period it showed', async () => {
    const { page } = session;
    let frame = await insightsFrame(page);
    await frame.locator('#period-30d').check();
    await frame.locator('#range', { hasText: ' to ' }).waitFor({ timeout: 15_000 });
    await frame.locator('body').evaluate(() => ((globalThis as { marker?: number }).marker = 1));
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.part.editor .tab', { hasText: 'Handoff Insights' }).first().waitFor({ timeout: 60_000 });
    // A new page (the marker is gone), restored by the extension's serializer, asking for its own period.
    frame = await waitFor('the Handoff Insights webview after the reload', 60_000, async () => {
      const f = await insightsFrame(page);
      return (await f
        .locator('body')
        .evaluate(() => (globalThis as { marker?: number }).marker === undefined)
        .catch(() => false))
        ? f
        : undefined;
    });
    await frame.locator('#figures').waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('#period-30d').isChecked(), true);
    // The last 30 days: the 40-day-old handoff left out, the one written while the view was open counted.
    await waitFor('the overall row of the last 30 days after the reload', 15_000, async () =>
      (await tableRows(frame)).at(-1)?.[1] === '5' ? true : undefined,
    );
  });
});
