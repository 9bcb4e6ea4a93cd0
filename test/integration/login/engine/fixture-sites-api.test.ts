/**
 * Every fixture site through POST /api/login, as an agent calls it (issue "round 3": never a false
 * success). A correct password answers 200 with a state that opens the protected page in a new
 * context; a wrong one answers 401 invalid_credentials after exactly one submission; the sites a
 * password alone cannot log in to never answer 200, right password or wrong. Nothing secret is in an
 * answer or in the server's log. The real-web styles are proven the same way in
 * fixture-sites-realweb.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_SITES,
  FULL_STORAGE_SITES,
  NON_LOGINABLE_SITES,
  REAL_WEB_SITES,
  startSite,
  type FixtureSite,
  type SiteName,
} from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

const WRONG_PASSWORD = 'Tr0ub4dor&3-wrong';
let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer({ login: { timeoutMs: 30_000 } }), launchTestBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function login(site: FixtureSite, password: string) {
  const res = await t.request('/api/login', {
    method: 'POST',
    json: {
      cred: { username: site.credentials.username, password },
      loginMethod: 'password',
      domain: site.loginUrl,
      additionalFields: site.credentials.additionalFields ?? {},
      useCache: false,
    },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Nothing secret in the answer or in the server's log (written synchronously, so it is complete). */
function expectNoSecrets(body: unknown, secrets: string[]): void {
  const log = fs.readFileSync(path.join(t.dataDir, 'logs', 'agent-studio.log'), 'utf8');
  for (const s of secrets.filter((x) => x.length >= 4)) {
    expect(JSON.stringify(body)).not.toContain(s);
    expect(log).not.toContain(s);
  }
}

const REAL_WEB: readonly string[] = REAL_WEB_SITES;
// The sites where a password logs in; the IndexedDB and sessionStorage ones without asking for `include`.
const LOGINABLE: SiteName[] = [
  ...ALL_SITES.filter((s) => !NON_LOGINABLE_SITES.includes(s) && !REAL_WEB.includes(s)),
  ...FULL_STORAGE_SITES,
];

describe.concurrent('POST /api/login on the fixture sites: a correct password', () => {
  it.each(LOGINABLE)('%s: 200, and the state opens the protected page', async (name: SiteName) => {
    const site = await startSite(name);
    try {
      const { status, body } = await login(site, site.credentials.password);
      expect(status, JSON.stringify(body).slice(0, 2000)).toBe(200);
      expect(await opensProtectedPage(browser, site, body)).toBe(true);
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
      expectNoSecrets({}, [site.credentials.password, ...Object.values(site.credentials.additionalFields ?? {})]);
    } finally {
      await site.close();
    }
  });
});

describe.concurrent('POST /api/login on the fixture sites: never a success that is not one', () => {
  it.each(LOGINABLE)('%s: a wrong password is 401 invalid_credentials after one attempt', async (name: SiteName) => {
    const site = await startSite(name);
    try {
      const { status, body } = await login(site, WRONG_PASSWORD);
      expect(status, JSON.stringify(body).slice(0, 2000)).toBe(401);
      expect(body).toMatchObject({ error: 'AUTHENTICATION_FAILED', details: { reason: 'invalid_credentials' } });
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
      expectNoSecrets(body, [WRONG_PASSWORD]);
    } finally {
      await site.close();
    }
  });

  it.each([
    ['captcha', 'captcha_blocked'],
    ['locked', 'account_locked'],
    ['mfa', 'mfa_required'],
  ] as const)('%s: the correct password ends in %s, a wrong one is never a 200', async (name, reason) => {
    const site = await startSite(name);
    try {
      const right = await login(site, site.credentials.password);
      expect(right.status).not.toBe(200);
      expect(right.body).toMatchObject({ details: { reason } });
      const wrong = await login(site, WRONG_PASSWORD);
      expect(wrong.status).not.toBe(200);
      expect(site.stats().successfulLogins).toBe(0);
      expectNoSecrets([right.body, wrong.body], [site.credentials.password, WRONG_PASSWORD]);
    } finally {
      await site.close();
    }
  });
});
