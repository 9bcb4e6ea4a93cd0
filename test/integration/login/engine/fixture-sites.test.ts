/**
 * Proves every fixture site behaves as documented, using hand-written site-specific Playwright
 * scripts (test/fixtures/sites/manual-scripts.ts) in a real Chromium. The real-web styles
 * (REAL_WEB_SITES) are proven the same way, with their own signed-out texts, in
 * fixture-sites-realweb.test.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSiteBrowser } from '../../../helpers/browser.js';
import {
  ALL_SITES,
  COOKIE_NAMES,
  EXTRA_FIELDS_SESSION_COOKIE,
  MFA_CODE,
  NON_LOGINABLE_SITES,
  REAL_WEB_SITES,
  startSite,
  type FixtureSite,
  type SiteName,
} from '../../../fixtures/sites/index.js';
import { BLOCKED_PAGE_TEXT, MANUAL_SCRIPTS } from '../../../fixtures/sites/manual-scripts.js';

const WRONG_PASSWORD = 'Tr0ub4dor&3';
const { withSite } = useSiteBrowser();

async function expectLoggedIn(page: Page, site: FixtureSite): Promise<void> {
  await page.waitForURL(site.protectedUrl);
  await page.getByText(site.loggedInText).first().waitFor({ state: 'visible' });
  // A fresh navigation still shows the protected content (the session really persisted).
  await page.goto(site.protectedUrl);
  await page.getByText(site.loggedInText).first().waitFor({ state: 'visible' });
  expect(page.url()).toBe(site.protectedUrl);
}

/**
 * Sites that serve an app shell at the protected URL (no redirect): signed out once the shell has
 * rendered its sign-in prompt. Waiting for that text, not a fixed delay, keeps a late-rendering
 * logged-in view from slipping past the check.
 */
const APP_SHELL_SIGNED_OUT_TEXT: Partial<Record<SiteName, string>> = {
  'spa-localstorage': 'Please sign in',
};

/**
 * The protected page is not available: the navigation is refused (an HTTP auth challenge Chromium
 * cannot answer fails with ERR_INVALID_AUTH_CREDENTIALS), answered 401/403, redirected away, or an
 * app shell renders its sign-in prompt — and in every case the logged-in text is absent.
 */
async function expectLoggedOut(page: Page, site: FixtureSite): Promise<void> {
  const response = await page.goto(site.protectedUrl).catch((err: unknown) => err as Error);
  if (response instanceof Error) {
    expect(response.message).toMatch(/ERR_INVALID_AUTH_CREDENTIALS/);
    // The refusal is the site's challenge, not a network failure.
    expect((await page.context().request.get(site.protectedUrl)).status()).toBe(401);
    return;
  }
  await page.waitForLoadState('load');
  // A 401/403 is a refusal too, e.g. a wrong Basic password from the context's credentials.
  const refused = response !== null && [401, 403].includes(response.status());
  if (!refused && page.url() === site.protectedUrl) {
    const signedOutText = APP_SHELL_SIGNED_OUT_TEXT[site.name];
    expect(signedOutText, `${site.name} stays on the protected URL without a sign-in prompt`).toBeDefined();
    await page.getByText(signedOutText!).first().waitFor({ state: 'visible' });
  }
  expect(await page.getByText(site.loggedInText).count()).toBe(0);
}

const CLASSIC_SITES = ALL_SITES.filter((s) => !(REAL_WEB_SITES as string[]).includes(s));

describe.concurrent.each(CLASSIC_SITES)('fixture site %s', (name) => {
  const script = MANUAL_SCRIPTS[name];
  const blocked = NON_LOGINABLE_SITES.includes(name);

  it('protected page is not available without logging in', async () => {
    await withSite(name, async (site, page) => {
      expect(site.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expectLoggedOut(page, site);
      expect(site.stats()).toEqual({ loginAttempts: 0, successfulLogins: 0 });
    });
  });

  if (blocked) {
    it('correct credentials stop at the expected page', async () => {
      await withSite(name, async (site, page) => {
        await script.submit(page, site, site.credentials.password);
        await page.getByText(BLOCKED_PAGE_TEXT[name]!).first().waitFor({ state: 'visible' });
        expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
        await expectLoggedOut(page, site);
      });
    });
  } else {
    it('correct credentials reach the protected page', async () => {
      await withSite(name, async (site, page) => {
        await script.submit(page, site, site.credentials.password);
        await expectLoggedIn(page, site);
        expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
      });
    });
  }

  it('a wrong password is rejected', async () => {
    await withSite(name, async (site, page) => {
      await script.submit(page, site, WRONG_PASSWORD);
      await script.rejected(page);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
      await expectLoggedOut(page, site);
    });
  });
});

describe('site-specific behaviour', () => {
  it('classic-csrf: POST without a valid CSRF token is 403', async () => {
    await withSite('classic-csrf', async (site, _page, context) => {
      const { username, password } = site.credentials;
      const noToken = await context.request.post(`${site.origin}/login`, {
        form: { log: username, pwd: password },
        maxRedirects: 0,
      });
      expect(noToken.status()).toBe(403);
      await context.request.get(site.loginUrl); // obtains the pre-session cookie
      const badToken = await context.request.post(`${site.origin}/login`, {
        form: { log: username, pwd: password, authenticity_token: 'forged' },
        maxRedirects: 0,
      });
      expect(badToken.status()).toBe(403);
      expect(site.stats().successfulLogins).toBe(0);
    });
  });

  it('two-step: password input only appears after Next, on the same URL', async () => {
    await withSite('two-step', async (site, page) => {
      await page.goto(site.loginUrl);
      expect(await page.locator('input[type=password]').count()).toBe(0);
      await page.fill('#identifierId', site.credentials.username);
      await page.click('#identifierNext');
      await page.locator('input[type=password]').waitFor({ state: 'visible' });
      expect(page.url()).toBe(site.loginUrl);
    });
  });

  it('spa-localstorage: token lives in localStorage, no cookies', async () => {
    await withSite('spa-localstorage', async (site, page, context) => {
      await MANUAL_SCRIPTS['spa-localstorage'].submit(page, site, site.credentials.password);
      await expectLoggedIn(page, site);
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toMatch(/^[\w-]{20,}$/);
      expect(await context.cookies()).toEqual([]);
    });
  });

  it('landing-signin: "Get started" leads to sign-up, not a session', async () => {
    await withSite('landing-signin', async (site, page) => {
      await page.goto(site.loginUrl);
      expect(await page.locator('input[type=password]').count()).toBe(0);
      await page.click('header a:has-text("Get started")');
      await page.waitForURL('**/signup');
      await page.locator('input[autocomplete=new-password]').waitFor();
      expect(site.stats().loginAttempts).toBe(0);
    });
  });

  it('error-toast: the toast disappears and the form stays', async () => {
    await withSite('error-toast', async (site, page) => {
      await MANUAL_SCRIPTS['error-toast'].submit(page, site, WRONG_PASSWORD);
      const toast = page.locator('[role=alert].toast');
      await toast.waitFor({ state: 'visible' });
      expect(await toast.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
      await toast.waitFor({ state: 'detached', timeout: 8_000 });
      expect(await page.locator('input[name=passwd]').isVisible()).toBe(true);
    });
  });

  it('error-200: the failure page is HTTP 200 and has no form', async () => {
    await withSite('error-200', async (site, page) => {
      await page.goto(site.loginUrl);
      await page.fill('input[placeholder=Username]', site.credentials.username);
      await page.fill('input[placeholder=Password]', WRONG_PASSWORD);
      const [response] = await Promise.all([page.waitForResponse('**/do_login.php'), page.click('input[type=submit]')]);
      expect(response.status()).toBe(200);
      await MANUAL_SCRIPTS['error-200'].rejected(page);
      expect(await page.locator('form').count()).toBe(0);
    });
  });

  it('newsletter: subscribing does not log in', async () => {
    await withSite('newsletter', async (site, page) => {
      await page.goto(site.loginUrl);
      await page.fill('form.newsletter input[type=email]', site.credentials.username);
      await page.click('form.newsletter button:has-text("Subscribe")');
      await page.getByText('Thanks for subscribing!').waitFor();
      await expectLoggedOut(page, site);
      expect(site.stats()).toEqual({ loginAttempts: 0, successfulLogins: 0 });
    });
  });

  it('cookie-variants: every cookie flavour is stored as documented', async () => {
    await withSite('cookie-variants', async (site, page, context) => {
      await MANUAL_SCRIPTS['cookie-variants'].submit(page, site, site.credentials.password);
      await expectLoggedIn(page, site);
      const jar = new Map((await context.cookies()).map((c) => [c.name, c]));
      const c = COOKIE_NAMES;
      for (const n of Object.values(c)) expect(jar.has(n), n).toBe(true);
      expect(jar.get(c.session)!.httpOnly).toBe(true);
      // Chromium treats http://127.0.0.1 as a secure context: Secure cookies are kept.
      expect(jar.get(c.secure)!.secure).toBe(true);
      expect(jar.get(c.none)!).toMatchObject({ secure: true, sameSite: 'None' });
      expect(jar.get(c.strict)!.sameSite).toBe('Strict');
      expect(jar.get(c.lax)!.sameSite).toBe('Lax');
      expect(jar.get(c.maxAge)!.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
      expect(jar.get(c.expires)!.expires).toBeGreaterThan(Date.now() / 1000);
      expect(jar.get(c.sessionOnly)!.expires).toBe(-1);
      expect(jar.get(c.pathScoped)!.path).toBe('/api');
      expect(jar.has('tz')).toBe(true); // set by page JS
      const echo = (await (await page.request.get(`${site.origin}/api/echo-cookies`)).json()) as { cookies: string[] };
      expect(echo.cookies).toContain(c.pathScoped);
      expect(await page.locator('#cookie-names').textContent()).not.toContain(c.pathScoped);
    });
  });

  it('redirect-chain: cookies on two loopback hosts, SSO re-entry', async () => {
    await withSite('redirect-chain', async (site, page, context) => {
      const hops: string[] = [];
      page.on('response', (r) => {
        if (r.status() === 302) hops.push(new URL(r.url()).host + new URL(r.url()).pathname);
      });
      await MANUAL_SCRIPTS['redirect-chain'].submit(page, site, site.credentials.password);
      await expectLoggedIn(page, site);
      const port = new URL(site.origin).port;
      expect(hops.slice(0, 3)).toEqual([
        `127.0.0.1:${port}/adfs/ls/`,
        `localhost:${port}/auth/callback`,
        `localhost:${port}/sso/complete`,
      ]);
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'MSISAuth')?.domain).toBe('127.0.0.1');
      expect(cookies.find((c) => c.name === 'app_session')?.domain).toBe('localhost');
      // The protected page is only on the final host name (127.0.0.1 has no app_session cookie).
      const other = await context.request.get(`${site.origin}/home`, { maxRedirects: 0 });
      expect(other.status()).toBe(302);
      expect(other.headers().location).toBe(`${site.origin}/login`);
      // Lose the app cookie but keep the IdP cookie: the login URL silently re-enters the chain.
      await context.clearCookies({ name: 'app_session' });
      await page.goto(site.loginUrl);
      await page.waitForURL(site.protectedUrl);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
    });
  });

  it('extra-fields: wrong company fails; remember-me controls cookie persistence', async () => {
    await withSite('extra-fields', async (site, page, context) => {
      const sessionCookie = async () => (await context.cookies()).find((c) => c.name === EXTRA_FIELDS_SESSION_COOKIE);
      await page.goto(site.loginUrl);
      await page.fill('#tenant', 'globex');
      await page.fill('#usr_4c1', site.credentials.username);
      await page.fill('#pwd_9e0', site.credentials.password);
      await page.click('#frm_ws button[type=submit]');
      await page.getByText("We couldn't find a workspace with that Company ID.").waitFor();
      expect(await sessionCookie()).toBeUndefined();

      await MANUAL_SCRIPTS['extra-fields'].submit(page, site, site.credentials.password);
      await expectLoggedIn(page, site);
      expect((await sessionCookie())!.expires).toBe(-1);

      await context.clearCookies();
      await page.goto(site.loginUrl);
      await page.fill('#tenant', 'ACME');
      await page.fill('#usr_4c1', site.credentials.username);
      await page.fill('#pwd_9e0', site.credentials.password);
      await page.check('#remember_me');
      await page.click('#frm_ws button[type=submit]');
      await expectLoggedIn(page, site);
      expect((await sessionCookie())!.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
    });
  });

  it('mfa: one-time-code input; a wrong code fails, the right one logs in', async () => {
    await withSite('mfa', async (site, page) => {
      await MANUAL_SCRIPTS.mfa.submit(page, site, site.credentials.password);
      const otp = page.locator('input[autocomplete=one-time-code]');
      await otp.waitFor();
      await otp.fill('000000');
      await page.click('button:has-text("Verify")');
      await page.getByText('Invalid code. Try again.').waitFor();
      await page.fill('input[autocomplete=one-time-code]', MFA_CODE);
      await page.click('button:has-text("Verify")');
      await expectLoggedIn(page, site);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
    });
  });

  it('custom credentials are honoured', async () => {
    const opts = { username: 'bob@example.com', password: 'hunter2 hunter2' };
    await withSite(
      'error-inline',
      async (site, page) => {
        expect(site.credentials).toEqual(opts);
        expect(site.loggedInText).toBe('Logged in as bob@example.com');
        await MANUAL_SCRIPTS['error-inline'].submit(page, site, opts.password);
        await expectLoggedIn(page, site);
      },
      opts,
    );
  });

  it('close() shuts the server down and is idempotent', async () => {
    const site = await startSite('no-form');
    expect((await fetch(site.loginUrl)).status).toBe(200);
    await Promise.all([site.close(), site.close()]);
    await expect(fetch(site.loginUrl)).rejects.toThrow();
  });
});
