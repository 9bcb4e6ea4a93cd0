// Real Chromium profiles for the browser-profile import tests: Debian's own `chromium` (not the test browser)
// with a user-data-dir under a temp HOME, its cookies kept by the store the test names (`basic` → v10, or
// `gnome-libsecret` inside scripts/with-keyring.sh → v11), logged in to a fixture site, then closed.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import type { FixtureSite } from '../fixtures/sites/index.js';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export type PasswordStore = 'basic' | 'gnome-libsecret';

/** Debian's chromium reads its user-data-dir from the path; Linux's default is ~/.config/chromium. */
export function chromiumUserDataDir(home: string): string {
  return path.join(home, '.config', 'chromium');
}

/**
 * Starts Debian's chromium on the profile (created if new) with the given password store. Chromium 156 keeps its key
 * in the Secret Service whenever one answers, even with `--password-store=basic`: the basic store (v10) runs without
 * a D-Bus session.
 */
export async function openChromiumProfile(userDataDir: string, store: PasswordStore): Promise<BrowserContext> {
  fs.mkdirSync(userDataDir, { recursive: true });
  const env = { ...process.env } as Record<string, string>;
  if (store === 'basic') delete env.DBUS_SESSION_BUS_ADDRESS;
  return chromium.launchPersistentContext(userDataDir, {
    env,
    executablePath: SYSTEM_CHROMIUM,
    headless: true,
    // Playwright adds --password-store=basic and --use-mock-keychain by default: the store is the test's choice.
    ignoreDefaultArgs: ['--password-store=basic', '--use-mock-keychain'],
    args: [`--password-store=${store}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
  });
}

/**
 * Logs in to the extra-fields fixture site with "Remember me" (a persistent session cookie: Chromium writes only
 * persistent cookies to its `Cookies` file) and keeps a localStorage item on its origin.
 */
export async function logInExtraFields(ctx: BrowserContext, site: FixtureSite): Promise<void> {
  const page = await ctx.newPage();
  await page.goto(site.loginUrl);
  await page.fill('#tenant', site.credentials.additionalFields?.tenant ?? 'acme');
  await page.fill('input[name=email]', site.credentials.username);
  await page.fill('input[name=password]', site.credentials.password);
  await page.check('#remember_me');
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith('/login')),
    page.click('button[type=submit], input[type=submit]'),
  ]);
  await page.getByText(site.loggedInText).first().waitFor({ timeout: 10_000 });
  await page.evaluate(() => localStorage.setItem('agent-studio-test', 'kept ✓'));
  await page.close();
}

/** A closed profile logged in to `site`: the user-data-dir. */
export async function makeLoggedInProfile(
  userDataDir: string,
  store: PasswordStore,
  site: FixtureSite,
): Promise<string> {
  const ctx = await openChromiumProfile(userDataDir, store);
  try {
    await logInExtraFields(ctx, site);
  } finally {
    await ctx.close(); // a clean shutdown flushes the cookie store to disk
  }
  return userDataDir;
}
