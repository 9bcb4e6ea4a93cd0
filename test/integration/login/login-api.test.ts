import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_SITES,
  FULL_STORAGE_SITES,
  NON_LOGINABLE_SITES,
  startSite,
  type FixtureSite,
  type SiteName,
} from '../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

type State = {
  cookies: {
    name: string;
    value: string;
    domain: string;
    expires: number;
    sameSite: string;
    httpOnly: boolean;
    secure: boolean;
    path: string;
  }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
};

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 } });
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

function login(site: FixtureSite, over: Record<string, unknown> = {}, key?: string) {
  return t.request('/api/login', {
    method: 'POST',
    key,
    json: {
      cred: { username: site.credentials.username, password: site.credentials.password },
      loginMethod: 'password',
      domain: site.loginUrl,
      additionalFields: site.credentials.additionalFields ?? {},
      ...over,
    },
  });
}

/** What an agent does with the answer: a new context from the state, then the protected page. */
const isLoggedIn = (site: FixtureSite, state: State) => opensProtectedPage(browser, site, state);

/**
 * Every fixture site where a password logs in (the IndexedDB and sessionStorage ones without asking for
 * `include`): never a 200 that is not a session, never a failure that is not the site's answer.
 */
const LOGINABLE: SiteName[] = [...ALL_SITES.filter((s) => !NON_LOGINABLE_SITES.includes(s)), ...FULL_STORAGE_SITES];

/** A fresh copy of the site for one test (the tests of all sites run concurrently). */
async function onSite(name: SiteName, fn: (site: FixtureSite) => Promise<void>): Promise<void> {
  const site = await startSite(name);
  try {
    await fn(site);
  } finally {
    await site.close();
  }
}

/** Nothing secret in the server's log (flushed first, so it is complete). */
async function expectNotInLog(secret: string): Promise<void> {
  await t.core.logger.flush();
  expect(fs.readFileSync(path.join(t.dataDir, 'logs', 'agent-studio.log'), 'utf8')).not.toContain(secret);
}

describe.concurrent.each(LOGINABLE)('POST /api/login on the %s site', (name: SiteName) => {
  it('returns a storageState that is logged in when loaded into a new context', () =>
    onSite(name, async (site) => {
      const res = await login(site, { useCache: false });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.headers.get('x-session-cache')).toBe('miss');
      // Playwright's storageState, and what the login browser presented (docs/login-service.md#bot-walls).
      expect(Object.keys(body)).toEqual(['cookies', 'origins', 'browser']);
      expect(Object.keys(body.browser).sort()).toEqual(['locale', 'timezoneId', 'userAgent']);
      expect(body.browser.userAgent).not.toMatch(/Headless/);
      for (const c of body.cookies) {
        expect(Object.keys(c).sort()).toEqual([
          'domain',
          'expires',
          'httpOnly',
          'name',
          'path',
          'sameSite',
          'secure',
          'value',
        ]);
        expect(['Strict', 'Lax', 'None']).toContain(c.sameSite);
      }
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 1 });
      expect(await isLoggedIn(site, body)).toBe(true);
      await expectNotInLog(site.credentials.password);
    }));

  it('answers a wrong password with 401 AUTHENTICATION_FAILED after exactly one submission', () =>
    onSite(name, async (site) => {
      const res = await login(site, {
        cred: { username: site.credentials.username, password: 'wrong password 123' },
        useCache: false,
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(body).toMatchObject({ error: 'AUTHENTICATION_FAILED', details: { reason: 'invalid_credentials' } });
      expect(JSON.stringify(body)).not.toContain('wrong password 123');
      await expectNotInLog('wrong password 123');
      // The 401 rests on the site's own answer to one submission (never a guess, never a retry).
      expect(site.stats()).toEqual({ loginAttempts: 1, successfulLogins: 0 });
    }));
});

describe('sites that block the login', () => {
  it.each([
    ['captcha', 422, 'CAPTCHA_BLOCKED', 'captcha_blocked'],
    ['locked', 423, 'ACCOUNT_LOCKED', 'account_locked'],
    ['mfa', 422, 'MFA_REQUIRED', 'mfa_required'],
  ] as const)('%s answers %i %s', async (name, status, error, reason) => {
    const site = await startSite(name);
    try {
      const res = await login(site, { useCache: false });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(body).toMatchObject({ error, details: { reason } });
      const wrong = await login(site, { cred: { username: site.credentials.username, password: 'wrong 123' } });
      expect(wrong.status).not.toBe(200);
      expect(site.stats().successfulLogins).toBe(0);
    } finally {
      await site.close();
    }
  });

  it('an unreachable site is 502 SITE_UNREACHABLE; a page without a login form is 422', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    const res = await t.request('/api/login', {
      method: 'POST',
      json: { cred: { username: 'a', password: 'b' }, domain: `http://127.0.0.1:${port}/login` },
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: 'SITE_UNREACHABLE', details: { reason: 'site_unreachable' } });

    const plain = http.createServer((_req, res2) =>
      res2.end('<html><body><h1>Just a blog</h1><p>No login here.</p></body></html>'),
    );
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const res2 = await t.request('/api/login', {
        method: 'POST',
        json: {
          cred: { username: 'a', password: 'b' },
          domain: `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`,
        },
      });
      expect(res2.status).toBe(422);
      expect((await res2.json()).details.reason).toBe('login_form_not_found');
    } finally {
      plain.closeAllConnections();
      await new Promise((r) => plain.close(r));
    }
  });
});

describe('session cache', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('classic-csrf');
  });
  afterAll(() => site.close());

  it('serves identical requests from the cache, per org, and useCache:false forces a fresh login', async () => {
    const first = await login(site);
    expect(first.status).toBe(200);
    const firstState = (await first.json()) as State;
    const attempts = site.stats().loginAttempts;

    const second = await login(site);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-session-cache')).toBe('hit');
    expect(second.headers.get('x-session-id')).toBe(first.headers.get('x-session-id'));
    expect(await second.json()).toEqual(firstState);
    expect(site.stats().loginAttempts).toBe(attempts);
    const listed = (await (await t.request('/api/sessions')).json()) as {
      data: { id: string; last_used_at: number | null }[];
    };
    expect(listed.data.find((e) => e.id === second.headers.get('x-session-id'))?.last_used_at).toEqual(
      expect.any(Number),
    );

    // another org never sees this org's cache
    const other = t.newOrg('cache-other-org');
    const otherRes = await login(site, {}, other.key);
    expect(otherRes.headers.get('x-session-cache')).toBe('miss');
    expect(site.stats().loginAttempts).toBe(attempts + 1);
    const otherList = await (await t.request('/api/sessions', { key: other.key })).json();
    expect(otherList.data).toHaveLength(1);

    const forced = await login(site, { useCache: false });
    expect(forced.headers.get('x-session-cache')).toBe('miss');
    expect(site.stats().loginAttempts).toBe(attempts + 2);
    // the fresh login replaced the entry
    const afterForced = await login(site);
    expect(afterForced.headers.get('x-session-cache')).toBe('hit');
    expect(afterForced.headers.get('x-session-id')).toBe(forced.headers.get('x-session-id'));
  });

  it('lists metadata without cookie values, deletes entries, and refreshes expired ones', async () => {
    const res = await login(site);
    const state = (await res.json()) as State;
    const listRes = await t.request('/api/sessions');
    const text = await listRes.text();
    const list = JSON.parse(text) as {
      data: { id: string; origin: string; username: string; cookie_names: string[]; fresh: boolean }[];
    };
    const entry = list.data.find((s) => s.id === res.headers.get('x-session-id'));
    expect(entry).toMatchObject({ origin: site.origin, username: site.credentials.username, fresh: true });
    for (const c of state.cookies) expect(text).not.toContain(c.value);

    // an entry whose auth cookies have expired is not served
    t.core.db.prepare('UPDATE login_sessions SET expires_at = ? WHERE id = ?').run(Date.now() - 1000, entry!.id);
    const expired = await login(site);
    expect(expired.headers.get('x-session-cache')).toBe('miss');
    const id = expired.headers.get('x-session-id')!;

    expect((await t.request(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.request(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await login(site)).headers.get('x-session-cache')).toBe('miss');
  });

  it('shares one browser login between concurrent identical requests (single flight)', async () => {
    const before = site.stats().successfulLogins;
    const answers = await Promise.all([1, 2, 3, 4].map(() => login(site, { useCache: false })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.headers.get('x-session-id'))).size).toBe(1);
    expect(site.stats().successfulLogins - before).toBe(1);
  });

  it('keeps cookie values encrypted at rest', async () => {
    const res = await login(site);
    const state = (await res.json()) as State;
    t.core.db.pragma('wal_checkpoint(TRUNCATE)');
    const files = fs.readdirSync(t.dataDir).filter((f) => f.startsWith('agent-studio.db'));
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(t.dataDir, f));
      for (const c of state.cookies.filter((c) => c.value.length >= 8))
        expect(bytes.includes(Buffer.from(c.value)), `${c.name} in ${f}`).toBe(false);
      expect(bytes.includes(Buffer.from(site.credentials.password))).toBe(false);
      expect(bytes.includes(Buffer.from(site.credentials.username))).toBe(false);
    }
    await t.core.logger.flush();
    const log = fs.readFileSync(path.join(t.dataDir, 'logs', 'agent-studio.log'), 'utf8');
    expect(log).not.toContain(site.credentials.password);
    for (const c of state.cookies.filter((c) => c.value.length >= 8)) expect(log).not.toContain(c.value);
  });
});
