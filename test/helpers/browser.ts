import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startSite, type FixtureSite, type SiteName, type SiteOptions } from '../fixtures/sites/index.js';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser/browser-resolver.js';
import { defaultLaunchArgs } from '../../src/main/core/login/browser/chromium-args.js';
import { applySessionStorage } from '../../src/client/playwright.js';
import type { StorageState } from '../../src/shared/login.schema.js';

/**
 * The test browser is the login pool's unsandboxed Chromium without the bot-wall switch (a plain automated browser, as
 * the agents' own checks use): the same quiet and cheap set-up (no omnibox-popup renderer or spare renderer per page, GPU
 * and network service in the browser process), which the suite's CPU time is mostly made of.
 */
export const TEST_BROWSER_ARGS = defaultLaunchArgs({ sandbox: false }).filter(
  (arg) => arg !== '--disable-blink-features=AutomationControlled',
);

/**
 * A Chromium for checking results as an agent would (separate from the server's pool). Chromium now and then dies of
 * SIGSEGV while it starts (about 1 in a few hundred starts on a loaded machine); the server's pool starts it once more
 * then (BrowserPool), and so does this, for the same reason: nothing has happened in it yet.
 */
export async function launchTestBrowser(): Promise<Browser> {
  const launch = () => chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
  return launch().catch(launch);
}

/**
 * The agent's check: a new browser context from the state opens the protected page logged in
 * (sessionStorage in the state restored as docs/login-service.md#full-storage says; Playwright's storageState has none).
 */
export async function opensProtectedPage(browser: Browser, site: FixtureSite, state: unknown): Promise<boolean> {
  const ctx = await browser.newContext({ storageState: state as never });
  try {
    await applySessionStorage(ctx, state as Pick<StorageState, 'origins'>);
    const page = await ctx.newPage();
    await page.goto(site.protectedUrl);
    return await page
      .getByText(site.loggedInText)
      .first()
      .waitFor({ timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
  } finally {
    await ctx.close();
  }
}

/** A fresh fixture site and a fresh browser context (10 s action timeout) for one test; both torn down afterwards. */
export async function withSiteContext(
  browser: Browser,
  name: SiteName,
  fn: (site: FixtureSite, page: Page, context: BrowserContext) => Promise<void>,
  opts?: SiteOptions,
): Promise<void> {
  const site = await startSite(name, opts);
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  try {
    await fn(site, await context.newPage(), context);
  } finally {
    await context.close();
    await site.close();
  }
}

/**
 * For a test file that works on fixture sites: one browser, launched before its tests and closed
 * after them, and `withSite` bound to it.
 */
export function useSiteBrowser(): {
  browser: () => Browser;
  withSite: (
    name: SiteName,
    fn: (site: FixtureSite, page: Page, context: BrowserContext) => Promise<void>,
    opts?: SiteOptions,
  ) => Promise<void>;
} {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchTestBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const launched = (): Browser => {
    if (!browser) throw new Error('the browser is launched in beforeAll');
    return browser;
  };
  return { browser: launched, withSite: (name, fn, opts) => withSiteContext(launched(), name, fn, opts) };
}
