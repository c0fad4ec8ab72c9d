/**
 * UI test of "Handoff: Verify" in the real workbench (issue 18): a handoff whose Claude Code
 * session (a transcript in Claude Code's own JSONL format) recorded `npm test` passing, the
 * test script failing since. From the timeline item's context menu, Verify asks consent in a
 * modal that lists the recorded command; on "Run 1 Command" it runs `npm test` as a task (its
 * terminal shows it), the verification stored records exit code 1 and the verdict
 * contradicted, a notification (not modal) says so with "Open Briefing", and the timeline
 * row shows the error icon in the error colour, the word "contradicted" and, on hover, the
 * verification line. The Hand Over panel's "Verify Latest Handoff…" asks the same consent;
 * "Verify Without Running" runs and stores nothing. Takes the screenshots of the consent and
 * of the timeline's verdict.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDemoRepository } from '../../scripts/demoRepo';
import { parseHandoff } from '../../src/core/handoff/parse';
import { HandoverOkSchema } from '../../src/core/handoff/schema';
import { VerificationSchema } from '../../src/core/receive/verification';
import { handover } from '../../src/engine/handover/handover';
import { waitFor, workspaceDir } from '../host/codeServer';
import { RECORDED_TEST, writeClaudeTestRun } from '../helpers/claudeTestRun';
import {
  activityBarItem,
  clearNotifications,
  handOverFrame,
  notificationToast,
  openWorkbench,
  runContextMenuItem,
  screenshot,
  type Session,
} from './workbench';

function row(page: Page, text: string | RegExp): Locator {
  return page
    .locator('.pane', { has: page.locator('.pane-header', { hasText: /Handoff timeline/i }) })
    .locator('.monaco-list-row', { hasText: text })
    .first();
}

/** Screenshot of the side bar and the panel below it (the task's terminal). */
async function sideShot(page: Page, name: string): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'the side bar is visible');
  await screenshot(page, name, false, { x: 0, y: 0, width: Math.min(1400, box.x + box.width + 520), height: box.y + box.height });
}

describe('UI: Handoff: Verify re-runs the recorded test as a task and the timeline shows the verdict (issue 18)', function () {
  let session: Session;
  let folder: string;
  let handoffId: string;
  let failed = false;

  before(async () => {
    const root = workspaceDir('verify');
    folder = path.join(root, 'todo-api');
    createDemoRepository(folder);
    // The session that recorded the run: Claude Code's transcript where Claude Code keeps it.
    const claudeConfig = mkdtempSync(path.join(root, 'claude-'));
    writeClaudeTestRun(path.join(claudeConfig, 'projects'), folder);
    const written = HandoverOkSchema.parse(
      await handover(
        { specialist: 'quality_reviewer', topic: 'done items', summary: 'formatTodo marks done items; all tests pass.', next_steps: ['Review formatTodo'] },
        { workspaceRoot: folder, sessionLog: { mode: 'auto', sources: ['claude-code'], locations: { 'claude-code': path.join(claudeConfig, 'projects') } } },
      ),
    );
    handoffId = written.package.id;
    const parsed = parseHandoff(readFileSync(written.handoff_file, 'utf8'));
    assert.ok(parsed.ok);
    assert.match(parsed.handoff.sections.get('Tests run') ?? '', /npm test/, 'the handoff recorded the passing run');
    // Since the handoff, the test script fails.
    const pkgFile = path.join(folder, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { scripts: Record<string, string> };
    pkg.scripts.test = `node -e "console.error('1 failing: formatTodo marks done items'); process.exit(1)"`;
    writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
    session = await openWorkbench(folder, { name: 'verify', settings: { 'workbench.colorTheme': 'Default Dark Modern' } }, { width: 1400, height: 1000 });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(session.page, `failure-verify-${this.currentTest.title}`, true).catch(() => undefined);
    }
  });

  after(async () => {
    await session?.close(failed);
  });

  it('asks consent listing `npm test`, runs it as a task, and the timeline row shows contradicted', async () => {
    const { page } = session;
    await activityBarItem(page).click();
    // The topic is the label; the status, then the specialist, start the description.
    const item = row(page, /^done items\s*pending · Quality reviewer · /);
    await item.waitFor({ timeout: 30_000 });
    // Collapse the Hand Over view, so the row's context menu does not open over the webview's frame (see continue.test.ts).
    const handOver = page.locator('.pane-header', { hasText: /^\s*Hand Over\s*$/i }).first();
    if ((await handOver.getAttribute('aria-expanded')) === 'true') await handOver.click();

    // Consent: a modal listing the recorded command and what it did at handoff.
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Verify the handoff' });
    await runContextMenuItem(page, item, 'Verify…', () => dialog.isVisible(), { attempts: 6, doneMs: 8000 });
    const asked = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.match(asked, /Verify the handoff to Quality reviewer \(/, asked);
    assert.match(asked, /npm test — test, in the workspace folder; passed at handoff \(exit code 0\)/, asked);
    assert.match(asked, /handoff\.verify\.timeoutSeconds/, asked);
    await screenshot(page, 'verify-consent');
    await dialog.locator('.monaco-button', { hasText: 'Run 1 Command' }).click();

    // The result: a notification (not a modal) with "Open Briefing".
    const toast = notificationToast(page, /contradicted/);
    await toast.waitFor({ timeout: 120_000 });
    const said = (await toast.innerText()).replace(/\s+/g, ' ');
    assert.match(said, /`?npm test`? passed at handoff, fails now/, said);
    assert.equal(await toast.locator('.monaco-button', { hasText: 'Open Briefing' }).count(), 1, 'the Open Briefing action');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'not a modal');

    // The task ran `npm test`: its terminal is named after it, and the stored verification has its exit code.
    await page.locator('.part.panel', { hasText: RECORDED_TEST }).first().waitFor({ timeout: 15_000 });
    const dir = path.join(folder, '.handoff', 'verifications', handoffId);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.equal(files.length, 1, 'one verification stored');
    const v = VerificationSchema.parse(JSON.parse(readFileSync(path.join(dir, files[0]), 'utf8')));
    const recheck = v.rechecks.find((r) => r.command === RECORDED_TEST);
    assert.ok(recheck, JSON.stringify(v.rechecks));
    assert.equal(recheck.now?.exit_code, 1, 'the task exited 1');
    assert.equal(recheck.verdict, 'contradicted');

    // The timeline row: the error icon in the error colour, and the word.
    const verdictRow = row(page, /^done items\s*pending · contradicted · Quality reviewer · /);
    await verdictRow.waitFor({ timeout: 20_000 });
    const icon = verdictRow.locator('.custom-view-tree-node-item-icon, .codicon').first();
    assert.match((await icon.getAttribute('class')) ?? '', /codicon-error/, 'the error icon');
    // The icon's colour against the theme's errorForeground, both resolved by the browser.
    const [colour, errorColour] = await icon.evaluate((el) => {
      const doc = el.ownerDocument;
      const probe = doc.createElement('span');
      probe.style.color = 'var(--vscode-errorForeground)';
      el.append(probe);
      const want = doc.defaultView?.getComputedStyle(probe).color ?? '';
      probe.remove();
      return [doc.defaultView?.getComputedStyle(el).color ?? '', want];
    });
    assert.ok(errorColour, 'the theme has an error colour');
    assert.equal(colour, errorColour, 'drawn in the error colour');

    // Hover: the verification line ends the tooltip.
    const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: /Checked at/ }).first();
    const shown = await waitFor('the tooltip with the verification line', 30_000, async () => {
      await page.mouse.move(0, 0);
      await verdictRow.locator('.label-name').first().hover();
      return hover.waitFor({ state: 'visible', timeout: 8_000 }).then(
        () => true,
        () => undefined,
      );
    });
    assert.ok(shown);
    const tip = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(tip, /Checked at .*1 contradicted/, tip);
    assert.match(tip, /npm test passed at handoff, fails now/, tip);
    await page.waitForTimeout(300);
    await sideShot(page, 'timeline-verified');
    await page.mouse.move(0, 0);
  });

  it('the Hand Over panel offers Verify for the latest handoff; "Verify Without Running" runs nothing', async () => {
    const { page } = session;
    await clearNotifications(page);
    const handOver = page.locator('.pane-header', { hasText: /^\s*Hand Over\s*$/i }).first();
    if ((await handOver.getAttribute('aria-expanded')) !== 'true') await handOver.click();
    const frame = handOverFrame(page);
    const button = frame.locator('#verify-latest');
    await button.waitFor({ state: 'attached', timeout: 60_000 }).catch(async (err: unknown) => {
      throw new Error(
        `no #verify-latest in the panel; #chain holds: ${await frame
          .locator('#chain')
          .innerHTML()
          .catch(() => '(no #chain)')}; #evidence says: ${(
          await frame
            .locator('#evidence')
            .innerText()
            .catch(() => '(no #evidence)')
        ).slice(0, 600)}`,
        { cause: err },
      );
    });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Verify the handoff to Quality reviewer' });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.locator('.monaco-button', { hasText: 'Verify Without Running' }).click();
    const toast = notificationToast(page, /not run/);
    await toast.waitFor({ timeout: 60_000 });
    assert.match((await toast.innerText()).replace(/\s+/g, ' '), /1 not run/);
    const dir = path.join(folder, '.handoff', 'verifications', handoffId);
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json')).length, 1, 'nothing stored without running: still the one verification');
  });
});
