/**
 * UI tests in the real workbench: the Handoff activity-bar icon, both views, the
 * end-of-session command driven through the command palette, its quick pick and input
 * boxes, and the timeline listing the result. The workspace is a git repository with
 * real changes (the demo repository). The extension under test is the packaged .vsix as a
 * user installs it (`code-server --install-extension`, test/host/codeServer.ts): the first
 * test checks that the running copy is that installed folder, holding exactly what
 * `vsce ls` lists, and not a development path.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { createDemoRepository } from '../../scripts/demoRepo';
import { parseHandoff, parseTouchedFiles } from '../../src/core/handoff/parse';
import { extensionHostLogs, waitFor, workspaceDir } from '../host/codeServer';
import { REPO_ROOT } from '../host/install';
import { filesUnder, rawGitView } from '../helpers/repo';
import {
  activityBarItem,
  clearNotifications,
  handOverFrame,
  notificationToast,
  openWorkbench,
  runCommand,
  screenshot,
  typeAndEnter,
  waitForQuickInput,
  type Session,
} from './workbench';

describe('UI: hand over from the workbench', function () {
  let session: Session;
  let folder: string;
  let failed = false;

  before(async () => {
    folder = path.join(workspaceDir('ui'), 'todo-api');
    createDemoRepository(folder);
    session = await openWorkbench(folder, { name: 'ui' });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('runs the extension installed from the packaged .vsix: its folder holds what vsce ls lists, and the copy running is that folder', async () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    const installed = path.join(path.dirname(session.server.userDataDir), 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`);
    assert.ok(existsSync(installed), `code-server installed the .vsix into ${installed}`);
    // vsce stores the README and changelog in lower case and the licence as LICENSE.txt.
    const asPackaged = (f: string) =>
      (({ 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' }) as Record<string, string>)[f] ?? f;
    const listed = execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(asPackaged)
      .sort();
    // What the install adds beside the package's files: VS Code's own record of the package.
    const files = filesUnder(installed)
      .map((f) => path.relative(installed, f.file).split(path.sep).join('/'))
      .filter((f) => f !== '.vsixmanifest')
      .sort();
    assert.deepEqual(files, listed, 'the installed folder holds exactly the packaged files');
    const line = await waitFor('the extension to say which copy runs', 60_000, () =>
      extensionHostLogs(session.server.userDataDir)
        .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
        .find((l) => l.includes('Specialist Handoff') && l.includes(' running from ')),
    );
    const running = /running from (.+) \((installed|development|test)\)$/.exec(line);
    assert.ok(running, line);
    assert.equal(running[2], 'installed', 'VS Code runs it as an installed extension (ExtensionMode.Production)');
    assert.equal(realpathSync(running[1]), realpathSync(installed), 'the copy running is the installed folder, not the repository');
  });

  it('the Handoff icon opens the container with the "Hand over" view and the timeline', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    await page
      .locator('.pane-header', { hasText: /Hand over/i })
      .first()
      .waitFor({ timeout: 20_000 });
    await page
      .locator('.pane-header', { hasText: /Handoff timeline/i })
      .first()
      .waitFor({ timeout: 20_000 });
    await handOverFrame(page).locator('#specialist').waitFor({ timeout: 30_000 });
    const welcome = page.locator('.welcome-view-content', { hasText: 'No handoffs yet' }).first();
    await welcome.waitFor({ timeout: 20_000 });
    // Issue 17: one primary action in the container (the panel's): the empty timeline links to it, with no second button.
    assert.equal(await welcome.locator('.monaco-button').count(), 0, 'no button in the empty timeline');
    assert.equal(await welcome.locator('a', { hasText: /^Hand Over$/ }).count(), 1, 'an inline link to the panel');
    // Issue 17: the headers as drawn (1.139 capitalizes every word of a view header: "Hand Over to Specialist" read "… To …").
    const headers = (await page.locator('.pane-header .title').allInnerTexts()).map((t) => t.trim());
    for (const name of ['Hand Over', 'Handoff Timeline']) {
      assert.ok(
        headers.some((h) => h.toLowerCase() === name.toLowerCase()),
        `a "${name}" header: ${JSON.stringify(headers)}`,
      );
    }
    assert.deepEqual(
      headers.filter((h) => /^hand over|^handoff timeline/i.test(h) && h !== h.toUpperCase() && !['Hand Over', 'Handoff Timeline'].includes(h)),
      [],
      'the headers read as named',
    );
    await screenshot(page, 'sidebar-empty');
  });

  it('"Handoff: End Session and Hand Over…" from the command palette writes a handoff that matches git', async () => {
    const { page } = session;
    const git = rawGitView(folder);
    await runCommand(page, 'Handoff: End Session and Hand Over');
    await waitForQuickInput(page, 'Hand over to which specialist?', 'the specialist quick pick');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Quality reviewer' }).first().waitFor({ timeout: 10_000 });
    await screenshot(page, 'palette-specialists');
    // Issue 17: a row names the specialist once (no persona marker, no raw id) and its text fits.
    const reviewer = (await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Quality reviewer' }).first().innerText()).replace(/\s+/g, ' ');
    assert.doesNotMatch(reviewer, /\[quality reviewer\]|quality_reviewer/, `the row repeats the marker or the id: ${reviewer}`);
    const cut = await page
      .locator('.quick-input-list .monaco-list-row')
      .evaluateAll((rows) =>
        rows.flatMap((r) =>
          [...r.querySelectorAll('*')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 && ['hidden', 'clip'].includes(e.ownerDocument.defaultView?.getComputedStyle(e).overflowX ?? ''))
            .map((e) => e.textContent ?? ''),
        ),
      );
    assert.deepEqual(cut, [], 'no text of a specialist row is cut off');
    await typeAndEnter(page, 'quality reviewer');
    await waitForQuickInput(page, 'Topic:', 'the topic input box');
    await typeAndEnter(page, 'UI handover check');
    await waitForQuickInput(page, 'Summary:', 'the summary input box');
    await typeAndEnter(page, 'Summary typed in the workbench.');
    await waitForQuickInput(page, 'No decisions yet', 'the decisions input box');
    const hints = ((await page.locator('.quick-input-widget').innerText()).match(/press '?enter'?/gi) ?? []).length;
    assert.ok(hints <= 1, `one "press Enter" hint (VS Code's own), not ${hints}`);
    await typeAndEnter(page, 'Decision typed in the workbench');
    await waitForQuickInput(page, 'Added 1', 'the decision to be added');
    await typeAndEnter(page, '');
    await waitForQuickInput(page, 'No next steps yet', 'the next-steps input box');
    await typeAndEnter(page, 'Next step typed in the workbench');
    await waitForQuickInput(page, 'Added 1', 'the next step to be added');
    await typeAndEnter(page, '');
    await waitForQuickInput(page, 'No blockers yet', 'the blockers input box');
    await typeAndEnter(page, '');
    await waitForQuickInput(page, /Touched files \(\d+\)/, 'the confirmation with touched files');
    await waitForQuickInput(page, /[\d,]+ \/ 3,000 tokens/, 'the token estimate against the budget');
    await screenshot(page, 'palette-confirm');
    assert.equal(existsSync(path.join(folder, '.handoff')), false, 'nothing is written before the confirmation');
    await page.keyboard.press('Enter');
    // The summary is a notification with the next moves (issue 17: no longer a modal dialog), and the handoff opens rendered.
    const toast = notificationToast(page, 'Handed over to [quality reviewer]');
    await toast.waitFor({ timeout: 30_000 });
    assert.match(await toast.innerText(), /Tokens: [\d,]+ \/ 3,000/);
    // Two actions (issue 17: four squeezed the toast's "Source: …" label to "S…"); Continue in… offers Copy prompt, and the preview is open.
    for (const action of ['Continue in…', 'Open Briefing']) {
      await toast.locator('.monaco-button', { hasText: action }).first().waitFor({ timeout: 5000 });
    }
    assert.equal(await toast.locator('.monaco-button').count(), 2, 'two actions');
    // Issue 17: nothing in the toast's last row is cut off (on 1.139 the buttons squeezed the "Source: …" label to "S…").
    const row = await toast.evaluate((t) =>
      [...t.querySelectorAll('.notification-list-item-source, .notification-list-item-buttons-container .monaco-button')].map((e) => ({
        text: (e.textContent ?? '').trim(),
        cut: e.scrollWidth > e.clientWidth + 1,
        width: Math.round(e.getBoundingClientRect().width),
        scroll: e.scrollWidth,
      })),
    );
    console.log(`    notification row: ${row.map((e) => `${e.text} ${e.width}px/${e.scroll}px`).join(' | ')}`);
    assert.deepEqual(
      row.filter((e) => e.cut).map((e) => e.text),
      [],
      'every label of the notification shows whole',
    );
    await page
      .locator('.tabs-container .tab', { hasText: /Preview.*_quality_reviewer\.md/ })
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(async () => {
        const tabs = await page.locator('.tabs-container .tab').allInnerTexts();
        await screenshot(page, 'handoff-summary-no-preview');
        throw new Error(`the handoff's Markdown preview did not open; editor tabs: ${JSON.stringify(tabs)}`);
      });
    // The preview's webview has drawn the handoff (the README's picture showed it still blank).
    const previewFrame = page.frameLocator('iframe.webview.ready[src*="extensionId=vscode.markdown-language-features"]').frameLocator('iframe#active-frame');
    await previewFrame
      .locator('h2', { hasText: 'Summary' })
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => {
        throw new Error("timed out after 30 s waiting for the handoff's Markdown preview to draw its Summary heading");
      });
    // Issue 17: the human sections, not the frontmatter (1.139 draws frontmatter as a table of ~50 rows by default).
    assert.equal(
      await previewFrame.locator('td, th', { hasText: /^(correlation_id|diff_hash|session_id)$/ }).count(),
      0,
      'the preview shows no frontmatter table',
    );
    assert.equal((await previewFrame.locator('h1').count()) > 0, true, "the preview shows the handoff's title");
    await screenshot(page, 'handoff-summary');
    await clearNotifications(page);

    const dir = path.join(folder, '.handoff', 'handoffs');
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    const parsed = parseHandoff(readFileSync(path.join(dir, files[0]), 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.handoff.frontmatter.specialist, 'quality_reviewer');
    assert.equal(parsed.handoff.frontmatter.topic, 'ui-handover-check');
    assert.match(parsed.handoff.sections.get('Summary') ?? '', /Summary typed in the workbench\./);
    assert.match(parsed.handoff.sections.get('Decisions') ?? '', /\*\*D1\*\* Decision typed in the workbench/);
    assert.match(parsed.handoff.sections.get('Next steps') ?? '', /1\. Next step typed in the workbench/);
    const listed = parseTouchedFiles(parsed.handoff.sections.get('Touched files') ?? '');
    assert.deepEqual(
      listed.map((f) => [f.path, f.old_path, f.added, f.deleted]),
      git.map((g) => [g.path, g.orig, g.added, g.deleted]),
    );
    const briefings = readdirSync(path.join(folder, '.handoff', 'briefings'));
    // One briefing folder per specialist, topic and day, one file per section (docs/DESIGN.md §5).
    assert.deepEqual(
      briefings.filter((b) => !b.startsWith('.')),
      [`quality-reviewer-ui-handover-check-${parsed.handoff.frontmatter.created.slice(0, 10)}`],
    );
    assert.deepEqual(readdirSync(path.join(folder, '.handoff', 'briefings', briefings.filter((b) => !b.startsWith('.'))[0])), [files[0]]);
    await page.locator('.tab', { hasText: files[0] }).first().waitFor({ timeout: 15_000 });
  });

  it('the timeline lists the new handoff', async () => {
    const { page } = session;
    // The topic is the label; the status, then the specialist, start the description.
    const row = page
      .locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) })
      .locator('.monaco-list-row', { hasText: /^UI handover check\s*pending · Quality reviewer · (now|\d+ seconds? ago)$/ });
    await row
      .first()
      .waitFor({ timeout: 20_000 })
      .catch(() => {
        throw new Error('timed out after 20 s waiting for the "Quality reviewer" row in the Handoff timeline');
      });
    await screenshot(page, 'timeline-one-handoff');
  });

  it('the "Hand over" panel collects the evidence again after the palette handoff and offers to continue its chain', async () => {
    const { page } = session;
    const frame = handOverFrame(page);
    await frame.locator('#chain', { hasText: 'Continue the chain of the latest handoff (to Quality reviewer, hop 1)' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'sidebar-one-handoff');
  });
});
