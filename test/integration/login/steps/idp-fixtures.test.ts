/**
 * Hand-written checks of the OAuth fixtures (test/fixtures/idp): before the login engine is tried on them,
 * a script drives each combination as a person would (Playwright, Debian chromium) and proves the fixtures
 * themselves work: Google-style redirect with 2-Step Verification and consent, Google-style popup, the
 * account chooser, GitHub-style redirect with two-factor and authorize, the localStorage SPA, wrong
 * password / code, and cancel. Each sign-in's storageState is put into a NEW context, which must open the
 * protected page signed in. Every request the browser makes must stay on loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { launchTestBrowser } from '../../../helpers/browser.js';
import { startIdentityProvider, type IdentityProviderOptions } from '../../../fixtures/idp/identity-provider.js';
import { startRelyingPartySite, type RelyingPartySiteOptions } from '../../../fixtures/idp/relying-party-site.js';

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ALICE = { login: 'alice@example.com', password: 'correct horse battery staple', name: 'Alice Example' };
const OCTO = { login: 'octo-alice', password: 'gh-Correct-Pw-88', name: 'Octo Alice', email: 'octo@example.com' };

function totpCode(secret = TOTP_SECRET): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate();
}

let browser: Browser;
const cleanups: Array<() => Promise<unknown>> = [];
const requestedHosts = new Set<string>();

beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  // Nothing a page loads (fonts, scripts, images) may leave the machine.
  expect([...requestedHosts].filter((h) => h !== '127.0.0.1' && h !== 'localhost')).toEqual([]);
  requestedHosts.clear();
});

async function provider(options: IdentityProviderOptions) {
  const idp = await startIdentityProvider(options);
  cleanups.push(() => idp.close());
  return idp;
}

async function site(options: RelyingPartySiteOptions) {
  const s = await startRelyingPartySite(options);
  cleanups.push(() => s.close());
  return s;
}

async function newContext(storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext(storageState ? { storageState } : {});
  context.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol.startsWith('http')) requestedHosts.add(url.hostname);
  });
  cleanups.push(() => context.close());
  return context;
}

/** The agent's check: a fresh context with only the captured state opens the protected page signed in. */
async function stateOpensProtectedPage(
  context: BrowserContext,
  target: { protectedUrl: string; loggedInText: string },
) {
  const fresh = await newContext(await context.storageState());
  const page = await fresh.newPage();
  await page.goto(target.protectedUrl);
  await page.getByRole('heading', { name: target.loggedInText }).waitFor();
  return page;
}

async function googleIdentifierAndPassword(page: Page, user = ALICE) {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email or phone').fill(user.login);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  await page.getByLabel('Enter your password').fill(user.password);
  await page.getByRole('button', { name: 'Next' }).click();
}

describe('identity-provider and relying-party fixtures', () => {
  it('google redirect: identifier, password, 2-Step Verification and consent give a cookie session', async () => {
    const idp = await provider({ style: 'google', users: [{ ...ALICE, totpSecret: TOTP_SECRET }] });
    const rp = await site({ idp, mode: 'redirect', alsoPassword: true });
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(rp.loginUrl);
    // Two ways in: the engine must take the provider button, not the decoy password form.
    await page.getByLabel('Password').waitFor();
    await page.getByRole('link', { name: 'Continue with Google' }).click();

    await page.waitForURL((url) => url.origin === idp.origin);
    await page.getByText('to continue to Acme Notes').waitFor();
    expect(await page.locator('#identifierId').getAttribute('autocomplete')).toBe('username');
    await googleIdentifierAndPassword(page);

    await page.getByRole('heading', { name: '2-Step Verification' }).waitFor();
    await page.getByText('Enter the code from your Google Authenticator app').waitFor();
    const code = totpCode();
    await page.getByLabel('Enter code').fill(code);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Acme Notes wants to access your Google Account' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(rp.protectedUrl);
    await page.getByRole('heading', { name: rp.loggedInText }).waitFor();
    expect(await page.locator('#account-email').textContent()).toBe(ALICE.login);

    const again = await stateOpensProtectedPage(context, rp);
    expect(await again.getByText('Alice Example').count()).toBe(1);
    const cookies = await context.cookies(rp.origin);
    expect(cookies.find((c) => c.name === 'acme_notes_session')?.httpOnly).toBe(true);
    expect(idp.stats()).toEqual({ logins: 1, consents: 1, failures: 0 });
    expect(rp.stats()).toEqual({ logins: 1, failures: 0, passwordAttempts: 0 });

    // A used code is refused, as on Google: someone replaying it in another browser stays on the 2SV page.
    const replay = await (await newContext()).newPage();
    await replay.goto(rp.loginUrl);
    await replay.getByRole('link', { name: 'Continue with Google' }).click();
    await googleIdentifierAndPassword(replay);
    await replay.getByLabel('Enter code').fill(code);
    await replay.getByRole('button', { name: 'Next' }).click();
    await replay.getByText('Wrong code. Try again.').waitFor();
    expect(idp.stats()).toEqual({ logins: 1, consents: 1, failures: 1 });
  });

  it('google popup: the popup signs in and closes, the opener sets the session and opens the dashboard', async () => {
    const idp = await provider({ style: 'google', users: [ALICE] });
    const rp = await site({ idp, mode: 'popup' });
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(rp.loginUrl);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Continue with Google' }).click(),
    ]);
    await googleIdentifierAndPassword(popup);
    await popup.getByRole('heading', { name: 'Orbit Chat wants to access your Google Account' }).waitFor();
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Continue' }).click()]);

    await page.waitForURL(rp.protectedUrl);
    await page.getByRole('heading', { name: rp.loggedInText }).waitFor();
    await stateOpensProtectedPage(context, rp);
    expect(rp.stats().logins).toBe(1);
  });

  it('google account chooser: a signed-in user picks the account; an approved app skips consent', async () => {
    const idp = await provider({ style: 'google', users: [ALICE], host: 'localhost' });
    const notes = await site({ idp, mode: 'redirect' });
    const board = await site({ idp, mode: 'redirect', name: 'Pixel Board' });
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(notes.loginUrl);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await googleIdentifierAndPassword(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(notes.protectedUrl);

    // Second app, same provider session: "Choose an account", then consent for the new app.
    await page.goto(board.loginUrl);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByRole('heading', { name: 'Choose an account' }).waitFor();
    await page.getByText('to continue to Pixel Board').waitFor();
    await page.getByRole('link', { name: /alice@example\.com/ }).click();
    await page.getByRole('heading', { name: 'Pixel Board wants to access your Google Account' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(board.protectedUrl);

    // Back to the first app after signing out of it: chooser again, no second consent.
    await page.goto(notes.protectedUrl);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByRole('link', { name: /alice@example\.com/ }).click();
    await page.waitForURL(notes.protectedUrl);
    await stateOpensProtectedPage(context, notes);
    expect(idp.stats()).toEqual({ logins: 1, consents: 2, failures: 0 });
  });

  it('github redirect: username and password, two-factor, authorize; a second sign-in goes straight back', async () => {
    const idp = await provider({ style: 'github', users: [{ ...OCTO, totpSecret: TOTP_SECRET }], host: 'localhost' });
    const rp = await site({ idp, mode: 'redirect', alsoPassword: true });
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(rp.loginUrl);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();

    await page.getByRole('heading', { name: 'Sign in to GitHub' }).waitFor();
    await page.getByText('to continue to Acme Notes').waitFor();
    await page.getByLabel('Username or email address').fill(OCTO.login);
    await page.getByLabel('Password', { exact: true }).fill(OCTO.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    expect(await page.locator('input[name=app_otp]').getAttribute('autocomplete')).toBe('one-time-code');
    await page.getByLabel('Authentication code').fill(totpCode());
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.getByRole('heading', { name: 'Authorize Acme Notes' }).waitFor();
    await page.getByRole('button', { name: 'Authorize acme-notes' }).click();
    await page.waitForURL(rp.protectedUrl);
    expect(await page.locator('#account-email').textContent()).toBe(OCTO.email); // read from the userinfo endpoint
    await stateOpensProtectedPage(context, rp);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(rp.protectedUrl);
    expect(idp.stats()).toEqual({ logins: 1, consents: 1, failures: 0 });
    expect(rp.stats().logins).toBe(2);
  });

  it('localstorage SPA: the token lives in localStorage, no site cookie; a new context needs the state', async () => {
    const idp = await provider({ style: 'google', users: [ALICE], host: 'localhost' });
    const rp = await site({ idp, mode: 'localstorage' });
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(rp.loginUrl);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await googleIdentifierAndPassword(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(rp.protectedUrl);
    await page.getByRole('heading', { name: rp.loggedInText }).waitFor();

    const state = await context.storageState();
    expect(state.cookies.filter((c) => c.domain === '127.0.0.1')).toEqual([]);
    const stored = state.origins.find((o) => o.origin === rp.origin)?.localStorage ?? [];
    expect(stored.map((item) => item.name)).toEqual(['nova_tasks_token']);
    await stateOpensProtectedPage(context, rp);

    const stranger = await (await newContext()).newPage();
    await stranger.goto(rp.protectedUrl);
    await stranger.getByRole('button', { name: 'Continue with Google' }).waitFor();
    expect(await stranger.getByText(rp.loggedInText).count()).toBe(0);
  });

  it('wrong password and wrong code stay on the provider page with its error', async () => {
    const google = await provider({ style: 'google', users: [{ ...ALICE, totpSecret: TOTP_SECRET }] });
    const github = await provider({ style: 'github', users: [OCTO], host: 'localhost' });
    const googleSite = await site({ idp: google, mode: 'redirect' });
    const githubSite = await site({ idp: github, mode: 'redirect', name: 'Pixel Board' });
    const page = await (await newContext()).newPage();

    await page.goto(googleSite.loginUrl);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await googleIdentifierAndPassword(page, { ...ALICE, password: 'not it' });
    await page.getByText('Wrong password. Try again or click Forgot password to reset it.').waitFor();
    const passwordUrl = page.url();
    await page.getByLabel('Enter your password').fill(ALICE.password);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Enter code').fill('000000');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Wrong code. Try again.').waitFor();
    expect(new URL(passwordUrl).origin).toBe(google.origin);
    expect(page.url()).toBe(passwordUrl); // every step re-renders the same interaction URL
    expect(google.stats()).toEqual({ logins: 0, consents: 0, failures: 2 });

    await page.goto(githubSite.loginUrl);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await page.getByLabel('Username or email address').fill(OCTO.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect username or password.' }).waitFor();
    expect(new URL(page.url()).origin).toBe(github.origin);
    expect(await page.getByLabel('Username or email address').inputValue()).toBe(OCTO.email);
    expect(github.stats().failures).toBe(1);
    expect(githubSite.stats().logins).toBe(0);
  });

  it('cancel on the consent screen returns to the site signed out, with its message', async () => {
    const idp = await provider({ style: 'google', users: [ALICE] });
    const rp = await site({ idp, mode: 'redirect' });
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(rp.loginUrl);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await googleIdentifierAndPassword(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('You cancelled signing in with Google.').waitFor();
    expect(new URL(page.url()).origin).toBe(rp.origin);
    await page.goto(rp.protectedUrl);
    expect(page.url()).toBe(rp.loginUrl);
    expect(rp.stats()).toEqual({ logins: 0, failures: 1, passwordAttempts: 0 });
  });
});
