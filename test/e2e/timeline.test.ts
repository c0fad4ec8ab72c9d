/**
 * UI test of the "Handoff Timeline" tree in the real workbench: two handoffs (a chain:
 * explorer → implementer) written before the window opens, a result recorded through the
 * command palette, the three entries nested in the right order; then "Mark Partial" from
 * an item's context menu renames the file and the tree shows it. Hovering an entry shows
 * the rich tooltip (status, hop, tokens, files: resolveTreeItem's), and a handoff that
 * continues a chain while the window is open is revealed and selected under its parent.
 * Each row's status comes first in its description, so the default side-bar width keeps it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { handover } from '../../src/engine/handover/handover';
import { waitFor, workspaceDir } from '../host/codeServer';
import { activityBarItem, openWorkbench, runCommand, runContextMenuItem, screenshot, typeAndEnter, waitForQuickInput, type Session } from './workbench';

/** The rows of the timeline tree, top to bottom, as [aria-level, text]. */
async function timelineRows(page: Page): Promise<Array<[number, string]>> {
  const rows = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) }).locator('.monaco-list-row');
  const out: Array<[number, string]> = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    out.push([Number(await row.getAttribute('aria-level')), (await row.innerText()).replace(/\s+/g, ' ').trim()]);
  }
  return out;
}

function row(page: Page, text: string | RegExp): Locator {
  return page
    .locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) })
    .locator('.monaco-list-row', { hasText: text })
    .first();
}

describe('UI: the Handoff timeline', function () {
  let session: Session;
  let folder: string;
  let failed = false;
  let implementerFile: string;

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
    session = await openWorkbench(folder, { name: 'timeline' }, { width: 1400, height: 1000 });
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
      return r.length === 3 && r.every(([, text]) => /ago|now/.test(text)) && r.some(([, t]) => /result/.test(t)) ? r : undefined;
    });
    assert.deepEqual(
      rows.map(([level, text]) => [level, text.split(' ')[0]]),
      [
        [1, 'Codebase'],
        [2, 'Implementation'],
        [3, 'Implementation'],
      ],
      JSON.stringify(rows),
    );
    // Issue 17: the status comes first in the description (it was last, and cut off at the default side-bar width).
    assert.match(rows[2][1], /^Implementation engineer — result\s*in progress · token auth · .*(ago|now)$/);
    assert.match(rows[1][1], /^Implementation engineer\s*in progress · token auth · .*(ago|now)$/, 'the answered handoff took the result status');
    await screenshot(page, 'timeline-chain');
  });

  it('"Mark Partial" from the context menu renames the file and the tree shows it', async () => {
    const { page } = session;
    const partial = implementerFile.replace(/\.md$/, '.partial.md');
    await runContextMenuItem(page, row(page, /^Implementation engineer\s*in progress · token auth/), 'Mark Partial', async () => existsSync(partial));
    assert.equal(existsSync(implementerFile), false);
    await row(page, /partial/).waitFor({ timeout: 15_000 });
    const rows = await timelineRows(page);
    assert.equal(rows.length, 3, JSON.stringify(rows));
    assert.ok(
      rows.some(([, t]) => /^Implementation engineer\s*partial · token auth · .*(ago|now)$/.test(t)),
      JSON.stringify(rows),
    );
    assert.equal(readdirSync(path.dirname(partial)).filter((f) => f.endsWith('.partial.md')).length, 1);
    await screenshot(page, 'timeline-partial');
  });

  it('hovering an entry shows the rich tooltip: status, hop, summary, tokens and files', async () => {
    const { page } = session;
    const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: /hop 1 \(codebase_explorer\)[\s\S]*test runs/ }).first();
    // A hover shows after the pointer rests on the row; one that another UI element took away is tried again (3 times, 8 s each).
    let shown = false;
    for (let attempt = 0; attempt < 3 && !shown; attempt++) {
      await page.mouse.move(0, 0);
      await page.keyboard.press('Escape');
      await row(page, /^Codebase explorer/)
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
    assert.match(text, /Codebase explorer/);
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
    await row(page, /^Security/).waitFor({ timeout: 20_000 });
    await waitFor(
      'the new root row placed (no longer regrouping)',
      15_000,
      async () => (await timelineRows(page)).filter(([, t]) => /^Security/.test(t)).length === 1,
    );
    HandoverOkSchema.parse(
      await handover(
        { specialist: 'quality_reviewer', topic: 'secrets audit', parent: root.package.id, summary: 'Review the audit.' },
        { workspaceRoot: folder },
      ),
    );
    const reviewer = row(page, /^Quality reviewer/);
    await reviewer.waitFor({ state: 'visible', timeout: 20_000 }).catch(async () => {
      throw new Error(`timed out after 20 s waiting for the new "Quality reviewer" entry to be shown; rows: ${JSON.stringify(await timelineRows(page))}`);
    });
    await waitFor('the new entry selected', 15_000, async () => (await reviewer.getAttribute('aria-selected')) === 'true');
    const rows = await timelineRows(page);
    const at = rows.findIndex(([, t]) => /^Quality reviewer/.test(t));
    assert.ok(at > 0 && /^Security/.test(rows[at - 1][1]) && rows[at][0] === rows[at - 1][0] + 1, `nested right under its parent: ${JSON.stringify(rows)}`);
    assert.match(rows[at][1], /^Quality reviewer\s*pending · secrets audit · /, JSON.stringify(rows));
    await screenshot(page, 'timeline-revealed');
  });
});
