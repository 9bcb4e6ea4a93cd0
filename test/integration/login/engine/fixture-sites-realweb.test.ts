/**
 * The real-web fixture sites (REAL_WEB_SITES; issue "Login engine on the real web"):
 *  (a) each site itself works as documented: its hand-written script (manual-scripts-realweb.ts)
 *      logs in, the session survives as a storageState in a fresh context, a wrong password is
 *      rejected by the site, and the trait that makes the style hard is really there;
 *  (b) what the login engine does on them through POST /api/login is in login-api.test.ts, with
 *      every other fixture site.
 */
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSiteBrowser } from '../../../helpers/browser.js';
import {
  BASIC_AUTH_ADMIN_REALM,
  BASIC_CHALLENGE_REALM,
  REAL_WEB_SITES,
  SCROLL_BANNER_CONSENT_COOKIE,
  type FixtureSite,
  type RealWebSiteName,
} from '../../../fixtures/sites/index.js';
import { MANUAL_SCRIPTS } from '../../../fixtures/sites/manual-scripts.js';

const WRONG_PASSWORD = 'Tr0ub4dor&3';
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Text each site shows at its protected URL to someone who is not signed in (SPAs render it late).
 * basic-auth-admin has none: without credentials Chromium refuses the challenged page itself.
 */
const SIGNED_OUT_TEXT: Record<Exclude<RealWebSiteName, 'basic-auth-admin'>, string> = {
  'late-dialog': 'Log in to Orbit',
  'basic-challenge': 'Sign in to Ledgerly',
  'identifier-aria': 'Log in to continue',
  'closed-tab': 'Banking that stays close to home',
  'react-controlled': 'Sign in to Pulse',
  'german-labels': 'Anmeldung Kundenportal',
  'scroll-banner': 'Sign in to your account',
  'cpu-boot': 'Welcome to Gridline',
  'polling-console': 'StorBox Manager Login',
  'icon-submit': 'to continue to Fieldnote',
  'japanese-new-password': 'ユーザー名とパスワードを入力してください。',
  'lockout-notice': 'Authentication Required',
  'swap-form': 'Log in to Canopy',
  'cross-origin-iframe': 'Sign in to your Fernwood account',
  'validated-spa': 'Sign in to Vectorly',
  'nested-shadow': 'Sign in to Lumen',
};

const { browser, withSite } = useSiteBrowser();

/** Opens the protected page in a fresh context holding only `state` (what an agent does with it). */
async function protectedPageIn(
  site: FixtureSite,
  state: StorageState | undefined,
  wanted: 'signed in' | 'signed out',
): Promise<void> {
  const context = await browser().newContext(state ? { storageState: state } : {});
  context.setDefaultTimeout(10_000);
  try {
    const page = await context.newPage();
    if (wanted === 'signed out' && site.name === 'basic-auth-admin') {
      await expect(page.goto(site.protectedUrl)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
      expect((await context.request.get(site.protectedUrl)).status()).toBe(401);
      return;
    }
    await page.goto(site.protectedUrl);
    if (wanted === 'signed in') {
      await page.getByText(site.loggedInText).first().waitFor({ state: 'visible' });
      expect(page.url()).toBe(site.protectedUrl);
    } else {
      const signedOut = SIGNED_OUT_TEXT[site.name as keyof typeof SIGNED_OUT_TEXT];
      await page.getByText(signedOut).first().waitFor({ state: 'visible' });
      expect(await page.getByText(site.loggedInText).count()).toBe(0);
    }
  } finally {
    await context.close();
  }
}

describe.concurrent.each(REAL_WEB_SITES)('real-web fixture site %s', (name) => {
  const script = MANUAL_SCRIPTS[name];

  it('protected page is not available without logging in', async () => {
    await withSite(name, async (site) => {
      expect(site.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await protectedPageIn(site, undefined, 'signed out');
      expect(site.stats()).toEqual({ loginAttempts: 0, successfulLogins: 0 });
    });
  });

  it('the manual script logs in; the session opens the protected page from a storageState', async () => {
    await withSite(name, async (site, page, context) => {
      await script.submit(page, site, site.credentials.password);
      await page.waitForURL(site.protectedUrl);
      await page.getByText(site.loggedInText).first().waitFor({ state: 'visible' });
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
      await protectedPageIn(site, await context.storageState(), 'signed in');
    });
  });

  it('a wrong password is rejected by the site', async () => {
    await withSite(name, async (site, page, context) => {
      await script.submit(page, site, WRONG_PASSWORD);
      await script.rejected(page);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
      await protectedPageIn(site, await context.storageState(), 'signed out');
    });
  });
});

describe('what makes each real-web style hard', () => {
  it('late-dialog: no input at DOMContentLoaded; the dialog follows a burst of boot XHRs', async () => {
    await withSite('late-dialog', async (site, page) => {
      const boot: string[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) boot.push(`${r.status()} ${new URL(r.url()).pathname}`);
      });
      await page.goto(site.loginUrl, { waitUntil: 'domcontentloaded' });
      expect(await page.locator('#app input').count()).toBe(0);
      await page.getByRole('dialog', { name: 'Log in to Orbit' }).waitFor();
      expect(boot.sort()).toEqual([
        '200 /api/feature-flags',
        '200 /api/i18n/en',
        '200 /api/settings',
        '401 /api/auth/probe',
      ]);
      const probe = await page.request.get(`${site.origin}/api/auth/probe`);
      expect(probe.headers()['www-authenticate']).toBeUndefined();
    });
  });

  it('basic-challenge: a wrong password makes the next XHR a 401 Basic challenge; pages redirect instead', async () => {
    await withSite('basic-challenge', async (site, page) => {
      const me = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me');
      await MANUAL_SCRIPTS['basic-challenge'].submit(page, site, WRONG_PASSWORD);
      const challenge = await me;
      expect(challenge.status()).toBe(401);
      expect(await challenge.headerValue('www-authenticate')).toBe(`Basic realm="${BASIC_CHALLENGE_REALM}"`);
      const app = await page.request.get(`${site.origin}/app`, { maxRedirects: 0 });
      expect(app.status()).toBe(302);
      expect(app.headers()['www-authenticate']).toBeUndefined();
    });
  });

  it('identifier-aria: one aria-labelledby text field, a div Continue, the password field only afterwards', async () => {
    await withSite('identifier-aria', async (site, page) => {
      await page.goto(site.loginUrl);
      const card = page.locator('#signin-card');
      expect(await card.locator('input').count()).toBe(1);
      const email = card.getByRole('textbox', { name: 'Work email' });
      expect(await email.evaluate((el) => [el.getAttribute('type'), el.getAttribute('autocomplete')])).toEqual([
        'text',
        'off',
      ]);
      expect(await email.getAttribute('name')).toBeNull();
      expect(await page.getByRole('combobox', { name: 'Search Quire' }).evaluate((el) => el.tagName)).toBe('INPUT');
      const next = page.getByRole('button', { name: 'Continue' });
      expect(await next.evaluate((el) => el.tagName)).toBe('DIV');
      expect(await page.locator('input[type=password]').count()).toBe(0);
      await email.fill(site.credentials.username);
      await next.press('Enter');
      await page.locator('input[type=password]').waitFor({ state: 'visible' });
      expect(page.url()).toBe(site.loginUrl);
    });
  });

  it('closed-tab: the login form is hidden until its tab is opened', async () => {
    await withSite('closed-tab', async (site, page) => {
      await page.goto(site.loginUrl);
      const password = page.locator('input[type=password]');
      expect(await password.count()).toBe(1);
      expect(await password.isVisible()).toBe(false);
      await page.getByRole('tab', { name: 'Online banking' }).click();
      await password.waitFor({ state: 'visible' });
    });
  });

  it('react-controlled: values set without input events are ignored and reverted', async () => {
    await withSite('react-controlled', async (site, page) => {
      await page.goto(site.loginUrl);
      const email = page.getByLabel('Email address');
      const password = page.getByLabel('Password');
      const submit = page.getByRole('button', { name: 'Sign in' });
      await email.evaluate((el, v) => ((el as HTMLInputElement).value = v), site.credentials.username);
      await password.evaluate((el, v) => ((el as HTMLInputElement).value = v), site.credentials.password);
      expect(await submit.isDisabled()).toBe(true);
      await page.locator('#root form').evaluate((form) => (form as HTMLFormElement).requestSubmit());
      // A state change re-renders: the DOM-only password value is replaced by the (empty) state.
      await email.fill(site.credentials.username);
      expect(await password.inputValue()).toBe('');
      expect(await submit.isDisabled()).toBe(true);
      expect(site.stats().loginAttempts).toBe(0);
    });
  });

  it('german-labels: the page is German and the form carries no English hints', async () => {
    await withSite('german-labels', async (site, page) => {
      await page.goto(site.loginUrl);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      const form = page.locator('#anmeldeformular');
      expect(await form.locator('[autocomplete], [placeholder], [aria-label]').count()).toBe(0);
      expect(await form.locator('input[type=email], input[name*=user], input[name*=pass]').count()).toBe(0);
      expect(await form.locator('label').allInnerTexts()).toEqual([
        'E-Mail-Adresse oder Kundennummer',
        'Passwort',
        'Angemeldet bleiben',
      ]);
    });
  });

  it('basic-auth-admin: the login URL is a 401 Basic challenge without a form; the session is a cookie', async () => {
    await withSite('basic-auth-admin', async (site, _page, context) => {
      const bare = await context.request.get(site.loginUrl);
      expect(bare.status()).toBe(401);
      expect(bare.headers()['www-authenticate']).toBe(`Basic realm="${BASIC_AUTH_ADMIN_REALM}", charset="UTF-8"`);
      expect(await bare.text()).not.toContain('<form');
      const basic = (password: string): string =>
        `Basic ${Buffer.from(`${site.credentials.username}:${password}`).toString('base64')}`;
      const wrong = await context.request.get(site.loginUrl, { headers: { authorization: basic(WRONG_PASSWORD) } });
      expect(wrong.status()).toBe(401);
      const right = await context.request.get(site.loginUrl, {
        headers: { authorization: basic(site.credentials.password) },
      });
      expect(right.status()).toBe(200);
      expect(right.headers()['set-cookie']).toMatch(/^JSESSIONID=/);
      expect(site.stats()).toEqual({ loginAttempts: 2, successfulLogins: 1 });
      expect((await context.request.get(site.loginUrl)).status()).toBe(200); // the cookie alone
    });
  });

  it('scroll-banner: a consent wall makes the page inert; the form is below the fold', async () => {
    await withSite('scroll-banner', async (site, page, context) => {
      await page.goto(site.loginUrl);
      const wall = page.getByRole('dialog', { name: 'We value your privacy' });
      await wall.waitFor();
      const layout = () =>
        page.evaluate(() => ({
          inert: document.querySelector('main')!.inert,
          overflow: document.body.style.overflow,
          formBelowFold: document.getElementById('customer_login')!.getBoundingClientRect().top > window.innerHeight,
        }));
      expect(await layout()).toEqual({ inert: true, overflow: 'hidden', formBelowFold: true });
      await page.getByRole('button', { name: 'Reject all' }).click();
      expect(await layout()).toEqual({ inert: false, overflow: '', formBelowFold: true });
      expect((await context.cookies()).map((c) => c.name)).toContain(SCROLL_BANNER_CONSENT_COOKIE);
      await page.reload();
      expect(await page.locator('#onetrust-consent-sdk').count()).toBe(0);
    });
  });
});
