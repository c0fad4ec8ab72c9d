/**
 * Activation rows of `npm run bench`, measured in the real extension host (code-server,
 * VS Code 1.99.3, driven by Chromium as in the UI tests):
 *
 * - activate() entry to return, and activate() entry to the first resolve of the
 *   "Hand over" view, as the extension logs them (performance.now(), in milliseconds),
 *   on window reloads with the Handoff view container open — the startup a user gets;
 * - the baseline: a reference extension with nothing in it but a log channel and one
 *   webview view (built and packaged here, in a temporary folder), measured the same way
 *   in the same server. Its figures are the host's own floor.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createDemoRepository } from '../scripts/demoRepo';
import { CHROMIUM, launchBrowser } from '../test/host/browser';
import { startCodeServer, waitFor, workspaceDir } from '../test/host/codeServer';
import { ensureCodeServer, REPO_ROOT } from '../test/host/install';

/** One measured figure: ours and the baseline, in milliseconds. */
export interface ActivationRow {
  readonly name: string;
  readonly ours: number;
  readonly baseline: number;
  readonly note?: string;
}

const REFERENCE_ID = 'bench-reference.bench-reference';

/** The reference extension: a log channel and one webview view, timed like ours. */
function referenceExtension(dir: string): string {
  mkdirSync(path.join(dir, 'media'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'bench-reference',
        publisher: 'bench-reference',
        displayName: 'Bench reference',
        description: 'The floor an extension with one webview view pays in this host.',
        version: '0.0.1',
        license: 'MIT',
        repository: 'https://example.invalid/bench-reference',
        engines: { vscode: '^1.99.0' },
        main: './extension.js',
        activationEvents: ['onStartupFinished'],
        contributes: {
          viewsContainers: { activitybar: [{ id: 'benchReference', title: 'Bench reference', icon: 'media/icon.svg' }] },
          views: { benchReference: [{ type: 'webview', id: 'benchReference.view', name: 'Reference' }] },
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(path.join(dir, 'media', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="8" fill="currentColor"/></svg>\n');
  writeFileSync(path.join(dir, 'README.md'), '# Bench reference\n');
  writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(
    path.join(dir, 'extension.js'),
    `const vscode = require('vscode');
exports.activate = (context) => {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Bench reference', { log: true });
  let resolved = false;
  context.subscriptions.push(
    log,
    vscode.window.registerWebviewViewProvider('benchReference.view', {
      resolveWebviewView(view) {
        if (!resolved) log.info('first "Reference" view resolved ' + (performance.now() - started).toFixed(1) + ' ms after activate() entry');
        resolved = true;
        view.webview.html = '<p>reference</p>';
      },
    }),
  );
  log.info('activated in ' + (performance.now() - started).toFixed(1) + ' ms');
};
exports.deactivate = () => {};
`,
  );
  const vsix = path.join(dir, 'bench-reference.vsix');
  execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '-o', vsix], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  return vsix;
}

/** The newest log file of an extension in this server's logs (each reload starts a new exthost folder). */
function newestLog(userDataDir: string, extensionId: string): string | undefined {
  const found: Array<{ file: string; mtime: number }> = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes(`${path.sep}${extensionId}${path.sep}`) && e.name.endsWith('.log')) found.push({ file: p, mtime: statSync(p).mtimeMs });
    }
  };
  walk(path.join(userDataDir, 'logs'));
  return found.sort((a, b) => b.mtime - a.mtime)[0]?.file;
}

/** Reads "activated in X ms" and "first … view resolved Y ms after activate() entry" from a log. */
function readTimes(file: string | undefined): { activate: number; resolve: number } | undefined {
  if (!file) return undefined;
  const text = readFileSync(file, 'utf8');
  const a = /activated in ([\d.]+) ms/.exec(text);
  const r = /view resolved ([\d.]+) ms after activate\(\) entry/.exec(text);
  return a && r ? { activate: Number(a[1]), resolve: Number(r[1]) } : undefined;
}

async function reloadAndRead(page: Page, userDataDir: string, extensionId: string, previous: string | undefined): Promise<{ activate: number; resolve: number }> {
  await page.reload({ waitUntil: 'domcontentloaded' });
  return waitFor(`${extensionId} to log its activation and first view resolve after a reload`, 90_000, () => {
    const file = newestLog(userDataDir, extensionId);
    return file && file !== previous ? readTimes(file) : undefined;
  }, 300);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Measures activation in the real host: `runs` reloads with our view container open,
 * then `runs` with the reference extension's, medians of each.
 * @param say progress lines (stderr)
 * @returns the rows, or a reason why they could not be measured on this machine
 */
export async function activationRows(say: (line: string) => void, runs = 3): Promise<ActivationRow[] | { skipped: string }> {
  try {
    statSync(CHROMIUM);
  } catch {
    return { skipped: `Chromium is missing at ${CHROMIUM}: run "sudo bash scripts/system-packages.sh" to measure activation in the real host` };
  }
  const ours = path.join(REPO_ROOT, 'specialist-handoff.vsix');
  try {
    statSync(ours);
  } catch {
    return { skipped: 'specialist-handoff.vsix is missing: run "npm run package" first (npm run bench does)' };
  }
  say("installing code-server if this machine has not got it yet (first run only) …");
  ensureCodeServer();
  const tmp = mkdtempSync(path.join(tmpdir(), 'handoff-bench-activation-'));
  try {
    const reference = referenceExtension(path.join(tmp, 'reference'));
    const folder = path.join(workspaceDir('bench-activation'), 'todo-api');
    createDemoRepository(folder);
    const server = await startCodeServer({ name: 'bench-activation', vsix: ours, extraVsix: [reference] });
    const browser = await launchBrowser();
    try {
      const { page } = browser;
      await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      const measure = async (label: string, extensionId: string): Promise<Array<{ activate: number; resolve: number }>> => {
        const icon = page.locator(`.part.activitybar .action-item a[aria-label^="${label}"]`).first();
        await icon.waitFor({ timeout: 60_000 });
        await icon.click();
        // The container is remembered: every reload now starts with this view open.
        await page.waitForTimeout(1500);
        const out = [];
        let previous = newestLog(server.userDataDir, extensionId);
        for (let i = 0; i < runs; i++) {
          const t = await reloadAndRead(page, server.userDataDir, extensionId, previous);
          previous = newestLog(server.userDataDir, extensionId);
          say(`${label}: activate ${t.activate} ms, first view resolve ${t.resolve} ms after activate() entry`);
          out.push(t);
        }
        return out;
      };
      const handoff = await measure('Handoff', 'specialist-handoff.specialist-handoff');
      const base = await measure('Bench reference', REFERENCE_ID);
      return [
        { name: 'activation: activate() entry to return, real host (vs a reference extension with one webview view)', ours: median(handoff.map((t) => t.activate)), baseline: median(base.map((t) => t.activate)) },
        { name: 'activation: activate() entry to the first view resolve, view open at startup (vs the reference)', ours: median(handoff.map((t) => t.resolve)), baseline: median(base.map((t) => t.resolve)) },
      ];
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
