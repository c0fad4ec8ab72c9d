/**
 * UI test of the "Hand Over" panel as a new user first sees it, at 1400×900 on a folder with
 * uncommitted changes and a Claude Code transcript of the session: the panel shows that it is
 * drafting, then arrives with its drafted summary in sight above a footer of a few lines; the
 * specialist picker's list opens whole, over the footer; a field that takes the focus under the
 * footer is scrolled above it, and a warning banner goes once its cause is fixed; over budget the
 * footer keeps to one more line, the detail opening on demand; "Draft with model" without a model
 * is disabled and says why; Preview opens the rendered page without the frontmatter; the success
 * banner says the handoff folder is meant to be committed; and after a window reload the
 * timeline never shows VS Code's "There is no data provider registered…".
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { claudeProjectDirName } from '../../src/evidence/session/discovery';
import { waitFor, workspaceDir } from '../host/codeServer';
import { activityBarItem, handOverFrame, openWorkbench, runCommand, screenshot, waitForQuickInput, type Session } from './workbench';

const REQUEST = 'Add bearer-token auth to the todo API and keep the old routes working.';
const AGENT_SAID = 'The middleware checks the bearer token; the old routes still answer.';

/** A Claude Code transcript of the last minutes: the user's request and the agent's answer. */
function writeTranscript(projectsDir: string, workspace: string): void {
  const sessionId = '5c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
  const t0 = Date.now() - 5 * 60_000;
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: workspace, sessionId, version: '2.1.152', gitBranch: 'main' };
  const lines = [
    { ...base, type: 'user', message: { role: 'user', content: REQUEST }, uuid: 'u0', timestamp: at(0) },
    {
      ...base,
      type: 'assistant',
      message: {
        model: 'claude-opus-4-7',
        id: 'msg_30',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: AGENT_SAID }],
        stop_reason: 'end_turn',
      },
      uuid: 'a30',
      timestamp: at(30),
    },
  ];
  const dir = path.join(projectsDir, claudeProjectDirName(workspace));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

/**
 * What the workbench records from the start of its document (a window reload included):
 * whether a tree view ever showed VS Code's "no data provider" message, and that the Handoff
 * Timeline was drawn at all (so the watch saw the view it is about).
 */
function recordFromStart(): void {
  // The browser's own objects, typed here as far as used (the tests compile without the DOM library).
  type Seen = { noDataProvider: string[]; timelineDrawn: boolean };
  type El = { textContent: string | null; classList: { contains(c: string): boolean } };
  type Doc = { querySelectorAll(selector: string): ArrayLike<El> & Iterable<El> };
  const g = globalThis as unknown as {
    __seen?: Seen;
    document: Doc;
    MutationObserver: new (callback: () => void) => { observe(target: Doc, options: object): void };
  };
  const document = g.document;
  const seen: Seen = { noDataProvider: [], timelineDrawn: false };
  g.__seen = seen;
  // No named functions: the page runs this code as written, without the test runner's helpers.
  new g.MutationObserver(function () {
    for (const m of document.querySelectorAll('.message')) {
      const text = m.textContent ?? '';
      if (/no data provider registered/i.test(text) && !m.classList.contains('hide')) seen.noDataProvider.push(text);
    }
    if (!seen.timelineDrawn)
      seen.timelineDrawn = [...document.querySelectorAll('.pane-header')].some(
        (h) => /Handoff Timeline/i.test(h.textContent ?? '') && h.classList.contains('expanded'),
      );
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class'] });
}

/** Where an element of the panel is against the view and the footer (CSS pixels of the webview). */
async function placeOf(
  frame: FrameLocator,
  selector: string,
): Promise<{ top: number; bottom: number; footerTop: number; footerHeight: number; viewHeight: number }> {
  return frame
    .locator(selector)
    .first()
    .evaluate((el) => {
      const doc = el.ownerDocument;
      const r = el.getBoundingClientRect();
      const footer = doc.querySelector('.footer')?.getBoundingClientRect();
      const viewHeight = doc.defaultView?.innerHeight ?? 0;
      return { top: r.top, bottom: r.bottom, footerTop: footer?.top ?? viewHeight, footerHeight: footer?.height ?? 0, viewHeight };
    });
}

/** In sight: below the top of the view and clear of the footer. */
function inSight(p: { top: number; bottom: number; footerTop: number }): boolean {
  return p.top >= 0 && p.bottom <= p.footerTop + 0.5;
}

/** Types a topic when the panel has none (each test stands on its own). */
async function ensureTopic(frame: FrameLocator): Promise<void> {
  const input = frame.locator('#topic input').first();
  if ((await input.inputValue()).trim()) return;
  await input.click();
  await input.pressSequentially('token auth', { delay: 5 });
  await waitFor('the topic typed', 5_000, async () => ((await input.inputValue()) === 'token auth' ? true : undefined));
  await frame.locator('body').evaluate(() => new Promise((resolve) => setTimeout(resolve, 600)));
}

/** The first webview frame of the page holding `selector` (the Markdown preview's content, for one). */
async function frameWith(page: Page, selector: string, what: string) {
  return waitFor(what, 60_000, async () => {
    for (const f of page.frames())
      if (
        await f
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return f;
    return undefined;
  });
}

describe('UI: the Hand Over panel as a new user first sees it (1400×900)', function () {
  let session: Session;
  let folder: string;
  let failed = false;

  before(async () => {
    folder = path.join(workspaceDir('arrival'), 'todo-api');
    createDemoRepository(folder);
    const claudeConfig = mkdtempSync(path.join(workspaceDir('arrival'), 'claude-'));
    writeTranscript(path.join(claudeConfig, 'projects'), folder);
    session = await openWorkbench(folder, { name: 'arrival', env: { CLAUDE_CONFIG_DIR: claudeConfig } }, { width: 1400, height: 900 });
    // From here on the workbench records from the start of each document (the window after a reload).
    await session.page.addInitScript(recordFromStart);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-arrival-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('says it is drafting, then arrives with the drafted summary in sight above a compact footer', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    const frame = handOverFrame(page);
    // From the first moment the form is there, every text the draft status takes, in order.
    await frame.locator('#draft-status').waitFor({ timeout: 60_000 });
    // (No named functions inside: the page runs this code as written, without the test runner's helpers.)
    await frame.locator('body').evaluate((body) => {
      const doc = body.ownerDocument;
      const seen: string[] = [(doc.getElementById('draft-status')?.textContent ?? '').trim()];
      (globalThis as unknown as { __statuses?: string[] }).__statuses = seen;
      new (doc.defaultView as unknown as { MutationObserver: new (cb: () => void) => { observe(n: unknown, o: object): void } }).MutationObserver(function () {
        const t = (doc.getElementById('draft-status')?.textContent ?? '').trim();
        if (t && seen[seen.length - 1] !== t) seen.push(t);
      }).observe(body, { subtree: true, childList: true, characterData: true });
    });
    const summary = frame.locator('#summary textarea').first();
    await waitFor('the drafted summary', 60_000, async () => ((await summary.inputValue().catch(() => '')).startsWith('Asked: ') ? true : undefined));
    const statuses = await frame.locator('body').evaluate(() => (globalThis as unknown as { __statuses?: string[] }).__statuses ?? []);
    // Watched from just after the form appears: a draft the host had ready may be there already. Whatever was seen
    // before the draft said it was drafting, nothing in between.
    const drafted = statuses.findIndex((s) => /fields? drafted from the session/.test(s));
    assert.ok(drafted >= 0, `the panel names the drafted fields: ${JSON.stringify(statuses)}`);
    for (const before of statuses.slice(0, drafted)) assert.match(before, /Drafting from the session/, `before the draft came: ${JSON.stringify(statuses)}`);
    // Where the summary came from, with its time in the user's own zone and words, not raw UTC.
    const source = (await frame.locator('#drafted-summary .tip').textContent()) ?? '';
    assert.match(source, /claude-code/, source);
    assert.doesNotMatch(source, /UTC|\d{4}-\d\d-\d\dT/, source);
    await frame.locator('#token-count', { hasText: /^[\d,]+ .*\/ [\d,]+ tokens$/ }).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const place = await placeOf(frame, '#summary');
    assert.ok(inSight(place), `the drafted summary is in sight on arrival: ${JSON.stringify(place)}`);
    // The footer keeps to a few lines (the meter's line, the Preview / Hand Over buttons): a quarter of the view at most.
    assert.ok(place.footerHeight <= place.viewHeight / 4, `the footer is compact: ${JSON.stringify(place)}`);
    // The budget beside the count shows its whole choice, not "Default (3,0…".
    const budget = await frame
      .locator('#budget .selected-value')
      .first()
      .evaluate((el) => {
        const e = el as unknown as { scrollWidth: number; clientWidth: number; textContent: string | null };
        return { text: (e.textContent ?? '').trim(), cut: e.scrollWidth > e.clientWidth + 1 };
      });
    assert.deepEqual(budget, { text: 'Default 3K', cut: false });
    await screenshot(page, 'arrival-drafted-summary-in-sight');
  });

  it('"Draft with model" without a language model is disabled and says why', async () => {
    const frame = handOverFrame(session.page);
    const button = frame.locator('#draft-with-model');
    await waitFor('"Draft with model" disabled', 30_000, async () => ((await button.getAttribute('disabled')) !== null ? true : undefined));
    const why = (await button.getAttribute('title')) ?? '';
    assert.match(why, /language model|model/i, why);
    assert.ok(!/^Ask the editor/.test(why), `the tooltip says why it is disabled, not what it would do: ${why}`);
    assert.equal(await frame.locator('#model-draft-state').innerText(), why, 'the reason is also in the panel, in words');
  });

  it("the specialist picker's list opens whole, over the footer", async () => {
    const { page } = session;
    const frame = handOverFrame(page);
    await frame.locator('#specialist').click();
    const options = frame.locator('#specialist vscode-option');
    await options.last().waitFor({ state: 'visible', timeout: 10_000 });
    const shown = await options.evaluateAll((els) =>
      els.map((el) => {
        const doc = el.ownerDocument;
        const r = el.getBoundingClientRect();
        const hit = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          text: (el.textContent ?? '').trim(),
          top: r.top,
          bottom: r.bottom,
          height: doc.defaultView?.innerHeight ?? 0,
          onTop: !!hit && (hit === el || el.contains(hit)),
        };
      }),
    );
    assert.ok(shown.length >= 8, `the built-in specialists are listed: ${JSON.stringify(shown)}`);
    const hidden = shown.filter((o) => !(o.top >= 0 && o.bottom <= o.height && o.onTop));
    assert.deepEqual(hidden, [], 'every option is in the view and drawn over the footer');
    await screenshot(page, 'arrival-picker-list-whole');
    await frame.locator('#specialist vscode-option', { hasText: 'Quality reviewer' }).first().click();
    await frame.locator('#persona-marker', { hasText: '[quality reviewer]' }).waitFor({ timeout: 10_000 });
  });

  it('Hand Over without a topic sends the focus to Topic, in sight; a field focused under the footer scrolls above it; the banner goes once fixed', async () => {
    const { page } = session;
    const frame = handOverFrame(page);
    // As after reading the form down to its end: Topic is far above, out of sight.
    await frame.locator('body').evaluate((b) => b.ownerDocument.scrollingElement?.scrollTo(0, b.ownerDocument.scrollingElement.scrollHeight));
    await frame.locator('#hand-over').click();
    await frame.locator('#banner', { hasText: 'Type a topic first' }).waitFor({ timeout: 10_000 });
    await waitFor('the focus on Topic', 5_000, async () =>
      (await frame.locator('#topic').evaluate((el) => el.ownerDocument.activeElement === el)) ? true : undefined,
    );
    const topic = await waitFor('Topic in sight', 5_000, async () => {
      const p = await placeOf(frame, '#topic');
      return inSight(p) ? p : undefined;
    }).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await placeOf(frame, '#topic'))}`);
    });
    assert.ok(inSight(topic));

    // A field the footer covers takes the focus: it is scrolled above the footer. The first of the form's fields
    // that scrolling can put just under the footer's top edge is put there.
    const field = await frame.locator('body').evaluate((body) => {
      const doc = body.ownerDocument;
      const scroller = doc.scrollingElement;
      const footerTop = doc.querySelector('.footer')?.getBoundingClientRect().top ?? 0;
      if (!scroller) return undefined;
      const maxScroll = scroller.scrollHeight - scroller.clientHeight;
      for (const id of ['add-decisions', 'add-failed_approaches', 'add-next_steps', 'add-blockers', 'return-condition', 'reason']) {
        const el = doc.getElementById(id);
        if (!el) continue;
        const target = el.getBoundingClientRect().top + scroller.scrollTop - footerTop + 8;
        if (target >= 0 && target <= maxScroll) {
          scroller.scrollTo(0, target);
          return id;
        }
      }
      return undefined;
    });
    assert.ok(field, 'a field of the form can be scrolled under the footer');
    const covered = await placeOf(frame, `#${field}`);
    assert.ok(covered.bottom > covered.footerTop + 4, `#${field} starts under the footer: ${JSON.stringify(covered)}`);
    await frame.locator(`#${field} input`).first().focus();
    const revealed = await waitFor(`#${field}, focused, above the footer`, 5_000, async () => {
      const p = await placeOf(frame, `#${field}`);
      return inSight(p) ? p : undefined;
    }).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await placeOf(frame, `#${field}`))}`);
    });
    assert.ok(inSight(revealed));
    await screenshot(page, 'arrival-focused-field-in-view');

    // Typing the topic fixes what the banner asked for: the banner goes.
    const input = frame.locator('#topic input').first();
    await input.click();
    await input.pressSequentially('token auth', { delay: 5 });
    await waitFor('the topic banner gone', 10_000, async () => ((await frame.locator('#banner .note').count()) === 0 ? true : undefined));
  });

  it('over budget the footer adds one line, and what fitting cuts opens on demand', async () => {
    const { page } = session;
    const frame = handOverFrame(page);
    mkdirSync(path.join(folder, '.vscode'), { recursive: true });
    writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'handoff.maxContextTokens': 300 }));
    await frame.locator('#token-count', { hasText: '/ 300 tokens' }).waitFor({ timeout: 30_000 });
    // Drafted again, the draft over its budget comes back with Fit to budget on (even fitted it is over
    // 300 tokens: the line says by how much the fitted handoff is); Don't Fit shows the whole draft over.
    await frame.locator('#redraft').click();
    await frame.locator('#fit-on').waitFor({ timeout: 30_000 });
    await frame.locator('#token-count.over', { hasText: /^[\d,]+ fitted \/ 300 tokens$/ }).waitFor({ timeout: 10_000 });
    const fittedCount = Number((await frame.locator('#token-count').innerText()).split(' ')[0].replace(/,/g, ''));
    assert.match(
      await frame.locator('#meter .note.error').innerText(),
      new RegExp(`Over the budget by ${(fittedCount - 300).toLocaleString('en-US')} tokens?\\.`),
    );
    const fittedLine = await placeOf(frame, '#summary');
    assert.ok(fittedLine.footerHeight <= fittedLine.viewHeight / 3, `fitted, the footer stays compact: ${JSON.stringify(fittedLine)}`);
    await screenshot(page, 'arrival-fitted');
    await frame.locator('#unfit').click();
    await frame.locator('#token-count.over', { hasText: '/ 300 tokens' }).waitFor({ timeout: 30_000 });
    const note = frame.locator('#meter .note.error');
    await note.filter({ hasText: /Over the budget by [\d,]+ tokens?/ }).waitFor({ timeout: 15_000 });
    assert.equal(await frame.locator('#over-toggle').getAttribute('aria-expanded'), 'false', 'the detail starts collapsed');
    assert.equal(await frame.locator('#fit-cuts').isVisible(), false);
    await page.waitForTimeout(300);
    const collapsed = await placeOf(frame, '#summary');
    assert.ok(collapsed.footerHeight <= collapsed.viewHeight / 3, `over budget, the footer stays compact: ${JSON.stringify(collapsed)}`);
    await screenshot(page, 'arrival-over-budget-collapsed');
    await frame.locator('#over-toggle').click();
    await frame.locator('#fit-cuts', { hasText: /^Fit to budget (?:shortens|cuts) .*leaving [\d,]+ tokens/ }).waitFor({ state: 'visible', timeout: 10_000 });
    // Open it stays, while the meter is counted again.
    await page.waitForTimeout(1500);
    assert.equal(await frame.locator('#fit-cuts').isVisible(), true);
    await screenshot(page, 'arrival-over-budget-details');
    rmSync(path.join(folder, '.vscode', 'settings.json'));
    await frame.locator('#token-count:not(.over)', { hasText: '/ 3,000 tokens' }).waitFor({ timeout: 30_000 });
  });

  it('Preview opens the rendered handoff, without its frontmatter', async () => {
    const { page } = session;
    const frame = handOverFrame(page);
    await ensureTopic(frame);
    await frame.locator('#preview').click();
    const preview = await frameWith(page, 'h1:has-text("Handoff to Quality reviewer")', 'the rendered preview of the handoff');
    const text = await preview.locator('body').innerText();
    assert.ok(!/schema_version|^---$/m.test(text), `no frontmatter in the preview: ${text.slice(0, 400)}`);
    assert.match(text, /Summary/);
    const tabs = await page.locator('.part.editor .tab').allInnerTexts();
    assert.ok(
      tabs.some((t) => /Preview Handoff to Quality reviewer/.test(t)),
      `a Markdown preview tab: ${JSON.stringify(tabs)}`,
    );
    await screenshot(page, 'arrival-preview-rendered');
    await runCommand(page, 'View: Close All Editors');
  });

  it('the success banner says the handoff folder is meant to be committed', async () => {
    const { page } = session;
    const frame = handOverFrame(page);
    await frame.locator('#hand-over').click();
    // Over the budget, Hand Over asks first (as the end-of-session command does): fit.
    const asked = await Promise.race([
      frame
        .locator('#banner .note.success')
        .waitFor({ timeout: 60_000 })
        .then(() => false),
      waitForQuickInput(page, 'Fit to budget and hand over', 'the over-budget question', 60_000).then(() => true),
    ]);
    if (asked) await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Fit to budget and hand over' }).first().click();
    const hint = frame.locator('#banner #commit-hint');
    await hint.waitFor({ timeout: 60_000 });
    assert.match(await hint.innerText(), /Commit \.handoff\/ with your work/);
    // The new draft starts empty: once the evidence is in again, the panel does not say it is drafting.
    await frame.locator('#token-count', { hasText: /^[\d,]+ .*\/ 3,000 tokens$/ }).waitFor({ timeout: 30_000 });
    assert.doesNotMatch(await frame.locator('#draft-status').innerText(), /Drafting from the session/);
    await screenshot(page, 'arrival-handed-over-commit-hint');
  });

  it('after a window reload the timeline never shows "no data provider", and the panel is back with its draft', async () => {
    const { page } = session;
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const frame = handOverFrame(page);
    await frame.locator('#specialist').waitFor({ timeout: 60_000 });
    const timelineRow = page
      .locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) })
      .locator('.monaco-list-row', { hasText: /^token auth\s*pending · Quality reviewer · / })
      .first();
    await timelineRow.waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => (globalThis as unknown as { __seen?: { noDataProvider: string[]; timelineDrawn: boolean } }).__seen);
    assert.ok(seen, 'the reloaded workbench recorded from its start');
    assert.equal(seen.timelineDrawn, true, 'the watch saw the Handoff Timeline drawn');
    assert.deepEqual(seen.noDataProvider, [], 'no view showed "There is no data provider registered…"');
    await screenshot(page, 'arrival-after-reload');
  });
});
