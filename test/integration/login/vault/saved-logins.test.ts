// Saved logins (docs/saved-logins.md): the vault's HTTP API, login by reference, sharing per key, the use log,
// and the origin check that keeps a saved login's secrets off every page outside its origins.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { opensProtectedPage, useSiteBrowser } from '../../../helpers/browser.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

let t: TestServer;
let site: FixtureSite;
const { browser } = useSiteBrowser();

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 } });
  site = await startSite('classic-csrf');
});
afterAll(async () => {
  await site?.close();
  await t?.close();
});

type Json = Record<string, unknown>;
const post = (path: string, json: unknown, key?: string) => t.request(path, { method: 'POST', json, key });
const body = async (res: Response) => (await res.json()) as Json;

async function save(over: Json = {}, key?: string): Promise<Json> {
  const res = await post(
    '/api/credentials',
    {
      label: `classic ${Math.random().toString(36).slice(2, 8)}`,
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
      ...over,
    },
    key,
  );
  const saved = await body(res);
  expect(res.status, JSON.stringify(saved)).toBe(201);
  return saved;
}

describe('the saved-login API', () => {
  it('saves a login, lists and gets it by id or label, and never answers a secret', async () => {
    const saved = await save({
      label: 'Classic shop',
      notes: 'recovery: 1234-5678',
      additionalFields: { pin: '9931' },
    });
    expect(saved).toMatchObject({
      id: expect.stringMatching(/^cred_/),
      label: 'Classic shop',
      loginUrl: site.loginUrl,
      origins: [site.origin],
      loginMethod: 'password',
      username: site.credentials.username,
      secrets: ['password', 'additionalFields', 'notes'],
      additionalFieldNames: ['pin'],
      shareWith: 'all',
      source: 'api',
      last_used_at: null,
    });
    const texts = [
      JSON.stringify(saved),
      await (await t.request('/api/credentials')).text(),
      await (await t.request('/api/credentials/Classic%20shop')).text(),
      await (await t.request(`/api/credentials/${saved.id as string}`)).text(),
    ];
    for (const text of texts) {
      expect(text).toContain(saved.id as string);
      for (const secret of [site.credentials.password, '1234-5678', '9931']) expect(text).not.toContain(secret);
    }
    // labels are unique per organization, case-insensitively
    const again = await post('/api/credentials', { label: 'classic SHOP', loginUrl: site.loginUrl, password: 'x' });
    expect(again.status).toBe(409);
    expect(await body(again)).toMatchObject({ error: 'CREDENTIAL_EXISTS' });
    // another organization does not see it
    const other = t.newOrg('other-org');
    expect((await t.request('/api/credentials/Classic%20shop', { key: other.key })).status).toBe(404);
    expect(await body(await t.request('/api/credentials', { key: other.key }))).toEqual({ data: [] });
  });

  it('refuses a saved login that could never log in, with the field named', async () => {
    const noPassword = await post('/api/credentials', { label: 'np', loginUrl: site.loginUrl, username: 'a' });
    expect(noPassword.status).toBe(400);
    expect(await body(noPassword)).toMatchObject({ error: 'INVALID_REQUEST', details: { field: 'password' } });
    const badTotp = await post('/api/credentials', {
      label: 'bt',
      loginUrl: site.loginUrl,
      password: 'p',
      totpSecret: 'not base32 !!',
    });
    expect(await body(badTotp)).toMatchObject({ error: 'INVALID_REQUEST', details: { field: 'totpSecret' } });
    const badOrigin = await post('/api/credentials', {
      label: 'bo',
      loginUrl: site.loginUrl,
      password: 'p',
      origins: ['ftp://example.com'],
    });
    expect(badOrigin.status).toBe(400);
    const userinfo = await post('/api/credentials', {
      label: 'ui',
      loginUrl: 'https://ada:hunter2-Xy@app.example.com/login',
      password: 'p',
    });
    expect(userinfo.status).toBe(400);
    expect(await userinfo.text()).not.toContain('hunter2-Xy');
    const strangerKey = await post('/api/credentials', {
      label: 'sk',
      loginUrl: site.loginUrl,
      password: 'p',
      shareWith: [t.core.keys.authenticate(t.newOrg('stranger').key)!.keyId],
    });
    expect(await body(strangerKey)).toMatchObject({ error: 'INVALID_REQUEST', details: { field: 'shareWith' } });
  });

  it('PATCH changes only what is given; null removes a secret; DELETE removes the secrets too', async () => {
    const saved = await save({ notes: 'n1' });
    const id = saved.id as string;
    const patched = await body(
      await t.request(`/api/credentials/${id}`, { method: 'PATCH', json: { notes: null, username: 'someone' } }),
    );
    expect(patched).toMatchObject({ id, username: 'someone', secrets: ['password'] });
    expect(await t.core.secrets.get(`saved-login:${id}`)).not.toBeNull();
    expect((await t.request(`/api/credentials/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await t.core.secrets.get(`saved-login:${id}`)).toBeNull();
    expect((await t.request(`/api/credentials/${id}`)).status).toBe(404);
  });

  it('needs credentials:read to list and credentials:write to save', async () => {
    const reader = t.core.keys.create(t.orgId, { scopes: ['credentials:read'] }).key;
    expect((await t.request('/api/credentials', { key: reader })).status).toBe(200);
    expect(
      (await post('/api/credentials', { label: 'x', loginUrl: site.loginUrl, password: 'p' }, reader)).status,
    ).toBe(403);
    const loginOnly = t.core.keys.create(t.orgId, { scopes: ['login:write'] }).key;
    expect((await t.request('/api/credentials', { key: loginOnly })).status).toBe(403);
  });
});

describe('login by reference', () => {
  it('logs in with a saved login by label; the state opens the protected page; the use is logged', async () => {
    const saved = await save();
    const keyId = t.core.keys.authenticate(t.key)!.keyId;
    const res = await post('/api/login', { credential: saved.label, useCache: false });
    const state = await body(res);
    expect(res.status, JSON.stringify(state)).toBe(200);
    expect(await opensProtectedPage(browser(), site, state as never)).toBe(true);
    const sessionId = res.headers.get('x-session-id');
    const sessions = (await body(await t.request('/api/sessions'))).data as Json[];
    expect(sessions.find((s) => s.id === sessionId)).toMatchObject({
      credential_id: saved.id,
      stored_credentials: true,
    });
    const uses = (await body(await t.request(`/api/credentials/${saved.id as string}/uses`))).data as Json[];
    expect(uses[0]).toMatchObject({ keyId, endpoint: 'login', outcome: 'success', origin: site.origin });
    expect((await body(await t.request(`/api/credentials/${saved.id as string}`))).last_used_at).toEqual(
      expect.any(Number),
    );
    // the same saved login again: a cache hit, with the same session
    const hit = await post('/api/login', { credential: saved.id });
    expect(hit.headers.get('x-session-cache')).toBe('hit');
    expect(hit.headers.get('x-session-id')).toBe(sessionId);
  });

  it('cred and credential together, or neither, is a 400 naming the field', async () => {
    const both = await body(
      await post('/api/login', { credential: 'x', cred: { username: 'a', password: 'b' }, domain: site.loginUrl }),
    );
    expect(both).toMatchObject({ error: 'INVALID_REQUEST' });
    expect(both.message).toContain('credential');
    const neither = await body(await post('/api/login', { domain: site.loginUrl }));
    expect(neither).toMatchObject({ error: 'INVALID_REQUEST' });
    expect(neither.message).toContain('cred');
    expect((await post('/api/login', { credential: 'no such login' })).status).toBe(404);
  });

  it('a key the saved login is not shared with gets 403 CREDENTIAL_NOT_SHARED; sharing it lets the key in', async () => {
    const agent = t.core.keys.create(t.orgId, { scopes: ['login:write'] });
    const saved = await save({ shareWith: [] });
    const refused = await post('/api/login', { credential: saved.label, useCache: false }, agent.key);
    expect(refused.status).toBe(403);
    expect(await body(refused)).toMatchObject({ error: 'CREDENTIAL_NOT_SHARED' });
    const attempts = site.stats().loginAttempts;
    await t.request(`/api/credentials/${saved.id as string}`, {
      method: 'PATCH',
      json: { shareWith: [agent.info.id] },
    });
    const allowed = await post('/api/login', { credential: saved.label, useCache: false }, agent.key);
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    expect(site.stats().loginAttempts).toBe(attempts + 1);
    const uses = (await body(await t.request(`/api/credentials/${saved.id as string}/uses`))).data as Json[];
    expect(uses.map((u) => u.outcome)).toEqual(['success']);
  });

  it('a failed login by reference is logged with its error code, and answers without the secret', async () => {
    const saved = await save({ password: 'wrong-pass-Zq81' });
    const res = await post('/api/login', { credential: saved.label, useCache: false });
    const text = await res.text();
    expect(res.status).toBe(401);
    expect(text).not.toContain('wrong-pass-Zq81');
    const uses = (await body(await t.request(`/api/credentials/${saved.id as string}/uses`))).data as Json[];
    expect(uses[0]).toMatchObject({ endpoint: 'login', outcome: 'AUTHENTICATION_FAILED' });
  });
});

describe('the origin check', () => {
  let lookalike: http.Server;
  let lookalikeOrigin: string;
  beforeAll(async () => {
    // A page on an origin of its own that sends the browser on to a site on another origin (a look-alike).
    lookalike = http.createServer((_req, res) => {
      res.writeHead(302, { location: site.loginUrl }).end();
    });
    await new Promise<void>((resolve) => lookalike.listen(0, '127.0.0.1', resolve));
    lookalikeOrigin = `http://127.0.0.1:${(lookalike.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => lookalike.close(() => resolve())));

  it('stops before typing on a page outside the saved login’s origins: 422, and that server sees no password', async () => {
    const saved = await save({ loginUrl: `${lookalikeOrigin}/login` });
    expect(saved.origins).toEqual([lookalikeOrigin]);
    const attempts = site.stats().loginAttempts;
    const res = await post('/api/login', { credential: saved.label, useCache: false });
    const answer = await body(res);
    expect(res.status, JSON.stringify(answer)).toBe(422);
    expect(answer).toMatchObject({
      error: 'CREDENTIAL_ORIGIN_MISMATCH',
      details: { reason: 'credential_origin_mismatch' },
    });
    expect(answer.message).toContain(site.origin);
    expect(site.stats().loginAttempts).toBe(attempts);
    // the site's own origin added (a move: the request carries the secret, see vault-who-may-move.test.ts): it logs in
    await t.request(`/api/credentials/${saved.id as string}`, {
      method: 'PATCH',
      json: { origins: [lookalikeOrigin, site.origin], password: site.credentials.password },
    });
    const ok = await post('/api/login', { credential: saved.label, useCache: false });
    expect(ok.status, await ok.clone().text()).toBe(200);
  });

  it('checks the frame: a sign-in form in another origin’s iframe needs that origin in the list', async () => {
    const framed = await startSite('cross-origin-iframe');
    try {
      const widgetOrigin = `http://localhost:${new URL(framed.origin).port}`;
      const saved = await save({
        loginUrl: framed.loginUrl,
        username: framed.credentials.username,
        password: framed.credentials.password,
      });
      const refused = await body(await post('/api/login', { credential: saved.label, useCache: false }));
      expect(refused).toMatchObject({ error: 'CREDENTIAL_ORIGIN_MISMATCH' });
      expect(refused.message).toContain(widgetOrigin);
      expect(framed.stats().loginAttempts).toBe(0);
      await t.request(`/api/credentials/${saved.id as string}`, {
        method: 'PATCH',
        json: { origins: [framed.origin, widgetOrigin], password: framed.credentials.password },
      });
      const res = await post('/api/login', { credential: saved.label, useCache: false });
      expect(res.status, await res.clone().text()).toBe(200);
    } finally {
      await framed.close();
    }
  });
});
