// Session lifecycle (docs/login-service.md#session-lifecycle): POST /refresh with stored credentials, POST
// /api/sessions/:id/validate on the site, background health checks. Real server, real fixture sites,
// real Chromium; a session is killed the way a user would kill it: the site's own sign-out.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

interface State {
  cookies: { name: string; value: string }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}
interface Summary {
  id: string;
  status: string;
  fresh: boolean;
  last_checked_at: number | null;
  health_check_interval_sec: number | null;
  next_check_at: number | null;
  stored_credentials: boolean;
}

let t: TestServer;
let browser: Browser;
let site: FixtureSite;
let spa: FixtureSite;
let orgCount = 0;

beforeAll(async () => {
  [t, browser, site, spa] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000 } }),
    launchTestBrowser(),
    startSite('classic-csrf'),
    startSite('spa-localstorage'),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), site?.close(), spa?.close()]);
  await t?.close();
});

/** Each test has its own organization: its cache entries and stored credentials are its own. */
function newKey(): string {
  return t.newOrg(`lifecycle-${++orgCount}`).key;
}

function login(key: string, s: FixtureSite, over: Record<string, unknown> = {}) {
  return t.request('/api/login', {
    method: 'POST',
    key,
    json: {
      cred: { username: s.credentials.username, password: s.credentials.password },
      domain: s.loginUrl,
      useCache: false,
      ...over,
    },
  });
}

async function loggedIn(key: string, s: FixtureSite, over: Record<string, unknown> = {}) {
  const res = await login(key, s, over);
  const body = (await res.json()) as State;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { state: body, id: res.headers.get('x-session-id')! };
}

const refresh = (key: string, s: FixtureSite, over: Record<string, unknown> = {}) =>
  t.request('/refresh', {
    method: 'POST',
    key,
    json: { domain: s.loginUrl, username: s.credentials.username, ...over },
  });

const validate = (key: string, id: string) =>
  t.request(`/api/sessions/${encodeURIComponent(id)}/validate`, { method: 'POST', key });

async function sessions(key: string): Promise<Summary[]> {
  const res = await t.request('/api/sessions', { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Summary[] }).data;
}

/** Saved logins' secrets: storeCredentials keeps a login's credentials as a saved login (docs/saved-logins.md#storecredentials-an-inline-logins-credentials-kept). */
const storedAccounts = () => t.core.secrets.listAccounts('saved-login:');

/** Signs the session out on the site itself (classic-csrf: GET /logout with its cookie). */
async function signOutCookieSite(state: State): Promise<void> {
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await fetch(`${site.origin}/logout`, { headers: { cookie }, redirect: 'manual' });
  expect(res.status).toBe(302);
  // the site now sends these cookies to its sign-in page
  const account = await fetch(site.protectedUrl, { headers: { cookie }, redirect: 'manual' });
  expect(account.status).toBe(302);
  expect(account.headers.get('location')).toMatch(/^\/login/);
}

/** spa-localstorage keeps a bearer token in localStorage; DELETE /api/session revokes it. */
async function signOutSpa(state: State): Promise<void> {
  const token = state.origins.flatMap((o) => o.localStorage).find((i) => i.name === 'auth_token')?.value;
  expect(token).toBeTruthy();
  const authorization = `Bearer ${token}`;
  await fetch(`${spa.origin}/api/session`, { method: 'DELETE', headers: { authorization } });
  expect((await fetch(`${spa.origin}/api/me`, { headers: { authorization } })).status).toBe(401);
}

describe('POST /refresh', () => {
  it('returns a session that still works as it is (still-valid), without logging in', async () => {
    const key = newKey();
    const first = await loggedIn(key, site, { storeCredentials: true });
    const [entry] = await sessions(key);
    expect(entry).toMatchObject({ id: first.id, status: 'unchecked', stored_credentials: true, last_checked_at: null });
    const attempts = site.stats().loginAttempts;

    const res = await refresh(key, site);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('x-session-refresh')).toBe('still-valid');
    expect(res.headers.get('x-session-id')).toBe(first.id);
    expect(await res.json()).toEqual(first.state);
    expect(site.stats().loginAttempts).toBe(attempts);
    const [after] = await sessions(key);
    expect(after).toMatchObject({ id: first.id, status: 'valid', last_checked_at: expect.any(Number) });
  });

  it('logs in again with the stored credentials when the site ended the session (renewed)', async () => {
    const key = newKey();
    const first = await loggedIn(key, site, { storeCredentials: true });
    await signOutCookieSite(first.state);
    const attempts = site.stats().loginAttempts;

    const res = await refresh(key, site, { domain: `${site.origin}/any/page/of/the/site` });
    const state = (await res.json()) as State;
    expect(res.status, JSON.stringify(state)).toBe(200);
    expect(res.headers.get('x-session-refresh')).toBe('renewed');
    const renewedId = res.headers.get('x-session-id')!;
    expect(renewedId).not.toBe(first.id);
    expect(site.stats().loginAttempts).toBe(attempts + 1);
    expect(await opensProtectedPage(browser, site, state)).toBe(true);

    const list = await sessions(key);
    expect(list.map((s) => s.id)).toEqual([renewedId]);
    expect(list[0]).toMatchObject({ status: 'renewed', stored_credentials: true, fresh: true });
    // the renewed entry is what a cached login gets now
    const cached = await login(key, site, { useCache: true });
    expect(cached.headers.get('x-session-cache')).toBe('hit');
    expect(cached.headers.get('x-session-id')).toBe(renewedId);
    // force logs in again even though the session works
    const forced = await refresh(key, site, { force: true });
    expect(forced.status).toBe(200);
    expect(forced.headers.get('x-session-refresh')).toBe('renewed');
    expect(site.stats().loginAttempts).toBe(attempts + 2);
  });

  it('answers 409 NO_STORED_CREDENTIALS without stored credentials, 404 without a session, 400 for bad input', async () => {
    const key = newKey();
    await loggedIn(key, site);
    const res = await refresh(key, site);
    const body = (await res.json()) as { error: string; message: string; details: object };
    expect(res.status).toBe(409);
    expect(body).toMatchObject({ error: 'NO_STORED_CREDENTIALS', details: {} });
    expect(body.message).toMatch(/storeCredentials/);

    const unknown = await refresh(key, site, { username: 'nobody@example.com' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'NOT_FOUND', details: { origin: site.origin } });
    const otherMethod = await refresh(key, site, { loginMethod: 'otp_email' });
    expect(otherMethod.status).toBe(404);

    const noUser = await t.request('/api/refresh', { method: 'POST', key, json: { domain: site.loginUrl } });
    expect(noUser.status).toBe(400);
    expect(await noUser.json()).toMatchObject({ error: 'INVALID_REQUEST' });
    const badDomain = await refresh(key, site, { domain: 'ftp://example.com' });
    expect(badDomain.status).toBe(400);
  });

  it('forgets stored credentials on a login with storeCredentials false, and keeps them when it is omitted', async () => {
    const key = newKey();
    const before = (await storedAccounts()).length;
    await loggedIn(key, site, { storeCredentials: true });
    expect(await storedAccounts()).toHaveLength(before + 1);
    // omitted: a fresh login keeps them (and the schedule of the identity)
    await loggedIn(key, site);
    expect((await sessions(key))[0].stored_credentials).toBe(true);
    expect(await storedAccounts()).toHaveLength(before + 1);

    const hit = await login(key, site, { useCache: true, storeCredentials: false });
    expect(hit.headers.get('x-session-cache')).toBe('hit');
    expect((await sessions(key))[0].stored_credentials).toBe(false);
    expect(await storedAccounts()).toHaveLength(before);
    expect((await refresh(key, site)).status).toBe(409);
  });

  it('DELETE /api/sessions/:id forgets the stored credentials too', async () => {
    const key = newKey();
    const before = (await storedAccounts()).length;
    const { id } = await loggedIn(key, site, { storeCredentials: true });
    expect(await storedAccounts()).toHaveLength(before + 1);
    expect((await t.request(`/api/sessions/${id}`, { method: 'DELETE', key })).status).toBe(204);
    expect(await storedAccounts()).toHaveLength(before);
    expect((await refresh(key, site)).status).toBe(404);
  });

  it('keeps the password out of the database, its WAL and the log', async () => {
    const key = newKey();
    const { state } = await loggedIn(key, site, {
      storeCredentials: true,
      checkUrl: `${site.origin}/account?t=s3cr3t-q`,
    });
    expect((await refresh(key, site)).status).toBe(200);
    t.core.db.pragma('wal_checkpoint(TRUNCATE)');
    const files = fs.readdirSync(t.dataDir).filter((f) => f.startsWith('agent-studio.db'));
    expect(files.length).toBeGreaterThan(0);
    // The username is a saved login's metadata (listed by GET /api/credentials); the password never is.
    const secrets = [site.credentials.password, 's3cr3t-q'];
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(t.dataDir, f));
      for (const s of secrets) expect(bytes.includes(Buffer.from(s)), `${s} in ${f}`).toBe(false);
      for (const c of state.cookies.filter((c) => c.value.length >= 8))
        expect(bytes.includes(Buffer.from(c.value)), `${c.name} in ${f}`).toBe(false);
    }
    await t.core.logger.flush();
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    for (const s of [site.credentials.password, 's3cr3t-q']) expect(log).not.toContain(s);
  });
});

describe('POST /api/sessions/:id/validate', () => {
  it('reports a working session valid, then drops it once the site ended it', async () => {
    const key = newKey();
    const { id, state } = await loggedIn(key, site);
    const ok = await validate(key, id);
    const okBody = await ok.json();
    expect(ok.status, JSON.stringify(okBody)).toBe(200);
    expect(okBody).toMatchObject({
      session_id: id,
      valid: true,
      status: 'valid',
      checked_url: `${site.origin}/account`,
      dropped: false,
      checked_at: expect.any(Number),
    });
    expect(okBody.evidence).toEqual(expect.arrayContaining([`opened ${site.origin}/account: HTTP 200`]));
    expect((await sessions(key))[0]).toMatchObject({ status: 'valid', last_checked_at: okBody.checked_at });

    await signOutCookieSite(state);
    const dead = await validate(key, id);
    const deadBody = await dead.json();
    expect(dead.status).toBe(200);
    expect(deadBody).toMatchObject({ valid: false, status: 'invalid', dropped: true });
    expect(deadBody.evidence.join('\n')).toMatch(/ended on .*\/login, which looks like a sign-in page/);
    expect(deadBody.evidence.join('\n')).toMatch(/password login form/);
    expect(await sessions(key)).toEqual([]);
    expect((await validate(key, id)).status).toBe(404);
  });

  it('keeps a dead session with stored credentials as invalid: never served from the cache', async () => {
    const key = newKey();
    const { id, state } = await loggedIn(key, site, { storeCredentials: true });
    await signOutCookieSite(state);
    const body = await (await validate(key, id)).json();
    expect(body).toMatchObject({ valid: false, dropped: false, status: 'invalid' });
    expect((await sessions(key))[0]).toMatchObject({ id, status: 'invalid', fresh: false });
    const again = await login(key, site, { useCache: true });
    expect(again.headers.get('x-session-cache')).toBe('miss');
    expect(await opensProtectedPage(browser, site, await again.json())).toBe(true);
  });

  it('opens the checkUrl the login chose', async () => {
    const key = newKey();
    // a page that never works logged in: the check must have opened it to find it dead
    const { id } = await loggedIn(key, site, { checkUrl: `${site.origin}/login` });
    const body = await (await validate(key, id)).json();
    expect(body).toMatchObject({ checked_url: `${site.origin}/login`, valid: false, dropped: true });
  });

  it('calls a 4xx page dead; a site that does not answer (or answers 5xx) is 502 and the session is kept', async () => {
    const key = newKey();
    const missing = await loggedIn(key, site, { checkUrl: `${site.origin}/no-such-page` });
    const gone = await (await validate(key, missing.id)).json();
    expect(gone).toMatchObject({ valid: false, dropped: true });
    expect(gone.evidence).toContain('the page answered 404');

    const failing = http.createServer((_req, res) => res.writeHead(503).end('maintenance'));
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
    const port = (failing.address() as AddressInfo).port;
    try {
      const { id } = await loggedIn(key, site, { checkUrl: `http://127.0.0.1:${port}/account` });
      const res = await validate(key, id);
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ error: 'SITE_UNREACHABLE', details: { reason: 'site_unreachable' } });
      expect((await sessions(key)).map((s) => s.id)).toEqual([id]);
    } finally {
      failing.closeAllConnections();
      await new Promise((r) => failing.close(r));
    }
    const closed = await (await validate(key, (await sessions(key))[0].id)).json();
    expect(closed).toMatchObject({ error: 'SITE_UNREACHABLE' });
    expect(closed.message).toMatch(/could not reach|did not load/);
  });

  it('checks a single-page app whose session is a localStorage token', async () => {
    const key = newKey();
    const { id, state } = await loggedIn(key, spa);
    expect(await (await validate(key, id)).json()).toMatchObject({ valid: true, checked_url: `${spa.origin}/app` });
    await signOutSpa(state);
    const body = await (await validate(key, id)).json();
    expect(body).toMatchObject({ valid: false, dropped: true });
    expect(body.evidence.join('\n')).toMatch(/sign-in link and no sign-out control/);
  });

  it('is scoped: 404 for another organization, 403 without sessions:write', async () => {
    const key = newKey();
    const { id } = await loggedIn(key, site);
    expect((await validate(newKey(), id)).status).toBe(404);
    const readOnly = t.newOrg(`lifecycle-ro-${++orgCount}`, ['sessions:read']).key;
    expect((await validate(readOnly, id)).status).toBe(403);
  });
});

describe('health checks', () => {
  it('validates due sessions, renews dead ones with stored credentials and drops the others', async () => {
    const key = newKey();
    const tooShort = await login(key, site, { healthCheckIntervalSec: 30 });
    expect(tooShort.status).toBe(400);

    const withCreds = await loggedIn(key, site, { storeCredentials: true, healthCheckIntervalSec: 60 });
    const withoutCreds = await loggedIn(key, spa, { healthCheckIntervalSec: 60 });
    const listed = await sessions(key);
    for (const s of listed) {
      expect(s.health_check_interval_sec).toBe(60);
      expect(s.next_check_at! - Date.now()).toBeGreaterThan(50_000);
    }
    // nothing is due yet
    expect((await t.core.login.lifecycle.healthChecks.runDueChecks()).checked).toBe(0);

    // a minute later both still work
    const first = await t.core.login.lifecycle.healthChecks.runDueChecks(Date.now() + 61_000);
    expect(first).toMatchObject({ checked: 2, valid: 2 });
    for (const s of await sessions(key))
      expect(s).toMatchObject({ status: 'valid', last_checked_at: expect.any(Number) });

    // both sites end their sessions
    await signOutCookieSite(withCreds.state);
    await signOutSpa(withoutCreds.state);
    const second = await t.core.login.lifecycle.healthChecks.runDueChecks(Date.now() + 61_000);
    expect(second).toMatchObject({ checked: 2, renewed: 1, dropped: 1 });
    const after = await sessions(key);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'renewed', health_check_interval_sec: 60, stored_credentials: true });
    expect(after[0].id).not.toBe(withCreds.id);
    const renewed = await login(key, site, { useCache: true });
    expect(renewed.headers.get('x-session-id')).toBe(after[0].id);
    expect(await opensProtectedPage(browser, site, await renewed.json())).toBe(true);
  });

  it('the timer runs a check when one is due', async () => {
    const key = newKey();
    const { id, state } = await loggedIn(key, site, { storeCredentials: true, healthCheckIntervalSec: 60 });
    await signOutCookieSite(state);
    // make it due now (as if a minute had passed) and tell the timer
    t.core.db.prepare('UPDATE login_sessions SET next_check_at = ? WHERE id = ?').run(Date.now() - 1, id);
    t.core.login.lifecycle.healthChecks.scheduleChanged();
    await vi.waitFor(
      async () => {
        const [entry] = await sessions(key);
        expect(entry).toMatchObject({ status: 'renewed' });
        expect(entry.id).not.toBe(id);
      },
      { timeout: 30_000, interval: 200 },
    );
  });

  it('a login can turn the checks off with healthCheckIntervalSec null', async () => {
    const key = newKey();
    await loggedIn(key, site, { healthCheckIntervalSec: 120 });
    expect((await sessions(key))[0].next_check_at).toEqual(expect.any(Number));
    await login(key, site, { useCache: true, healthCheckIntervalSec: null });
    expect((await sessions(key))[0]).toMatchObject({ health_check_interval_sec: null, next_check_at: null });
  });
});
