import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/** Raw request so the Host header can be forged (fetch does not allow it). */
function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('HTTP foundation', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      server: { rateLimit: { perKeyPerSecond: 1000, perKeyBurst: 1000, unauthenticatedPerMinute: 1000 } },
    });
  });
  afterAll(() => t.close());

  it('binds 127.0.0.1 and answers /healthz without a key', async () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await t.request('/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('a valid key gets past auth: an empty POST /api/login body is a 400, not a 401', async () => {
    const res = await t.request('/api/login', { method: 'POST', json: {} });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'INVALID_REQUEST', details: expect.any(Object) });
    expect(body.message).toMatch(/cred|domain/);
  });

  it('missing, malformed, unknown and revoked keys get the same 401 in each API shape', async () => {
    const { key: revoked } = t.newOrg('revoked-org');
    const info = t.core.keys.list().find((k) => t.core.keys.authenticate(revoked)?.keyId === k.id);
    t.core.keys.revoke(info!.id);
    const bodies = new Set<string>();
    for (const key of [null, 'nonsense', `pk_${'x'.repeat(40)}`, revoked]) {
      const login = await t.request('/api/login', { method: 'POST', json: {}, key });
      expect(login.status).toBe(401);
      const lb = await login.json();
      expect(lb).toEqual({
        error: 'AUTHENTICATION_FAILED',
        message: expect.any(String),
        details: { reason: 'invalid_api_key' },
      });
      const video = await t.request('/api/credits', { key });
      expect(video.status).toBe(401);
      const vb = await video.json();
      expect(vb).toEqual({ error: 'unauthorized', message: expect.any(String) });
      bodies.add(JSON.stringify([lb, vb]));
    }
    expect(bodies.size).toBe(1);
  });

  it('a key without the scope gets 403 forbidden', async () => {
    const { key } = t.newOrg('narrow', ['templates:read']);
    const res = await t.request('/api/credits', { key });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'forbidden', message: expect.stringContaining('credits:read') });
    const login = await t.request('/api/login', { method: 'POST', json: {}, key });
    expect(login.status).toBe(403);
    expect((await login.json()).error).toBe('FORBIDDEN');
  });

  it('refuses a non-loopback Host header (DNS rebinding)', async () => {
    const evil = await rawRequest(`${t.url}/healthz`, { headers: { host: 'evil.example' } });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error).toBe('forbidden_host');
    const rebinding = await rawRequest(`${t.url}/api/credits`, {
      headers: { host: 'evil.example:4780', authorization: `Bearer ${t.key}` },
    });
    expect(rebinding.status).toBe(403);
    for (const host of ['localhost', '127.0.0.1:1', '[::1]:4780']) {
      expect((await rawRequest(`${t.url}/healthz`, { headers: { host } })).status).toBe(200);
    }
  });

  it('sends no CORS headers, even to a browser origin', async () => {
    const res = await t.request('/api/credits', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await t.request('/api/login', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rejects invalid JSON, wrong content types and oversized bodies with 4xx in the route shape', async () => {
    const bad = await t.request('/api/login', {
      method: 'POST',
      body: '{"cred":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('INVALID_REQUEST');
    const text = await t.request('/api/login', {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const big = await t.request('/api/login', {
      method: 'POST',
      body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect((await big.json()).error).toBe('PAYLOAD_TOO_LARGE');
    const notFound = await t.request('/api/nope');
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('validates the login request: domain must be a full http(s) URL, methods not built are a clear 400', async () => {
    const base = { cred: { username: 'a', password: 'b' }, loginMethod: 'password' };
    for (const domain of ['example.com', 'ftp://example.com/login', 'javascript:alert(1)', '']) {
      const res = await t.request('/api/login', { method: 'POST', json: { ...base, domain } });
      expect(res.status, domain).toBe(400);
      expect((await res.json()).message).toMatch(/domain/);
    }
    // Each method says what it needs before any browser starts.
    const needs: [string, Record<string, unknown>, string][] = [
      ['totp', { cred: { username: 'a', password: 'b' } }, 'cred.totpSecret'],
      ['otp_sms', { cred: { username: 'a' } }, 'additionalFields.phone'],
      ['magic_link', { cred: { username: 'not-an-email' } }, 'cred.username'],
      ['oauth_google', { cred: { username: 'a@example.com' } }, 'cred.password'],
      ['otp_sms', { cred: { username: 'a' }, additionalFields: { phone: '555-0100' } }, 'additionalFields.phone'],
    ];
    for (const [loginMethod, over, field] of needs) {
      const res = await t.request('/api/login', {
        method: 'POST',
        json: { loginMethod, domain: 'http://127.0.0.1:9/login', ...over },
      });
      const body = await res.json();
      expect(res.status, loginMethod).toBe(400);
      expect(body, loginMethod).toMatchObject({ error: 'INVALID_REQUEST', details: { field } });
    }
    const unknown = await t.request('/api/login', {
      method: 'POST',
      json: { ...base, loginMethod: 'carrier_pigeon', domain: 'http://127.0.0.1:9/' },
    });
    expect(unknown.status).toBe(400);
    // POST /signup is built (test/integration/login/signup/signup.test.ts): an empty body is a 400 naming the fields.
    const signup = await t.request('/signup', { method: 'POST', json: {} });
    expect(signup.status).toBe(400);
    expect(await signup.json()).toMatchObject({ error: 'INVALID_REQUEST', message: expect.stringMatching(/cred/) });
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const res = await t.request('/api/openapi.json', { key: null });
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const ref = (s: { $ref?: string; properties?: object }) =>
      s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s;
    const body = ref(doc.paths['/api/login'].post.requestBody.content['application/json'].schema);
    expect(body.properties).toHaveProperty('domain');
    expect(body.properties.cred.properties).toHaveProperty('password');
    const ok = ref(doc.paths['/api/login'].post.responses['200'].content['application/json'].schema);
    expect(Object.keys(ok.properties)).toEqual(['cookies', 'origins', 'browser']);
    expect(doc.paths['/api/login'].post.responses['401'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/LoginError',
    );
    expect(doc.paths['/login'].post).toBeDefined();
    expect(doc.paths['/api/sessions'].get['x-required-scope']).toBe('sessions:read');
    expect(doc.paths['/api/sessions/{id}'].delete).toBeDefined();
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After and rate-limit headers once a key exhausts its bucket', async () => {
    // The buckets' clock is the test's: it only moves when the test moves it, so no refill can happen while a busy
    // machine is between two requests (with the real clock a refill of one token per second let the fourth through).
    let now = 0;
    const t = await startTestServer(
      { server: { rateLimit: { perKeyPerSecond: 1, perKeyBurst: 3, unauthenticatedPerMinute: 2 } } },
      { overrides: { rateLimitNow: () => now } },
    );
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await t.request('/api/credits');
        statuses.push(last.status);
        if (i === 0) {
          expect(last.headers.get('x-ratelimit-limit')).toBe('3');
          expect(last.headers.get('x-ratelimit-remaining')).toBe('2');
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await last!.json()).error).toBe('rate_limited');
      // one second later the bucket holds one token again: one request passes, the next is refused
      now += 1000;
      expect((await t.request('/api/credits')).status).toBe(200);
      expect((await t.request('/api/credits')).status).toBe(429);
      // another key has its own bucket
      const other = t.newOrg('other');
      expect((await t.request('/api/credits', { key: other.key })).status).toBe(200);
      // bad keys share a small bucket: guessing is slowed down
      const bad = [];
      for (let i = 0; i < 3; i++) bad.push((await t.request('/api/credits', { key: 'pk_guess' })).status);
      expect(bad).toEqual([401, 401, 429]);
      // the shared bucket refills at 2 per minute: 30 s give one more guess
      now += 30_000;
      expect((await t.request('/api/credits', { key: 'pk_guess' })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('secrets stay out of the log and the database', () => {
  it('never writes API keys, passwords or auth headers to the log file or the SQLite file', async () => {
    const t = await startTestServer();
    const password = 'Sup3r-Secret-Passw0rd!';
    await t.request('/api/login', {
      method: 'POST',
      json: {
        cred: { username: 'someone@example.com', password },
        loginMethod: 'otp_email',
        domain: 'http://127.0.0.1:9/login',
      },
    });
    await t.request('/api/login', { method: 'POST', json: { cred: { username: 'x', password }, domain: 'not a url' } });
    await t.request('/api/credits', { key: `pk_${'Z'.repeat(40)}` });
    t.core.log.info(
      { authorization: `Bearer ${t.key}`, cred: { password }, nested: { password, cookies: [{ value: 'c00kie' }] } },
      'probe',
    );
    const dataDir = t.dataDir;
    await t.close();
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'agent-studio.log'), 'utf8');
    expect(log).toContain('probe');
    expect(log).toContain('"route":"/api/login"');
    for (const secret of [t.key, t.key.slice(3), password, 'c00kie', 'Z'.repeat(40)]) expect(log).not.toContain(secret);
    for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith('agent-studio.db'))) {
      const bytes = fs.readFileSync(path.join(dataDir, file));
      for (const secret of [t.key, t.key.slice(3), password])
        expect(bytes.includes(Buffer.from(secret)), `${secret} in ${file}`).toBe(false);
    }
  });
});
