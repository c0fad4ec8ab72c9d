/**
 * Rasterises the marketplace icon: media/icon.svg → media/icon.png (128×128, as the
 * Visual Studio Marketplace shows it), with Debian's Chromium through playwright-core —
 * offline, no image library. Run: `npx tsx scripts/icon.ts`; commit both files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const MEDIA = path.resolve(__dirname, '..', 'media');

async function main(): Promise<void> {
  const svg = readFileSync(path.join(MEDIA, 'icon.svg'), 'utf8');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: path.join(MEDIA, 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 1;
});
