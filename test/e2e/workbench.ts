/**
 * Helpers for UI tests: open the workbench on a folder, drive the command palette,
 * quick picks and input boxes, reach the webview (two iframes deep), and take
 * screenshots — on failure into test-results/<host>/, named ones on success into
 * test-results/screenshots/<host>/ (the README's pictures are copied from there into media/).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../host/browser';
import { startCodeServer, type RunningServer, type ServerOptions } from '../host/codeServer';
import { HOST, REPO_ROOT } from '../host/install';

/** Extension id as `publisher.name`, used to find its webview among others. */
export const EXTENSION_ID = 'specialist-handoff.specialist-handoff';
/** The packaged extension the UI tests install (built by `npm run package`). */
export const VSIX = path.join(REPO_ROOT, 'specialist-handoff.vsix');
const RESULTS = path.join(REPO_ROOT, 'test-results');

/** A server, a browser and the workbench page on one folder. */
export interface Session {
  readonly server: RunningServer;
  readonly browser: Browser;
  readonly page: Page;
  readonly folder: string;
  close(failed: boolean): Promise<void>;
}

/** Starts a server with the packaged extension installed and opens `folder` in the workbench. */
export async function openWorkbench(folder: string, options: Omit<ServerOptions, 'vsix'>, viewport?: { width: number; height: number }): Promise<Session> {
  const server = await startCodeServer({ ...options, vsix: VSIX });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser(viewport);
    const page = browser.page;
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`, { waitUntil: 'domcontentloaded' });
    await page
      .locator('.monaco-workbench')
      .waitFor({ timeout: 60_000 })
      .catch(() => {
        throw new Error('timed out after 60 s waiting for the workbench (.monaco-workbench)');
      });
    await activityBarItem(page)
      .waitFor({ timeout: 60_000 })
      .catch(() => {
        throw new Error('timed out after 60 s waiting for the "Handoff" activity-bar icon: the extension did not contribute its view container');
      });
    const b = browser;
    return {
      server,
      browser: b,
      page,
      folder,
      close: async (failed: boolean) => {
        if (failed) {
          server.keepLogs(`UI test failed in ${options.name}`);
        }
        await b.close();
        await server.stop();
      },
    };
  } catch (err) {
    server.keepLogs(String(err));
    await browser?.close();
    await server.stop();
    throw err;
  }
}

/** The Handoff icon in the activity bar. */
export function activityBarItem(page: Page): Locator {
  return page.locator('.part.activitybar .action-item a[aria-label^="Handoff"]').first();
}

/** The "Hand over" webview's content frame (two iframes deep, outside .part.sidebar). */
export function handOverFrame(page: Page): FrameLocator {
  return page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).frameLocator('iframe#active-frame');
}

/** Runs a command by its palette title: F1, type, pick the row, Enter. */
export async function runCommand(page: Page, title: string): Promise<void> {
  // A quick input still closing (Escape on another one a moment before) can take the typed title: the palette is
  // opened again, up to three times, before the command counts as missing.
  for (let round = 0; ; round++) {
    await openPalette(page);
    await page.keyboard.type(title);
    const found = await page
      .locator('.quick-input-list .monaco-list-row', { hasText: title })
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    if (found) break;
    if (round >= 2) throw new Error(`timed out after 3 tries of 15 s waiting for the command "${title}" in the command palette`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
  }
  await page.keyboard.press('Enter');
}

/** F1 until the command palette's input is open. */
async function openPalette(page: Page): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await page.waitForTimeout(200);
      if (await input.isVisible()) break;
    } catch (err) {
      if (attempt > 5) throw new Error(`the command palette did not open after ${attempt + 1} presses of F1`, { cause: err });
    }
  }
}

/** Waits until the quick input shows `text` (in its title, prompt, placeholder or rows). */
export async function waitForQuickInput(page: Page, text: string | RegExp, what: string, ms = 30_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const deadline = Date.now() + ms;
  for (;;) {
    if (await widget.isVisible()) {
      const placeholder =
        (await page
          .locator('.quick-input-widget input.input')
          .getAttribute('placeholder')
          .catch(() => '')) ?? '';
      const all = `${await widget.innerText().catch(() => '')}\n${placeholder}`;
      if (typeof text === 'string' ? all.includes(text) : text.test(all)) {
        return;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting for ${what} (quick input showing "${text}")`);
    }
    await page.waitForTimeout(150);
  }
}

/** Types into the visible quick input and presses Enter. */
export async function typeAndEnter(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  await input.fill(text);
  await page.waitForTimeout(100);
  await page.keyboard.press('Enter');
}

/**
 * Saves a screenshot to test-results/screenshots/<host>/<name>.png (or
 * test-results/<host>/<name>.png for failures; host = `minimum` or `current`,
 * test/host/hosts.ts), of the whole page or of `clip` (CSS pixels).
 */
export async function screenshot(page: Page, name: string, failure = false, clip?: { x: number; y: number; width: number; height: number }): Promise<string> {
  const dir = failure ? path.join(RESULTS, HOST.id) : path.join(RESULTS, 'screenshots', HOST.id);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.png`);
  await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
  return file;
}

/** The notification toast (bottom right) whose text holds `text`. */
export function notificationToast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notification-toast', { hasText: text }).first();
}

/** Clears every notification ("Notifications: Clear All Notifications"), so later ones are not hidden behind it. */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Clear All Notifications');
  await page
    .locator('.notification-toast')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/**
 * Runs `label` from the context menu of a tree row and waits until `done` resolves to
 * true (within `doneMs`, milliseconds). The workbench closes an open context menu when
 * the tree redraws the row (a status change, a watcher's refresh) and sometimes leaves
 * it open without running a clicked item (seen on 1.99 under CI load), so the item is
 * chosen by keyboard (hover focuses it, Enter runs it) and the menu is opened again,
 * `attempts` times in all, until `done`. Throws the last attempt's error, naming `label`.
 */
export async function runContextMenuItem(
  page: Page,
  target: Locator,
  label: string,
  done: () => Promise<boolean>,
  { attempts = 4, doneMs = 10_000 } = {},
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // Nothing left open from before (a quick input, a context menu, a hover).
    await page.keyboard.press('Escape');
    try {
      await target.click({ button: 'right' });
      await page.locator('.context-view .monaco-menu a.action-menu-item', { hasText: label }).first().hover({ timeout: 5000 });
      await page.keyboard.press('Enter');
      const deadline = Date.now() + doneMs;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`"${label}" from the context menu had no effect within ${doneMs} ms`);
        await page.waitForTimeout(150);
      }
      return;
    } catch (err) {
      if (attempt >= attempts) throw new Error(`after ${attempts} tries of "${label}" from the context menu: ${(err as Error).message}`, { cause: err });
      await page.mouse.move(0, 0);
      await page.waitForTimeout(1000);
    }
  }
}
