/**
 * oauth_google and oauth_github through POST /api/login against local identity providers
 * (oidc-provider with Google-style and GitHub-style pages) and relying-party sites (openid-client):
 * redirect and popup, TOTP at the provider, account chooser and consent, a localStorage session.
 * Each returned state opens the protected page in a new context.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityProvider, type IdentityProviderOptions } from '../../../fixtures/idp/identity-provider.js';
import { startRelyingPartySite, type RelyingPartySiteOptions } from '../../../fixtures/idp/relying-party-site.js';
import { launchTestBrowser } from '../../../helpers/browser.js';
import { startTestServer } from '../../../helpers/test-server.js';

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ALICE = { login: 'alice@example.com', password: 'correct horse battery staple', name: 'Alice Example' };
const OCTO = { login: 'octo-alice', password: 'gh-Correct-Pw-88', name: 'Octo Alice', email: 'octo@example.com' };

let browser: Browser;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  idpOptions: IdentityProviderOptions,
  siteOptions: Omit<RelyingPartySiteOptions, 'idp'>,
  allowed?: string[],
) {
  const idp = await startIdentityProvider(idpOptions);
  cleanups.push(() => idp.close());
  const site = await startRelyingPartySite({ idp, ...siteOptions });
  cleanups.push(() => site.close());
  const origins = allowed ?? [idp.origin];
  const t = await startTestServer({
    login: { timeoutMs: 45_000, oauth: { google: { origins }, github: { origins } } },
  });
  cleanups.push(() => t.close());
  return { idp, site, t };
}

type Setup = Awaited<ReturnType<typeof setup>>;
type ErrorBody = { error: string; message: string; details: { reason?: string; steps?: string[] } };

function login(s: Setup, method: 'oauth_google' | 'oauth_github', cred: Record<string, string>) {
  return s.t.request('/api/login', {
    method: 'POST',
    json: { cred, loginMethod: method, domain: s.site.loginUrl, useCache: false },
  });
}

async function opensProtected(s: Setup, state: unknown): Promise<boolean> {
  const ctx = await browser.newContext({ storageState: state as never });
  try {
    const page = await ctx.newPage();
    await page.goto(s.site.protectedUrl);
    return await page
      .getByText(s.site.loggedInText)
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

describe('oauth_google', () => {
  it('redirect: the Google button (not the site password form), email, password, 2-Step Verification, consent', async () => {
    const s = await setup(
      { style: 'google', users: [{ ...ALICE, totpSecret: TOTP_SECRET }] },
      { mode: 'redirect', alsoPassword: true },
    );
    const res = await login(s, 'oauth_google', {
      username: ALICE.login,
      password: ALICE.password,
      totpSecret: TOTP_SECRET,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(await opensProtected(s, body)).toBe(true);
    expect(s.site.stats().passwordAttempts).toBe(0);
    // The provider's cookies come along (a later login at the provider is quicker).
    expect((body as { cookies: unknown[] }).cookies.length).toBeGreaterThan(1);
  });

  it('popup: the provider runs in a popup window that hands the result back to the site', async () => {
    const s = await setup({ style: 'google', users: [ALICE] }, { mode: 'popup' });
    const res = await login(s, 'oauth_google', { username: ALICE.login, password: ALICE.password });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(await opensProtected(s, body)).toBe(true);
  });

  it('a site that keeps its session in localStorage', async () => {
    const s = await setup({ style: 'google', users: [ALICE] }, { mode: 'localstorage' });
    const res = await login(s, 'oauth_google', { username: ALICE.login, password: ALICE.password });
    const body = (await res.json()) as { origins: { localStorage: unknown[] }[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.origins.some((o) => o.localStorage.length > 0)).toBe(true);
    expect(await opensProtected(s, body)).toBe(true);
  });

  it('a wrong provider password is 401; a TOTP step without cred.totpSecret is 422 naming it', async () => {
    const s = await setup({ style: 'google', users: [{ ...ALICE, totpSecret: TOTP_SECRET }] }, { mode: 'redirect' });
    const wrong = await login(s, 'oauth_google', { username: ALICE.login, password: 'not it' });
    const wrongBody = (await wrong.json()) as ErrorBody;
    expect(wrong.status, JSON.stringify(wrongBody)).toBe(401);
    expect(wrongBody.details.reason).toBe('invalid_credentials');
    const noTotp = await login(s, 'oauth_google', { username: ALICE.login, password: ALICE.password });
    const noTotpBody = (await noTotp.json()) as ErrorBody;
    expect(noTotp.status, JSON.stringify(noTotpBody)).toBe(422);
    expect(noTotpBody.details.reason).toBe('mfa_required');
    expect(noTotpBody.message).toContain('cred.totpSecret');
  });

  it('a provider on an origin that is not configured: 422 unexpected_identity_provider, the password never typed', async () => {
    const s = await setup({ style: 'google', users: [ALICE] }, { mode: 'redirect' }, ['https://accounts.google.com']);
    const res = await login(s, 'oauth_google', { username: ALICE.login, password: ALICE.password });
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(body.error).toBe('UNEXPECTED_IDENTITY_PROVIDER');
    expect(body.details.reason).toBe('unexpected_identity_provider');
    expect(s.idp.stats().logins + s.idp.stats().failures).toBe(0);
  });
});

describe('oauth_github', () => {
  it('redirect: sign in, two-factor with TOTP, authorize', async () => {
    const s = await setup({ style: 'github', users: [{ ...OCTO, totpSecret: TOTP_SECRET }] }, { mode: 'redirect' });
    const res = await login(s, 'oauth_github', {
      username: OCTO.login,
      password: OCTO.password,
      totpSecret: TOTP_SECRET,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(await opensProtected(s, body)).toBe(true);
  });
});
