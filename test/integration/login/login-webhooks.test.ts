// Login events as Standard Webhooks to the organization's login webhook URL (docs/person-in-the-loop.md#login-webhooks): a real
// server and Chromium log in to the fixture sites; a real receiver on 127.0.0.1 verifies every POST with the public
// `standardwebhooks` package and the secret GET /api/webhooks/secret shows. Deliveries run on the server's own job
// queue with a short retry schedule.
import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  LoginWebhookEventSchema,
  type LoginWebhookDeliveryList,
  type LoginWebhookEvent,
} from '../../../src/shared/login-webhooks.schema.js';
import { startCaptcha } from '../../fixtures/sites/captcha.site.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { errorShapeProblem } from '../../helpers/error-shape.js';
import { loopbackHooks } from '../../helpers/outbound-names.js';
import { waitForEnd, waitForTakeoverUrl } from '../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { startReceiver, type Answer, type ReceivedHook, type Receiver } from '../../helpers/webhooks-harness.js';

let t: TestServer;
let csrf: FixtureSite;
let captcha: FixtureSite;
/** Every receiver token and takeover token handed out: none may reach the log, the database or an answer. */
const secrets: string[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Retries 0.2 s apart (the generation webhook tests do the same): a retry is seen without a long wait.
  t = await startTestServer({ webhooks: { retryScheduleSec: [0, 0.2, 0.2] } });
  csrf = await startSite('classic-csrf');
  captcha = await startCaptcha({ personCanSolve: true });
});
afterEach(async () => {
  // The next test starts with no URL set, so an event of this one can only go to this one's receiver.
  await t.request('/api/webhooks/login', { method: 'DELETE' });
  await t.core.loginWebhooks.service.idle();
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await Promise.all([csrf?.close(), captcha?.close()]);
  await t?.close();
});

async function receiver(answer?: (n: number, hook: ReceivedHook) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  secrets.push(r.token);
  return r;
}

async function json<T = Record<string, unknown>>(res: Response): Promise<{ status: number; body: T }> {
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** PUT /api/webhooks/login; expects 200. */
async function setHook(url: string, key?: string): Promise<{ url: string | null; updated_at: number | null }> {
  const res = await json<{ url: string | null; updated_at: number | null }>(
    await t.request('/api/webhooks/login', { method: 'PUT', json: { url }, key }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function signingSecret(key?: string): Promise<string> {
  return (await json<{ secret: string }>(await t.request('/api/webhooks/secret', { key }))).body.secret;
}

/** Verifies the hook with the public package and the organization's secret; the body, parsed by its schema. */
function verified(secret: string, hook: ReceivedHook): LoginWebhookEvent {
  return LoginWebhookEventSchema.parse(new Webhook(secret).verify(hook.body, hook.headers));
}

async function deliveries(key?: string): Promise<LoginWebhookDeliveryList['data']> {
  const res = await json<LoginWebhookDeliveryList>(await t.request('/api/webhooks/login/deliveries', { key }));
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The organization's deliveries once none is pending any more. */
function settled(key?: string): Promise<LoginWebhookDeliveryList['data']> {
  return vi.waitFor(
    async () => {
      const list = await deliveries(key);
      if (list.some((d) => d.status === 'pending')) throw new Error(`pending: ${JSON.stringify(list)}`);
      return list;
    },
    { timeout: 15_000, interval: 50 },
  );
}

function login(site: FixtureSite, loginId: string, over: Record<string, unknown> = {}, key?: string) {
  return t.request('/api/login', {
    method: 'POST',
    headers: { 'x-login-id': loginId },
    key,
    json: {
      cred: { username: site.credentials.username, password: site.credentials.password },
      domain: site.loginUrl,
      useCache: false,
      ...over,
    },
  });
}

describe('login webhooks', () => {
  it('a login that needs a person: a signed login.needs_person (its site, never the takeover_url); its cancel: login.finished', async () => {
    const r = await receiver();
    const set = await setHook(r.url);
    expect(set.url).toBe(r.url.replace(r.token, '***'));

    const started = await login(captcha, 'hook-wait-1', { async: true, interactive: true });
    expect(started.status).toBe(202);
    const takeoverUrl = await waitForTakeoverUrl(t, 'hook-wait-1');
    secrets.push(takeoverUrl.split('#')[1]!);
    await r.waitFor(1);
    const secret = await signingSecret();
    const [first] = r.received;
    expect(first.path).toBe(`/hook?token=${r.token}`);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['webhook-id']).toMatch(/^msg_[0-9A-Za-z]{24}$/);
    const needs = verified(secret, first);
    expect(needs).toEqual({
      type: 'login.needs_person',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        login_id: 'hook-wait-1',
        status: 'needs_person',
        reason: 'captcha_blocked',
        site: new URL(captcha.loginUrl).host,
      },
    });
    // The link is the starting key's alone (docs/security.md#a-logins-live-page-is-the-starting-keys): any key with webhooks:write could point this URL
    // anywhere.
    expect(first.body).not.toContain(takeoverUrl.split('#')[1]!);
    expect(first.body).not.toContain('/live/');
    // Another secret, or a changed body, does not verify.
    expect(() =>
      new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(first.body, first.headers),
    ).toThrow();
    expect(() => verified(secret, { ...first, body: first.body.replace('captcha_blocked', 'mfa_required') })).toThrow();

    expect((await t.request('/api/login/hook-wait-1/cancel', { method: 'POST' })).status).toBe(204);
    expect((await waitForEnd(t, 'hook-wait-1')).status).toBe('cancelled');
    await r.waitFor(2);
    const second = r.received[1];
    expect(second.headers['webhook-id']).not.toBe(first.headers['webhook-id']);
    expect(verified(secret, second)).toEqual({
      type: 'login.finished',
      timestamp: expect.any(String),
      data: {
        login_id: 'hook-wait-1',
        status: 'cancelled',
        session_id: null,
        error: { error: 'LOGIN_CANCELLED', details: { reason: 'cancelled' } },
      },
    });

    // The log shows what happened, never the takeover link.
    const log = await settled();
    expect(log.map((d) => [d.event, d.login_id, d.status, d.id])).toEqual([
      ['login.finished', 'hook-wait-1', 'delivered', second.headers['webhook-id']],
      ['login.needs_person', 'hook-wait-1', 'delivered', first.headers['webhook-id']],
    ]);
    expect(log[1].attempts).toEqual([
      { attempt: 1, started_at: expect.any(Number), duration_ms: expect.any(Number), status_code: 200, error: null },
    ]);
    expect(JSON.stringify(log)).not.toContain(takeoverUrl.split('#')[1]!);
  });

  it('a login named by X-Login-Id: login.finished succeeded with its session id, and no state in the body', async () => {
    const r = await receiver();
    await setHook(r.url);
    const res = await login(csrf, 'hook-plain-1');
    expect(res.status, await res.clone().text()).toBe(200);
    const state = (await res.json()) as { cookies: { value: string }[] };
    await r.waitFor(1);
    const event = verified(await signingSecret(), r.received[0]);
    expect(event).toEqual({
      type: 'login.finished',
      timestamp: expect.any(String),
      data: { login_id: 'hook-plain-1', status: 'succeeded', session_id: res.headers.get('x-session-id'), error: null },
    });
    // Never a storageState, cookie or credential.
    for (const c of state.cookies) expect(r.received[0].body).not.toContain(c.value);
    expect(r.received[0].body).not.toContain(csrf.credentials.password);
  });

  it('a failed login: login.finished carries the error code and details.reason the HTTP answer had (nothing more)', async () => {
    const r = await receiver();
    await setHook(r.url);
    const res = await login(csrf, 'hook-failed-1', {
      cred: { username: csrf.credentials.username, password: 'wrong-Hk27-password' },
    });
    const body = (await res.json()) as { error: string; message: string; details: { reason: string } };
    expect(res.status).toBe(401);
    expect(body).toMatchObject({ error: 'AUTHENTICATION_FAILED', details: { reason: 'invalid_credentials' } });
    await r.waitFor(1);
    expect(verified(await signingSecret(), r.received[0])).toEqual({
      type: 'login.finished',
      timestamp: expect.any(String),
      data: {
        login_id: 'hook-failed-1',
        status: 'failed',
        session_id: null,
        error: { error: body.error, details: { reason: body.details.reason } },
      },
    });
    // Not the message or the steps (they may quote the site), and never the password.
    expect(r.received[0].body).not.toContain(body.message);
    expect(r.received[0].body).not.toContain('wrong-Hk27-password');
  });

  it('a receiver answering 500 then 200 gets a retry with the same webhook-id and body', async () => {
    const r = await receiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    await setHook(r.url);
    expect((await login(csrf, 'hook-retry-1')).status).toBe(200);
    await r.waitFor(2);
    const [a, b] = r.received;
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.body).toBe(a.body);
    const secret = await signingSecret();
    expect(verified(secret, b)).toMatchObject({ type: 'login.finished', data: { login_id: 'hook-retry-1' } });
    const [d] = await settled();
    expect(d).toMatchObject({ id: a.headers['webhook-id'], status: 'delivered', error: null });
    expect(d.attempts.map((x) => [x.attempt, x.status_code, x.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 200, null],
    ]);
  });

  it('another organization’s logins never reach this organization’s endpoint (each signs with its own secret)', async () => {
    const other = t.newOrg('hooks-other-org');
    const mine = await receiver();
    const theirs = await receiver();
    await setHook(mine.url);
    await setHook(theirs.url, other.key);

    expect((await login(csrf, 'hook-theirs-1', {}, other.key)).status).toBe(200);
    await theirs.waitFor(1);
    await settled(other.key);
    expect((await login(csrf, 'hook-mine-1')).status).toBe(200);
    await mine.waitFor(1);
    await settled();

    const [mySecret, theirSecret] = [await signingSecret(), await signingSecret(other.key)];
    expect(mine.received.map((h) => verified(mySecret, h).data.login_id)).toEqual(['hook-mine-1']);
    expect(theirs.received.map((h) => verified(theirSecret, h).data.login_id)).toEqual(['hook-theirs-1']);
    expect(() => verified(mySecret, theirs.received[0])).toThrow();
    expect((await deliveries()).map((d) => d.login_id)).not.toContain('hook-theirs-1');
    expect((await deliveries(other.key)).map((d) => d.login_id)).toEqual(['hook-theirs-1']);
    await t.request('/api/webhooks/login', { method: 'DELETE', key: other.key });
  });

  it('GET shows the URL masked; DELETE stops deliveries and fails the pending ones', async () => {
    const none = await json(await t.request('/api/webhooks/login'));
    expect(none).toEqual({ status: 200, body: { url: null, updated_at: null } });

    // An hour's Retry-After keeps the first delivery pending until DELETE.
    const r = await receiver(() => ({ status: 503, headers: { 'retry-after': '3600' } }));
    const withUser = r.url.replace('http://', 'http://ada:pw-secret@');
    secrets.push('pw-secret');
    await setHook(withUser);
    const shown = await json<{ url: string; updated_at: number }>(await t.request('/api/webhooks/login'));
    expect(shown.body.url).toBe(r.url.replace(r.token, '***'));
    expect(shown.body.updated_at).toEqual(expect.any(Number));
    expect(JSON.stringify(shown.body)).not.toMatch(/pw-secret|tok-/);

    expect((await login(csrf, 'hook-gone-1')).status).toBe(200);
    await r.waitFor(1);
    const pending = await vi.waitFor(async () => {
      const [d] = await deliveries();
      if (d?.attempts.length !== 1) throw new Error('no attempt recorded yet');
      return d;
    });
    expect(pending).toMatchObject({ status: 'pending', next_attempt_at: expect.any(Number) });
    expect(pending.attempts[0]).toMatchObject({ status_code: 503, error: 'HTTP 503' });

    expect((await t.request('/api/webhooks/login', { method: 'DELETE' })).status).toBe(204);
    expect((await json(await t.request('/api/webhooks/login'))).body).toEqual({ url: null, updated_at: null });
    expect((await deliveries())[0]).toMatchObject({
      id: pending.id,
      status: 'failed',
      error: 'the login webhook URL was removed',
    });
    // With no URL, a login's events are not even queued (the event is emitted before the login answers).
    expect((await login(csrf, 'hook-gone-2')).status).toBe(200);
    await t.core.loginWebhooks.service.idle();
    const ids = (await deliveries()).map((d) => d.login_id);
    expect(ids.filter((id) => id.startsWith('hook-gone'))).toEqual(['hook-gone-1']);
    expect(r.received).toHaveLength(1);
  });

  it('scopes: webhooks:read reads, webhooks:write changes', async () => {
    const reader = t.newOrg('hooks-reader', ['webhooks:read']);
    expect((await t.request('/api/webhooks/login', { key: reader.key })).status).toBe(200);
    expect((await t.request('/api/webhooks/login/deliveries', { key: reader.key })).status).toBe(200);
    const put = await t.request('/api/webhooks/login', {
      method: 'PUT',
      json: { url: 'http://127.0.0.1:9/hook' },
      key: reader.key,
    });
    expect(put.status).toBe(403);
    expect((await t.request('/api/webhooks/login', { method: 'DELETE', key: reader.key })).status).toBe(403);
    const loginOnly = t.newOrg('hooks-login-only', ['login:write']);
    expect((await t.request('/api/webhooks/login', { key: loginOnly.key })).status).toBe(403);
  });
});

describe('login webhook URLs the server will not deliver to', () => {
  async function refused(server: TestServer, url: unknown, pattern: RegExp): Promise<void> {
    const res = await json<{ error: string; message: string }>(
      await server.request('/api/webhooks/login', { method: 'PUT', json: { url } }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(errorShapeProblem(res.body, 'video')).toBeNull();
    expect(res.body.error).toBe('validation_error');
    expect(res.body.message).toMatch(pattern);
  }

  it('not http(s), or an address never connected to: a 400 validation_error', async () => {
    await refused(t, 'ftp://hooks.example.com/in', /url: url must be a full http:\/\/ or https:\/\/ URL/);
    await refused(t, 'hooks.example.com/in', /url must be a full http/);
    await refused(t, 42, /url/);
    await refused(t, 'http://169.254.169.254/latest/meta-data', /link-local.*in any network\.outbound mode/);
    expect((await json(await t.request('/api/webhooks/login'))).body).toEqual({ url: null, updated_at: null });
  });

  it('public-only: a name resolving to a private address, or loopback, is a 400 (resolved, never connected to)', async () => {
    const names = {
      'hooks.corp.test': [{ address: '10.1.2.3', family: 4 as const }],
      'hooks.public.test': [{ address: '93.184.216.34', family: 4 as const }],
    };
    const strict = await startTestServer(
      { network: { outbound: 'public-only' } },
      { overrides: { outboundHooks: loopbackHooks(names) } },
    );
    try {
      await refused(
        strict,
        'http://hooks.corp.test/hook',
        /private or reserved address.*network\.outbound is "public-only"/,
      );
      await refused(strict, 'http://127.0.0.1:9/hook', /loopback address.*public-only/);
      await refused(strict, 'http://localhost:9/hook', /loopback/);
      // A public address is accepted; so is a name that does not resolve yet (each attempt checks again).
      for (const url of ['https://hooks.public.test/in?key=k-123', 'https://hooks.nowhere.test/in']) {
        const res = await json<{ url: string }>(
          await strict.request('/api/webhooks/login', { method: 'PUT', json: { url } }),
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expect((await json<{ url: string }>(await strict.request('/api/webhooks/login'))).body.url).toBe(
        'https://hooks.nowhere.test/in',
      );
    } finally {
      await strict.close();
    }
  });
});

describe('what is kept', () => {
  it('no receiver token or takeover token in the log file or, unsealed, in the database', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    await t.core.logger.flush();
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(log).toContain('login webhook delivered');
    const db = ['agent-studio.db', 'agent-studio.db-wal']
      .map((f) => path.join(t.dataDir, f))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n');
    for (const s of secrets) {
      expect(log).not.toContain(s);
      expect(db).not.toContain(s);
    }
    expect(log).not.toMatch(/127\.0\.0\.1:\d+\/hook/);
  });
});
