// Real headless Chromium for the page tests (Debian's chromium through playwright-core). A missing
// browser fails the tests with the command that installs it (`npm run setup` does): never a skip.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { REPO } from './cli.ts';

export const CHROMIUM = '/usr/bin/chromium';
/** Where the tests leave their screenshots for a reviewer. */
export const SHOTS = join(REPO, 'test-output', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run \`npm run setup\` (or apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    // launch() gives a fresh temporary profile; nothing phones home
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * One browser for the calling test file (or `describe`): launched before its tests, closed after them.
 * Call it where hooks are registered, not inside a test; the getter is for the tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('no browser: useBrowser() runs its launch in beforeAll, before the tests');
    return browser;
  };
}

export interface Opened {
  page: Page;
  dialogs: string[];
  /** Every request the page tried other than the page itself (and, served, the pages it links to). */
  foreign: string[];
  errors: string[];
}

/** Opens a file (or a loopback URL) at 1280×800, recording dialogs, foreign requests and errors. */
export async function openPage(
  browser: Browser,
  target: string,
  opts: { allow?: (url: string) => boolean } = {},
): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const url = target.startsWith('http') ? target : pathToFileURL(target).href;
  const out: Opened = { page, dialogs: [], foreign: [], errors: [] };
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u.split('#')[0] === url.split('#')[0] || opts.allow?.(u)) return route.continue();
    out.foreign.push(u);
    return route.abort();
  });
  page.on('dialog', (d) => {
    out.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => out.errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && out.errors.push(m.text()));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
  return out;
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
