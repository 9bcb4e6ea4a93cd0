import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPasskeySite, type PasskeySite } from '../../../fixtures/sites/passkey.site.js';
import type { FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { makePasskey, savePasskeyLogin } from './passkey-kit.js';

type Json = Record<string, unknown>;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The agent's check on the passkey site (opensProtectedPage reads its protected URL and signed-in text). */
const opens = (site: PasskeySite, state: unknown) => opensProtectedPage(browser, site as unknown as FixtureSite, state);

async function login(credential: string, extra: Json = {}): Promise<{ status: number; body: Json }> {
  const res = await server.request('/api/login', {
    method: 'POST',
    json: { credential, useCache: false, ...extra },
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** A fresh passkey site for one test, torn down after it. */
async function withSite(fn: (site: PasskeySite) => Promise<void>): Promise<void> {
  const site = await startPasskeySite();
  try {
    await fn(site);
  } finally {
    await site.close();
  }
}

describe('loginMethod "passkey" with a saved login', () => {
  it('signs in with the "Sign in with a passkey" button (the password form beside it is not used)', () =>
    withSite(async (site) => {
      const id = await savePasskeyLogin(server, site, site.loginUrls.button, [makePasskey(site)]);
      const { status, body } = await login(id);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(site.stats()).toMatchObject({ passkeySignIns: 1, passwordSignIns: 0 });
      expect(await opens(site, body)).toBe(true);
    }));

  it('answers a conditional-UI (autofill) request the page makes at load', () =>
    withSite(async (site) => {
      const id = await savePasskeyLogin(server, site, site.loginUrls.autofill, [makePasskey(site)]);
      const { status, body } = await login(id);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(site.stats()).toMatchObject({ passkeySignIns: 1, passwordSignIns: 0 });
      expect(await opens(site, body)).toBe(true);
    }));

  it('types the username first, then answers the passkey prompt the site shows for that account', () =>
    withSite(async (site) => {
      const id = await savePasskeyLogin(server, site, site.loginUrls.identifier, [makePasskey(site)]);
      const { status, body } = await login(id);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(site.stats()).toMatchObject({ passkeySignIns: 1, passwordSignIns: 0 });
      expect(await opens(site, body)).toBe(true);
    }));

  it('signs in with the password, then with the passkey as the second factor', () =>
    withSite(async (site) => {
      const id = await savePasskeyLogin(server, site, site.loginUrls['second-factor'], [makePasskey(site)], {
        password: true,
      });
      const { status, body } = await login(id);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(site.stats()).toMatchObject({ passkeySignIns: 1 });
      expect(await opens(site, body)).toBe(true);
    }));

  it('uses the saved password where the site falls back to one (no passkey for the account there)', () =>
    withSite(async (site) => {
      const id = await savePasskeyLogin(
        server,
        site,
        site.loginUrls.identifier,
        [makePasskey(site, { register: false })],
        {
          password: true,
        },
      );
      const { status, body } = await login(id);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(site.stats()).toMatchObject({ passkeySignIns: 0, passwordSignIns: 1 });
      expect(await opens(site, body)).toBe(true);
    }));

  it('keeps the signature counter: two logins in a row pass, a copy with the old counter is refused', () =>
    withSite(async (site) => {
      const passkey = makePasskey(site);
      const id = await savePasskeyLogin(server, site, site.loginUrls.button, [passkey]);
      for (let i = 1; i <= 2; i++) {
        const { status, body } = await login(id);
        expect(status, JSON.stringify(body)).toBe(200);
        expect(await opens(site, body)).toBe(true);
        expect(site.passkeys()[0].counter).toBe(i);
      }
      expect(site.stats().refused).toEqual([]);
      // The same passkey as it was before its first use (counter 0): the RP refuses a counter that does not increase.
      const stale = await savePasskeyLogin(server, site, site.loginUrls.button, [passkey]);
      const { status, body } = await login(stale);
      expect(status, JSON.stringify(body)).toBe(401);
      expect(body.error).toBe('AUTHENTICATION_FAILED');
      expect(site.stats().refused.join(' ')).toMatch(/counter/i);
    }));

  it('does not use a passkey whose RP ID is not the site’s: 422 CREDENTIAL_ORIGIN_MISMATCH, nothing sent', () =>
    withSite(async (site) => {
      const id = await savePasskeyLogin(server, site, site.loginUrls.button, [
        makePasskey(site, { rpId: 'example.com' }),
      ]);
      const { status, body } = await login(id);
      expect(status, JSON.stringify(body)).toBe(422);
      expect(body.error).toBe('CREDENTIAL_ORIGIN_MISMATCH');
      expect(body.message).toMatch(/example\.com/);
      expect(site.stats()).toMatchObject({ passkeySignIns: 0, passwordSignIns: 0, refused: [] });
    }));

  it('shows a saved login’s passkeys as metadata only; an inline login with loginMethod passkey is a 400', () =>
    withSite(async (site) => {
      const passkey = makePasskey(site);
      const id = await savePasskeyLogin(server, site, site.loginUrls.button, [passkey]);
      const res = await server.request(`/api/credentials/${id}`);
      const saved = (await res.json()) as Json;
      expect(saved.passkeys).toEqual([
        { rp_id: site.rpId, credential_id: passkey.credentialId, created_at: passkey.createdAt },
      ]);
      expect(JSON.stringify(saved)).not.toContain(passkey.privateKey.slice(20, 60));
      const inline = await server.request('/api/login', {
        method: 'POST',
        json: { domain: site.loginUrl, loginMethod: 'passkey', cred: { username: site.credentials.username } },
      });
      expect(inline.status).toBe(400);
      expect(((await inline.json()) as Json).message).toMatch(/credential/);
    }));
});
