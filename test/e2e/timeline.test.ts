/**
 * UI test of the "Handoff Timeline" tree in the real workbench: two handoffs (a chain:
 * explorer → implementer) written before the window opens, a result recorded through the
 * command palette, the three entries nested in the right order; then "Mark Partial" from
 * an item's context menu renames the file and the tree shows it. Hovering an entry shows
 * the rich tooltip (status, hop, tokens, files: resolveTreeItem's), and a handoff that
 * continues a chain while the window is open is revealed and selected under its parent.
 * Each row's label is its topic and its description starts with the status, then the
 * specialist: at the default side-bar width a row with a long topic shows its clipped topic and
 * its status in full.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { clipText } from '../../src/core/handoff/text';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { setHandoffStatus } from '../../src/engine/handover/handoffFiles';
import { handover } from '../../src/engine/handover/handover';
import { waitFor, workspaceDir } from '../host/codeServer';
import { ROW_TOPIC_MAX } from '../../src/vscode/timeline/rowText';
import { activityBarItem, openWorkbench, runCommand, runContextMenuItem, screenshot, typeAndEnter, waitForQuickInput, type Session } from './workbench';

/** A row of the timeline tree as shown: aria-level, label, description, and what a screen reader reads. */
interface ShownRow {
  readonly level: number;
  readonly label: string;
  readonly description: string;
  readonly aria: string;
}

/** What the row measurement uses of the DOM (the tests compile without the DOM library). */
interface DomText {
  readonly length: number;
}
interface DomElement {
  readonly textContent: string | null;
  readonly parentElement: DomElement | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly ownerDocument: {
    readonly defaultView: {
      getComputedStyle(e: DomElement): {
        readonly overflowX: string;
        readonly textOverflow: string;
        readonly paddingRight: string;
        readonly borderRightWidth: string;
      };
    } | null;
    createTreeWalker(root: DomElement, show: number): { nextNode(): DomText | null };
    createElement(tag: string): DomElement & { textContent: string | null; remove(): void };
    createRange(): { setStart(n: DomElement, o: number): void; setEnd(n: DomText, o: number): void; getBoundingClientRect(): { readonly right: number } };
  };
  querySelector(css: string): DomElement | null;
  closest(css: string): DomElement | null;
  append(child: DomElement): void;
  getBoundingClientRect(): { readonly right: number; readonly width: number };
}

function timelinePane(page: Page): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) });
}

/** The rows of the timeline tree, top to bottom. */
async function timelineRows(page: Page): Promise<ShownRow[]> {
  const rows = timelinePane(page).locator('.monaco-list-row');
  const out: ShownRow[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const text = async (css: string) => ((await row.locator(css).count()) ? (await row.locator(css).first().innerText()).replace(/\s+/g, ' ').trim() : '');
    out.push({
      level: Number(await row.getAttribute('aria-level')),
      label: await text('.label-name'),
      description: await text('.label-description'),
      aria: (await row.getAttribute('aria-label')) ?? '',
    });
  }
  return out;
}

function row(page: Page, text: string | RegExp): Locator {
  return timelinePane(page).locator('.monaco-list-row', { hasText: text }).first();
}

describe('UI: the Handoff timeline', function () {
  let session: Session;
  let folder: string;
  let failed = false;
  let implementerFile: string;
  /** The Quality reviewer's handoff of the "secrets audit" chain (hop 2). */
  let reviewerId: string;

  before(async () => {
    folder = path.join(workspaceDir('timeline'), 'todo-api');
    createDemoRepository(folder);
    const t0 = Date.now() - 60 * 60_000;
    HandoverOkSchema.parse(
      await handover(
        { specialist: 'codebase_explorer', topic: 'token auth', summary: 'Mapped the auth code.' },
        { workspaceRoot: folder, now: () => new Date(t0) },
      ),
    );
    const second = HandoverOkSchema.parse(
      await handover(
        { specialist: 'implementation_engineer', topic: 'token auth', parent: 'latest', next_steps: ['Implement the middleware'] },
        { workspaceRoot: folder, now: () => new Date(t0 + 10 * 60_000) },
      ),
    );
    implementerFile = second.handoff_file;
    session = await openWorkbench(folder, { name: 'timeline' }, { width: 1400, height: 900 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-timeline-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('two handoffs and a result recorded from the palette make three entries, nested in chain order', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    await row(page, 'Codebase explorer').waitFor({ timeout: 30_000 });
    await runCommand(page, 'Handoff: Record Result');
    await waitForQuickInput(page, 'Record the result of which handoff?', 'the open handoffs');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'to implementation_engineer' }).first().click();
    await waitForQuickInput(page, 'Which of these are done?', 'the acceptance criteria');
    await page.keyboard.press('Enter');
    await waitForQuickInput(page, 'Summary of the result', 'the summary box');
    await typeAndEnter(page, 'Middleware half done.');
    await waitForQuickInput(page, 'Blockers', 'the blockers box');
    await typeAndEnter(page, '');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.filter({ hasText: 'Result recorded' }).waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /🟡 .*_implementation_engineer — in_progress/);
    await page.keyboard.press('Escape');

    const rows = await waitFor('three timeline rows, nested', 30_000, async () => {
      const r = await timelineRows(page);
      return r.length === 3 && r.every((x) => /ago|now/.test(x.description)) && r.some((x) => /result/.test(x.description)) ? r : undefined;
    });
    const shown = JSON.stringify(rows);
    // The topic is the label; the description starts with the status, then the specialist ("… result" for a result).
    assert.deepEqual(
      rows.map((r) => [r.level, r.label]),
      [
        [1, 'token auth'],
        [2, 'token auth'],
        [3, 'token auth'],
      ],
      shown,
    );
    assert.match(rows[0].description, /^pending · Codebase explorer · 1 hour ago$/, shown);
    assert.match(rows[1].description, /^in progress · Implementation engineer · 5\d minutes ago$/, `the answered handoff took the result status: ${shown}`);
    assert.match(rows[2].description, /^in progress · Implementation engineer result · (now|\d+ seconds? ago)$/, shown);
    // A screen reader reads the specialist, the topic and the status in words.
    assert.equal(rows[0].aria, 'Handoff to Codebase explorer, topic: token auth, status: pending, 1 hour ago', shown);
    assert.match(rows[2].aria, /^Result from Implementation engineer, topic: token auth, status: in progress, (now|\d+ seconds? ago)$/, shown);
    await screenshot(page, 'timeline-chain');
  });

  it('"Mark Partial" from the context menu renames the file and the tree shows it', async () => {
    const { page } = session;
    const partial = implementerFile.replace(/\.md$/, '.partial.md');
    await runContextMenuItem(page, row(page, /^token auth\s*in progress · Implementation engineer · /), 'Mark Partial', async () => existsSync(partial));
    assert.equal(existsSync(implementerFile), false);
    await row(page, /partial/).waitFor({ timeout: 15_000 });
    const rows = await timelineRows(page);
    assert.equal(rows.length, 3, JSON.stringify(rows));
    assert.deepEqual(
      rows.map((r) => [r.level, r.label, r.description.replace(/ · [^·]*$/, '')]),
      [
        [1, 'token auth', 'pending · Codebase explorer'],
        [2, 'token auth', 'partial · Implementation engineer'],
        [3, 'token auth', 'in progress · Implementation engineer result'],
      ],
      JSON.stringify(rows),
    );
    assert.equal(readdirSync(path.dirname(partial)).filter((f) => f.endsWith('.partial.md')).length, 1);
    await screenshot(page, 'timeline-partial');
  });

  it('hovering an entry shows the rich tooltip: topic, status, hop, summary, tokens and files', async () => {
    const { page } = session;
    const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: /hop 1 \(codebase_explorer\)[\s\S]*test runs/ }).first();
    // A hover shows after the pointer rests on the row; one that another UI element took away is tried again (3 times, 8 s each).
    let shown = false;
    for (let attempt = 0; attempt < 3 && !shown; attempt++) {
      await page.mouse.move(0, 0);
      await page.keyboard.press('Escape');
      await row(page, /^token auth\s*pending · Codebase explorer/)
        .locator('.label-name')
        .first()
        .hover();
      shown = await hover.waitFor({ state: 'visible', timeout: 8_000 }).then(
        () => true,
        () => false,
      );
    }
    if (!shown) throw new Error('timed out after 3 tries of 8 s waiting for the rich tooltip (resolveTreeItem) of the "Codebase explorer" row');
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Codebase explorer .* token auth Handoff · pending · hop 1/, text);
    assert.match(text, /Handoff · \w[\w ]* · hop 1 \(codebase_explorer\)/, text);
    assert.match(text, /Mapped the auth code\./, text);
    assert.match(text, /[\d,]+ \/ [\d,]+ tokens · [\d,]+ touched files · [\d,]+ test runs/, text);
    await screenshot(page, 'timeline-hover');
    await page.mouse.move(0, 0);
  });

  it('a handoff that continues a chain while the window is open is revealed and selected under its parent', async () => {
    const { page } = session;
    const root = HandoverOkSchema.parse(
      await handover({ specialist: 'security_data_engineer', topic: 'secrets audit', summary: 'Audited the config.' }, { workspaceRoot: folder }),
    );
    const security = /^secrets audit\s*pending · Security & data engineer · /;
    await row(page, security).waitFor({ timeout: 20_000 });
    await waitFor(
      'the new root row placed (no longer regrouping)',
      15_000,
      async () => (await timelineRows(page)).filter((r) => r.description.includes('Security & data engineer')).length === 1,
    );
    const next = HandoverOkSchema.parse(
      await handover(
        { specialist: 'quality_reviewer', topic: 'secrets audit', parent: root.package.id, summary: 'Review the audit.' },
        { workspaceRoot: folder },
      ),
    );
    reviewerId = next.package.id;
    const reviewer = row(page, /^secrets audit\s*pending · Quality reviewer · /);
    await reviewer.waitFor({ state: 'visible', timeout: 20_000 }).catch(async () => {
      throw new Error(`timed out after 20 s waiting for the new "Quality reviewer" entry to be shown; rows: ${JSON.stringify(await timelineRows(page))}`);
    });
    await waitFor('the new entry selected', 15_000, async () => (await reviewer.getAttribute('aria-selected')) === 'true');
    const rows = await timelineRows(page);
    const at = rows.findIndex((r) => /^pending · Quality reviewer · /.test(r.description));
    assert.ok(
      at > 0 && /^pending · Security & data engineer · /.test(rows[at - 1].description) && rows[at].level === rows[at - 1].level + 1,
      `nested right under its parent: ${JSON.stringify(rows)}`,
    );
    assert.equal(rows[at].label, 'secrets audit', JSON.stringify(rows));
    assert.match(rows[at].aria, /^Handoff to Quality reviewer, topic: secrets audit, status: pending, /, JSON.stringify(rows));
    await screenshot(page, 'timeline-revealed');
  });

  it('at the default side-bar width a row with a long topic shows its clipped topic and its status in full', async () => {
    const { page } = session;
    // The window of the user trial (opened at 1400×900 above), the side bar as the workbench sized it.
    const topic = 'Refactor authentication middleware for the v2 token services';
    assert.equal(topic.length, 60);
    // Three deep (security → reviewer → release auditor): the deepest indent leaves the least room; in progress: the longest status word.
    const deep = HandoverOkSchema.parse(
      await handover({ specialist: 'release_auditor', topic, parent: reviewerId, summary: 'Keys next.' }, { workspaceRoot: folder }),
    );
    const set = await setHandoffStatus(deep.handoff_file, 'in_progress', { at: new Date().toISOString(), session_id: 'timeline-test' });
    assert.ok(set.ok, JSON.stringify(set));
    const label = clipText(topic, ROW_TOPIC_MAX);
    assert.equal(label, 'Refactor authent…', 'the label is as long as the limit allows (a cut mid-word)');
    const long = row(page, /^Refactor authent…\s*in progress · Release auditor · /);
    await long.waitFor({ state: 'visible', timeout: 20_000 }).catch(async () => {
      throw new Error(`timed out after 20 s waiting for the long-topic row "${label}"; rows: ${JSON.stringify(await timelineRows(page))}`);
    });
    const shown = (await timelineRows(page)).find((r) => r.label === label);
    assert.ok(shown, 'the row is listed');
    assert.equal(shown.level, 3, JSON.stringify(shown));
    assert.equal(
      shown.aria.startsWith(`Handoff to Release auditor, topic: ${topic}, status: in progress, `),
      true,
      `the whole topic is read out: ${shown.aria}`,
    );
    // As a user scans the list: another row selected (a selected row's inline actions cover its end), the pointer away.
    await row(page, /^secrets audit\s*pending · Quality reviewer · /)
      .locator('.label-name')
      .click();
    await page.mouse.move(0, 0);
    await waitFor('the long-topic row not selected', 10_000, async () => ((await long.getAttribute('aria-selected')) !== 'true' ? true : undefined));
    // Measured in the DOM: the right edge of the label, and of "in progress" with room for the ellipsis that ends cut text, lie inside every box that clips the row.
    const fit = await long.evaluate((row) => {
      const el = row as unknown as DomElement;
      const doc = el.ownerDocument;
      const name = el.querySelector('.label-name');
      const description = el.querySelector('.label-description');
      if (!name || !description) return { missing: true } as const;
      // The right edge of the first n characters of each one's text (inline: tsx names a nested function with a helper the page lacks).
      const rights: number[] = [];
      for (const [node, chars] of [
        [name, (name.textContent ?? '').length],
        [description, 'in progress'.length],
      ] as const) {
        const walker = doc.createTreeWalker(node, 4 /* NodeFilter.SHOW_TEXT */);
        let left = chars;
        let last: DomText | null = null;
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          last = t;
          if (left <= t.length) break;
          left -= t.length;
        }
        const range = doc.createRange();
        range.setStart(node, 0);
        if (last) range.setEnd(last, Math.min(left, last.length));
        rights.push(range.getBoundingClientRect().right);
      }
      // The ellipsis is drawn in the font of the box that cuts the text (text-overflow), not the description's.
      let cutter: DomElement = description;
      for (let p: DomElement | null = description; p && p !== el.parentElement; p = p.parentElement) {
        if (doc.defaultView?.getComputedStyle(p).textOverflow === 'ellipsis') cutter = p;
      }
      const probe = doc.createElement('span');
      probe.textContent = '…';
      cutter.append(probe);
      const ellipsis = probe.getBoundingClientRect().width;
      probe.remove();
      let clip = Infinity;
      for (let p: DomElement | null = description; p && p !== el.parentElement; p = p.parentElement) {
        // Text is cut at the content edge (a cut one ends with the ellipsis there), inside the padding and border.
        const style = doc.defaultView?.getComputedStyle(p);
        if (style && style.overflowX !== 'visible')
          clip = Math.min(clip, p.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth));
      }
      const sidebar = el.closest('.part.sidebar');
      if (sidebar) clip = Math.min(clip, sidebar.getBoundingClientRect().right);
      return {
        missing: false,
        clip,
        sidebarWidth: sidebar?.getBoundingClientRect().width ?? 0,
        nameRight: rights[0],
        nameClipped: name.scrollWidth > name.clientWidth,
        statusRight: rights[1],
        ellipsis,
      } as const;
    });
    assert.equal(fit.missing, false, 'the row has a label and a description');
    if (fit.missing) return;
    const measured = JSON.stringify(fit);
    assert.ok(fit.sidebarWidth > 0, measured);
    assert.equal(fit.nameClipped, false, `the label is not cut: ${measured}`);
    assert.ok(fit.nameRight <= fit.clip, `the clipped topic is fully visible: ${measured}`);
    assert.ok(fit.ellipsis > 0, measured);
    assert.ok(fit.statusRight + fit.ellipsis <= fit.clip, `"in progress" is fully visible after it: ${measured}`);
    const box = await page.locator('.part.sidebar').boundingBox();
    assert.ok(box, 'the side bar is visible');
    await screenshot(page, 'timeline-long-topic', false, { x: 0, y: 0, width: Math.min(1400, box.x + box.width + 40), height: box.y + box.height });
  });
});
