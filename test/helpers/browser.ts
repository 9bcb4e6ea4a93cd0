import { chromium, type Browser } from 'playwright-core';
import type { FixtureSite } from '../fixtures/sites/index.js';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser-resolver.js';
import { applySessionStorage } from '../../src/client/playwright.js';
import type { StorageState } from '../../src/shared/login.schema.js';

export const TEST_BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** A Chromium for checking results as an agent would (separate from the server's pool). */
export function launchTestBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
}

/**
 * The agent's check: a new browser context from the state opens the protected page logged in
 * (sessionStorage in the state restored as the README says; Playwright's storageState has none).
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
