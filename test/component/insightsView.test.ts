/**
 * The "Handoff Insights" webview (issue 21) in a real browser (Debian's Chromium through
 * playwright-core, as the UI tests): the bundle built as it ships (esbuild.mjs's
 * insightsWebviewBuild), the page under the panel's CSP (default-src 'none', the script by
 * nonce, styles only from the webview's origin), `acquireVsCodeApi` recording what the page
 * posts. It checks that the page shows the figures it is sent — exactly, in a real table, with
 * charts whose accessible names say their numbers — that the period picker asks the host over
 * the protocol, the empty, untrusted and no-folder states, and that nothing breaks the CSP.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { InsightsShowSchema, InsightsToHostSchema, type InsightsShow } from '../../src/core/panel/insightsProtocol';
import { SAMPLE } from '../helpers/insightsSample';

const ROOT = path.resolve(__dirname, '..', '..');
const ORIGIN = 'https://insights.webview.test';
const NONCE = 'dGVzdC1ub25jZQ==';

const LABELS = [
  { id: 'implementation_engineer', label: 'Implementation engineer', icon: 'tools' },
  { id: 'quality_reviewer', label: 'Quality reviewer', icon: 'checklist' },
];

/** The test page's window, as the browser code here sees it (the tests compile without the DOM library). */
interface Recorded {
  __posts: unknown[];
  __violations: string[];
  postMessage(message: unknown, target: string): void;
  getComputedStyle(el: unknown): { fill: string };
  document: { activeElement: unknown };
}

function show(over: Partial<InsightsShow> = {}): InsightsShow {
  return InsightsShowSchema.parse({ type: 'show', status: 'ready', period: 'all', insights: SAMPLE, specialists: LABELS, pending_warn_after: '2d', ...over });
}

describe('the Handoff Insights webview in a real browser', function () {
  this.timeout(60_000);
  let dir: string;
  let browser: Browser;
  let page: Page;
  const violations: string[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'handoff-insights-view-'));
    const { insightsWebviewBuild } = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as { insightsWebviewBuild: esbuild.BuildOptions };
    await esbuild.build({ ...insightsWebviewBuild, absWorkingDir: ROOT, outfile: path.join(dir, 'insights.js'), logLevel: 'silent' });
    const files: Record<string, [string, string]> = {
      '/insights.js': [readFileSync(path.join(dir, 'insights.js'), 'utf8'), 'text/javascript'],
      '/insights.css': [readFileSync(path.join(ROOT, 'media', 'insights.css'), 'utf8'), 'text/css'],
      // What VS Code puts on a webview's root: the theme's colours as --vscode-* variables (two of them here).
      '/theme.css': [':root { --vscode-charts-blue: #3794ff; --vscode-foreground: #cccccc; }', 'text/css'],
      // The page of src/vscode/insights/insightsHtml.ts, with the webview's API recorded.
      '/': [
        `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${ORIGIN}; font-src ${ORIGIN}; img-src ${ORIGIN} data:; script-src 'nonce-${NONCE}'">
<link rel="stylesheet" href="${ORIGIN}/theme.css"><link rel="stylesheet" href="${ORIGIN}/insights.css"><title>Handoff Insights</title></head>
<body><main id="app" aria-busy="true"><p class="muted">Loading…</p></main>
<script nonce="${NONCE}">
window.__posts = []; let state;
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posts.push(m), getState: () => state, setState: (s) => { state = s; } });
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.__violations = [];
</script>
<script nonce="${NONCE}" src="${ORIGIN}/insights.js"></script></body></html>`,
        'text/html',
      ],
    };
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('console', (m) => m.type() === 'error' && violations.push(m.text()));
    await page.route(`${ORIGIN}/**`, (route) => {
      const file = files[new URL(route.request().url()).pathname];
      return file ? route.fulfill({ status: 200, contentType: file[1], body: file[0] }) : route.fulfill({ status: 404, body: '' });
    });
  });

  after(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<void> {
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => (globalThis as unknown as Recorded).__posts.length > 0);
  }

  async function post(message: InsightsShow): Promise<void> {
    await page.evaluate((m) => (globalThis as unknown as Recorded).postMessage(m, '*'), message);
  }

  async function posts(): Promise<unknown[]> {
    return page.evaluate(() => (globalThis as unknown as Recorded).__posts);
  }

  it('says ready, then shows exactly the figures it is sent: tiles, a real table, the waiting list, the chains', async () => {
    await open();
    assert.deepEqual(await posts(), [{ type: 'ready' }]);
    await post(show());
    await page.locator('#figures').waitFor();
    assert.equal(await page.locator('h1').innerText(), 'Handoff insights');
    assert.deepEqual(await page.locator('h2').allInnerTexts(), ['Overall', 'Waiting too long (1)', 'By specialist', 'All figures', 'Chains']);
    assert.equal(await page.locator('#overall [data-figure="written"] dd').innerText(), '7');
    assert.equal(await page.locator('#overall [data-figure="median_pickup"] dd').innerText(), '1.5 h');
    assert.equal(await page.locator('#overall [data-figure="median_complete"] dd').innerText(), '26 h');
    // The table: one header row, one row per specialist, the overall row in the footer; every cell is the figure sent.
    const header = await page.locator('#figures thead th').allInnerTexts();
    assert.equal(header[0], 'Specialist');
    assert.equal(await page.locator('#figures thead th[scope="col"]').count(), header.length);
    const rows = await page
      .locator('#figures tbody tr, #figures tfoot tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as unknown as { innerText: string }).innerText)));
    assert.deepEqual(rows, [
      ['Implementation engineer', '4', '3', '1', '1', '1', '0', '1', '1', '0', '2 h', '30 h', '3', '1', '1'],
      ['Quality reviewer', '3', '2', '1', '0', '1', '1', '0', '0', '0', '45 min', '—', '1', '0', '0'],
      ['Overall', '7', '5', '2', '1', '2', '1', '1', '1', '0', '1.5 h', '26 h', '4', '1', '1'],
    ]);
    assert.deepEqual(header, [
      'Specialist',
      'Written',
      'Picked up',
      'Completed',
      'Blocked',
      'Pending',
      'Accepted',
      'In progress',
      'Pending too long',
      'Unanswered too long',
      'Median time to pick up',
      'Median time to complete',
      'Hand-backs',
      'Retries',
      'Tests failing at hand-back',
    ]);
    assert.equal(await page.locator('#figures tbody th[scope="row"]').count(), 2);
    const waiting = await page.locator('#waiting li').allTextContents();
    assert.equal(waiting.length, 1);
    assert.match(
      waiting[0],
      /Warning: Implementation engineer — not picked up for 3\.5 days \(since 2026-11-28 09:00 UTC\) · token-auth · 2026-11-28T09-00-00Z_implementation_engineer/,
    );
    assert.equal(await page.locator('#waiting li .codicon-warning[aria-hidden="true"]').count(), 1);
    const chains = await page.locator('#chains tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { innerText: string }).innerText.split('\t')));
    assert.deepEqual(chains, [
      ['1', '1'],
      ['3', '1'],
    ]);
    assert.equal(await page.locator('#chains caption').innerText(), '2 chains by length');
    assert.match(await page.locator('#depth-limit').innerText(), /^1 reached the depth limit \(handoff\.maxHandoverDepth: 3 hops\); 0 went past it/);
    assert.match(await page.locator('#range').innerText(), /^All time, up to 2026-12-01 20:00 UTC · 11 handoff files read$/);
  });

  it('draws one chart per specialist: an image whose accessible name says its numbers, bars scaled to the largest count', async () => {
    const charts = page.locator('svg.chart');
    assert.equal(await charts.count(), 2);
    assert.equal(await charts.nth(0).getAttribute('role'), 'img');
    assert.equal(await charts.nth(0).getAttribute('aria-label'), 'Implementation engineer: 4 written, 3 picked up, 1 completed, 1 blocked, 1 still pending');
    assert.equal(await charts.nth(1).getAttribute('aria-label'), 'Quality reviewer: 3 written, 2 picked up, 1 completed, 0 blocked, 1 still pending');
    assert.deepEqual(await charts.nth(0).locator('.chart-value').allTextContents(), ['4', '3', '1', '1', '1']);
    // Bars in proportion: 4 of 4 fills the track, 3 of 4 three quarters (rounded to whole units).
    const widths = await charts
      .nth(0)
      .locator('rect.chart-bar')
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
    const track = Number(await charts.nth(0).locator('rect.chart-track').first().getAttribute('width'));
    assert.deepEqual(widths, [track, Math.round((3 / 4) * track), Math.round(track / 4), Math.round(track / 4), Math.round(track / 4)]);
    // Themed by class: the bars take the theme's chart colour, the labels its foreground (the CSS loaded under the CSP).
    assert.equal(
      await charts
        .nth(0)
        .locator('rect.bar-written')
        .evaluate((r) => (globalThis as unknown as Recorded).getComputedStyle(r).fill),
      'rgb(55, 148, 255)',
    );
    assert.equal(
      await charts
        .nth(0)
        .locator('text.chart-label')
        .first()
        .evaluate((r) => (globalThis as unknown as Recorded).getComputedStyle(r).fill),
      'rgb(204, 204, 204)',
    );
    assert.equal(await page.locator('[style]').count(), 0, 'no inline style attribute anywhere');
  });

  it('the period picker is a keyboard radio group that asks the host for the period over the protocol', async () => {
    const radios = page.locator('#period input[type="radio"]');
    assert.deepEqual(await page.locator('#period label').allInnerTexts(), ['All time', 'Last 7 days', 'Last 30 days', 'Last 90 days']);
    assert.equal(await page.locator('#period legend').innerText(), 'Period');
    assert.ok(await radios.nth(0).isChecked());
    await radios.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const sent = (await posts()).slice(1);
    assert.deepEqual(sent, [
      { type: 'setPeriod', period: '7d' },
      { type: 'setPeriod', period: '30d' },
    ]);
    for (const m of sent) assert.ok(InsightsToHostSchema.safeParse(m).success, 'every message the page sends is valid for the host');
    // The host answers 7 days late (stale: dropped), then 30 days: the focus stays on the picker.
    await post(show({ period: '7d', status: 'loading', insights: null }));
    await post(show({ period: '7d', insights: { ...SAMPLE, period: { since: '2026-11-24T20:00:00.000Z', until: SAMPLE.period.until } } }));
    await post(show({ period: '30d', status: 'loading', insights: null }));
    await post(show({ period: '30d', insights: { ...SAMPLE, period: { since: '2026-11-01T20:00:00.000Z', until: SAMPLE.period.until } } }));
    await page.locator('#range', { hasText: '2026-11-01 20:00 UTC to 2026-12-01 20:00 UTC' }).waitFor();
    assert.ok(await page.locator('#period-30d').isChecked(), 'the stale answer for 7 days did not move the picker back');
    assert.equal(await page.evaluate(() => ((globalThis as unknown as Recorded).document.activeElement as { value?: string } | null)?.value), '30d');
  });

  it('an empty period says there are no handoffs yet and offers the timeline', async () => {
    const zero = {
      ...SAMPLE.overall,
      written: 0,
      picked_up: 0,
      pending: 0,
      accepted: 0,
      in_progress: 0,
      completed: 0,
      blocked: 0,
      pending_too_long: 0,
      handbacks: 0,
      retries: 0,
      tests_failing_at_handback: 0,
      median_pickup_ms: null,
      median_complete_ms: null,
    };
    await post(
      show({
        insights: {
          ...SAMPLE,
          overall: zero,
          specialists: [],
          waiting: [],
          chains: { total: 0, by_length: [], reached_depth_limit: 0, past_depth_limit: 0, max_depth: 3 },
          files_read: 0,
        },
      }),
    );
    await page.locator('#empty h2', { hasText: 'No handoffs yet' }).waitFor();
    assert.match(await page.locator('#empty').innerText(), /No handoffs yet in this workspace/);
    assert.equal(await page.locator('#figures').count(), 0);
    await page.locator('#show-timeline').click();
    assert.deepEqual((await posts()).at(-1), { type: 'runCommand', command: 'showTimeline' });
  });

  it('no folder and an untrusted workspace: says why, offers the next action, and hides the picker', async () => {
    await post(show({ status: 'untrusted', insights: null, specialists: [] }));
    await page.locator('h2', { hasText: 'This workspace is not trusted' }).waitFor();
    assert.equal(await page.locator('#period').count(), 0);
    await page.locator('#manage-trust').click();
    assert.deepEqual((await posts()).at(-1), { type: 'runCommand', command: 'manageTrust' });
    await post(show({ status: 'no-folder', insights: null, specialists: [] }));
    await page.locator('h2', { hasText: 'No folder is open' }).waitFor();
    await page.locator('#open-folder').click();
    assert.deepEqual((await posts()).at(-1), { type: 'runCommand', command: 'openFolder' });
  });

  it('drops a message that does not match the protocol, and nothing broke the CSP', async () => {
    await post(show());
    await page.locator('#figures').waitFor();
    await page.evaluate(() =>
      (globalThis as unknown as Recorded).postMessage(
        { type: 'show', status: 'ready', period: 'all', insights: { written: -1 }, specialists: [], pending_warn_after: '2d' },
        '*',
      ),
    );
    await page.waitForTimeout(100);
    assert.equal(await page.locator('#figures').count(), 1, 'the invalid message changed nothing');
    assert.deepEqual(await page.evaluate(() => (globalThis as unknown as Recorded).__violations), []);
    assert.deepEqual(violations, []);
  });
});
