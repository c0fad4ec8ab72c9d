/**
 * Debian's Chromium driven by playwright-core (which downloads no browser), with the
 * flags this closed network needs (no background networking, no component updates)
 * and a fresh user-data folder per launch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { HOST_HOME } from './install';

/** Chromium executable (Debian package `chromium`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A launched browser with one page; `close()` removes its profile. */
export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Launches headless Chromium at 1400×900 (or the given size). */
export async function launchBrowser(viewport = { width: 1400, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'handoff-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    env: { ...process.env, HOME: HOST_HOME },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
