// The "Your browsers" screen end to end: the built renderer in Chromium, every call through the IPC contract to a
// real core (the app's own dispatcher; browserProfiles:list / :import answered by main's profiles channels straight
// through the core, as the person, no API key), a real Chromium profile made by Debian's chromium under a temp HOME
// that logged in to a fixture site on 127.0.0.1, and the real OS keychain (scripts/with-keyring.sh) for a second
// profile whose key the test then makes unreachable. Each state is checked with axe-core in light and dark at
// 1280x800 and at 320 CSS px of content width, and photographed (1280x800 and 640x800, light and dark) into
// test-results/screens/browser-profiles/ for people to look at.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileImports } from '../../src/main/core/login/profiles/index.js';
import { startSite, type FixtureSite } from '../fixtures/sites/index.js';
import { chromiumUserDataDir, makeLoggedInProfile } from '../helpers/chromium-profile.js';
import { tempDir } from '../helpers/temp-dir.js';
import { SHOTS_DIR } from './support/desktop-app.js';
import { axeViolations, overflowsRight, screenshotsAtSizes, setScheme } from './support/layout-audit.js';
import { nav, startRendererHarness, type OpenApp, type RendererHarness } from './support/renderer-harness.js';
import { keyringAvailable } from '../helpers/requires.js';

const SHOTS = path.join(SHOTS_DIR, 'browser-profiles');
const hasKeyring = keyringAvailable();

let h: RendererHarness;
let site: FixtureSite;
let basicHome: string;
let keyringHome: string;

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  site = await startSite('extra-fields');
  basicHome = tempDir('agent-studio-home-basic-');
  keyringHome = tempDir('agent-studio-home-keyring-');
  await makeLoggedInProfile(chromiumUserDataDir(basicHome), 'basic', site);
  if (hasKeyring) await makeLoggedInProfile(chromiumUserDataDir(keyringHome), 'gnome-libsecret', site);
  h = await startRendererHarness({ browserProfiles: { roots: [basicHome, keyringHome] } });
}, 180_000);
afterAll(async () => {
  await h?.close();
  await site?.close();
  for (const dir of [basicHome, keyringHome]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function axe(page: Page, what: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(page, scheme);
    expect(await axeViolations(page), `axe: ${what} in ${scheme}`).toEqual([]);
  }
}

/**
 * The screen as it stands: no axe-core violation in light and dark at 1280x800 and at 320 CSS px wide (where
 * nothing may scroll sideways either), and screenshots at 1280x800 and 640x800 in both schemes (scrolled to `show`).
 */
async function inspect(page: Page, name: string, show?: Locator) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await axe(page, `${name} at 1280x800`);
  // 320 CSS px wide: the sidebar folds behind its Menu button, the content has the window.
  await page.setViewportSize({ width: 320, height: 700 });
  await axe(page, `${name} at 320 px`);
  expect(await overflowsRight(page, '#main'), `${name}: scrolls sideways at 320 px`).toEqual({ by: 0, out: [] });
  await screenshotsAtSizes(
    page,
    SHOTS,
    name,
    [
      [1280, 800],
      [640, 800],
    ],
    { show },
  );
}

async function openYourBrowsers(): Promise<OpenApp> {
  const app = await h.openApp();
  await nav(app.page, 'Your browsers').click();
  await app.page.getByRole('heading', { level: 1, name: 'Your browsers' }).waitFor();
  await app.page.getByTestId('browser-profile').first().waitFor();
  return app;
}

const profileIn = (page: Page, home: string) => page.getByTestId('browser-profile').filter({ hasText: home });

describe('Your browsers over the IPC contract and a real core', () => {
  it('lists the profile, imports the chosen site (valid), and the session is in Sessions and the API', async () => {
    const { page, context, problems } = await openYourBrowsers();
    try {
      const profile = profileIn(page, basicHome);
      expect(await profile.innerText()).toContain('Chromium');
      // Issue 44, item 4: the profile nobody named is the Default profile, not Chromium's "Your Chromium".
      expect(await profile.innerText()).toContain('Default profile');
      expect(await profile.innerText()).not.toContain('Your Chromium');
      expect(await profile.innerText()).toContain(path.join(chromiumUserDataDir(basicHome), 'Default'));
      expect(await profile.innerText()).toMatch(/\d+ sites? with cookies/);
      expect(await page.getByRole('main').innerText()).toContain('Imports happen on this machine only');
      await inspect(page, 'list');

      await profile.getByRole('button', { name: /Choose sites from Chromium profile/ }).click();
      const sites = page.getByTestId('profile-sites');
      await sites.waitFor();
      // The search narrows the sites; the fixture site is among them.
      const search = sites.getByRole('searchbox', { name: 'Search the profile’s sites' });
      await search.fill('nothing-like-this');
      expect(await sites.innerText()).toContain('No site has “nothing-like-this” in its address.');
      await search.fill(new URL(site.loginUrl).port);
      const choice = sites.getByRole('checkbox', { name: site.origin });
      // Before anything is ticked, the screen says why a page that needs you signed in matters.
      expect(await sites.getByText(/give a page that needs you signed in/).isVisible()).toBe(true);
      await choice.check();
      // The page the check opens: the site's home page only redirects to its login form.
      await sites.getByLabel('Page that needs you signed in (optional)').fill(site.protectedUrl);
      await inspect(page, 'sites-chosen', sites);

      await sites.getByRole('button', { name: 'Import sessions' }).click();
      const result = page.getByTestId('profile-import-result');
      await result.waitFor({ timeout: 60_000 });
      // Issue 44, item 9: the outcome has the focus the disabled Import button lost (not the page's body).
      await expect.poll(() => result.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      const imported = result.getByTestId('imported-site');
      expect(await imported.count()).toBe(1);
      expect(await imported.getByTestId('imported-verdict').innerText()).toBe('Valid');
      expect(await imported.innerText()).toContain(site.origin);
      expect(await imported.innerText()).toMatch(/\d+ cookies? · 1 localStorage item\b/);
      // The window never got a cookie: neither its name nor anything of the storageState is on the page.
      expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain('ws_session');
      await inspect(page, 'imported', result);

      // The use log names the desktop, the person (no key), and the outcome.
      const [use] = profileImports(h.t.core).list(h.t.orgId);
      expect(use).toMatchObject({ via: 'desktop', keyId: null, origin: site.origin, outcome: 'valid' });

      // The agents' API sees the cached session; the window's Sessions screen opens on it.
      const listed = (await (await h.t.request('/api/sessions')).json()) as {
        data: { id: string; origin: string; status: string; login_method: string }[];
      };
      const session = listed.data.find((s) => s.id === use.sessionId);
      expect(session).toMatchObject({ origin: site.origin, status: 'valid', login_method: 'browser-import' });
      await imported.getByRole('button', { name: 'Open in Sessions' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
      const row = page.getByTestId('session-row').filter({ hasText: 'browser-import' });
      await row.waitFor();
      // Opened on the imported session: its row is the selected one.
      expect(await row.getAttribute('class')).toContain('row-selected');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it.skipIf(!hasKeyring)(
    'a keychain that refuses is a clear notice with the cause and what to do',
    async () => {
      const { page, context, problems } = await openYourBrowsers();
      const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
      try {
        const profile = profileIn(page, keyringHome);
        await profile.getByRole('button', { name: /Choose sites from Chromium profile/ }).click();
        const sites = page.getByTestId('profile-sites');
        await sites.getByRole('checkbox', { name: site.origin }).check();
        // The Secret Service that keeps this profile's key cannot be reached now.
        process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path.join(keyringHome, 'no-bus')}`;
        await sites.getByRole('button', { name: 'Import sessions' }).click();
        const refused = page.getByTestId('profile-import-error');
        await refused.waitFor({ timeout: 60_000 });
        process.env.DBUS_SESSION_BUS_ADDRESS = saved;
        const text = await refused.innerText();
        expect(text).toContain('KEYCHAIN_REFUSED');
        expect(text).toContain("The OS keychain did not give out Chromium's cookie key");
        expect(text).toContain('Unlock your keychain');
        await inspect(page, 'keychain-refused', refused);
        expect(profileImports(h.t.core).list(h.t.orgId)[0]).toMatchObject({
          via: 'desktop',
          outcome: 'keychain_refused',
        });
        expect(problems).toEqual([]);
      } finally {
        process.env.DBUS_SESSION_BUS_ADDRESS = saved;
        await context.close();
      }
    },
    180_000,
  );
});
