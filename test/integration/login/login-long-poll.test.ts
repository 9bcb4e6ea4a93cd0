// GET /api/login/{id}?wait=S, the long poll of a login's status, on a real server with real logins in Chromium: an
// otp_email login that waits for its code (the fixture site's mail is held until the test hands it to the inbox
// endpoint), and a CAPTCHA login that waits for a person. The board's waiters are counted: a request that waits is
// one until it is answered or its client is gone.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginRun } from '../../../src/shared/login.schema.js';
import { startCaptcha } from '../../fixtures/sites/captcha.site.js';
import { startSite, type FixtureSite, type OutboundMail } from '../../fixtures/sites/index.js';
import { errorShapeProblem } from '../../helpers/error-shape.js';
import { waitForTakeoverUrl } from '../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
let captcha: FixtureSite;
const sites: FixtureSite[] = [];

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 60_000, codeTimeoutMs: 45_000 } });
  captcha = await startCaptcha({ personCanSolve: true });
});
afterAll(async () => {
  await Promise.all([captcha?.close(), ...sites.map((s) => s.close())]);
  await t?.close();
});

const poll = (server: TestServer, loginId: string, wait: string | number, init: RequestInit = {}) =>
  server.request(`/api/login/${loginId}?wait=${wait}`, init);

/** Until `n` requests wait on the server's login board. */
const waitingOnBoard = (server: TestServer, n: number) =>
  vi.waitFor(() => expect(server.core.login.runs.waiting()).toBe(n), { timeout: 10_000, interval: 20 });

/**
 * An otp_email login in the background, once it waits for its code: the site's mail is kept, and `deliver` hands it
 * to the inbox endpoint (the login then signs in and ends).
 */
async function loginWaitingForCode(server: TestServer, loginId: string): Promise<{ deliver(): Promise<void> }> {
  const mails: OutboundMail[] = [];
  const site = await startSite('email-code', { sendMail: async (m) => void mails.push(m) });
  sites.push(site);
  const started = await server.request('/api/login', {
    method: 'POST',
    headers: { 'x-login-id': loginId },
    json: { cred: site.credentials, loginMethod: 'otp_email', domain: site.loginUrl, useCache: false, async: true },
  });
  expect(started.status, await started.clone().text()).toBe(202);
  await vi.waitFor(() => expect(mails).toHaveLength(1), { timeout: 45_000, interval: 50 });
  return {
    async deliver() {
      const [m] = mails;
      const res = await server.request('/api/login/inbox', {
        method: 'POST',
        json: { to: m!.to, from: m!.from, subject: m!.subject, text: m!.text, html: m!.html },
      });
      expect(await res.json()).toEqual({ delivered: 1 });
    },
  };
}

describe('GET /api/login/{id}?wait=S', () => {
  it('answers when the login ends while the request waits (woken by the board, not at S)', async () => {
    const login = await loginWaitingForCode(t, 'poll-ends-1');
    const answer = poll(t, 'poll-ends-1', 60);
    await waitingOnBoard(t, 1);
    await login.deliver();
    const res = await answer;
    const run = (await res.json()) as LoginRun;
    expect(res.status).toBe(200);
    expect(run).toMatchObject({ login_id: 'poll-ends-1', status: 'succeeded', session_id: expect.any(String) });
    expect(run.finished_at).toEqual(expect.any(Number));
    expect(t.core.login.runs.waiting()).toBe(0);
    // An ended login is answered at once, whatever the wait.
    expect(((await (await poll(t, 'poll-ends-1', 60)).json()) as LoginRun).status).toBe('succeeded');
  });

  it('answers after S seconds with the login as it stands when nothing changed', async () => {
    const login = await loginWaitingForCode(t, 'poll-times-out-1');
    const res = await poll(t, 'poll-times-out-1', 1);
    const run = (await res.json()) as LoginRun;
    expect(res.status).toBe(200);
    expect(run).toMatchObject({ login_id: 'poll-times-out-1', status: 'running', finished_at: null });
    expect(t.core.login.runs.waiting()).toBe(0);
    await login.deliver();
    expect(((await (await poll(t, 'poll-times-out-1', 60)).json()) as LoginRun).status).toBe('succeeded');
  });

  it('a login that waits for a person: the long poll answers when it ends (cancelled here)', async () => {
    const started = await t.request('/api/login', {
      method: 'POST',
      headers: { 'x-login-id': 'poll-person-1' },
      json: {
        cred: captcha.credentials,
        domain: captcha.loginUrl,
        useCache: false,
        async: true,
        interactive: true,
      },
    });
    expect(started.status).toBe(202);
    await waitForTakeoverUrl(t, 'poll-person-1');
    const answer = poll(t, 'poll-person-1', 60);
    await waitingOnBoard(t, 1);
    expect((await t.request('/api/login/poll-person-1/cancel', { method: 'POST' })).status).toBe(204);
    const run = (await (await answer).json()) as LoginRun;
    expect(run).toMatchObject({ status: 'cancelled', error: { error: 'LOGIN_CANCELLED' } });
    expect(t.core.login.runs.waiting()).toBe(0);
  });

  it('a bad wait is a 400 in the login-service shape; an unknown login is a 404 at once', async () => {
    for (const wait of ['0', '61', 'abc', '1.5', '-1', '']) {
      const res = await poll(t, 'anything', wait);
      const body = (await res.json()) as { error: string; details: { issues?: { path: string }[] } };
      expect(res.status, `wait=${wait}`).toBe(400);
      expect(errorShapeProblem(body, 'login')).toBeNull();
      expect(body.error).toBe('INVALID_REQUEST');
      expect(body.details.issues?.map((i) => i.path)).toEqual(['wait']);
    }
    const unknown = await poll(t, 'no-such-login', 60);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe('NOT_FOUND');
    expect(t.core.login.runs.waiting()).toBe(0);
  });

  it('a client that goes away ends its wait: nothing of it stays on the board', async () => {
    const login = await loginWaitingForCode(t, 'poll-gone-1');
    const gone = new AbortController();
    const answer = poll(t, 'poll-gone-1', 60, { signal: gone.signal }).catch((err: unknown) => err);
    await waitingOnBoard(t, 1);
    gone.abort();
    expect(await answer).toMatchObject({ name: 'AbortError' });
    await waitingOnBoard(t, 0);
    // The login itself goes on: the wait was the client's, not the login's.
    await login.deliver();
    expect(((await (await poll(t, 'poll-gone-1', 60)).json()) as LoginRun).status).toBe('succeeded');
  });

  it('the server closing answers a waiting long poll at once (it never holds the shutdown open)', async () => {
    const other = await startTestServer({ login: { timeoutMs: 60_000, codeTimeoutMs: 45_000 } });
    let closed: Promise<void> | undefined;
    try {
      await loginWaitingForCode(other, 'poll-shutdown-1');
      const answer = poll(other, 'poll-shutdown-1', 60);
      await waitingOnBoard(other, 1);
      closed = other.close();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(((await res.json()) as LoginRun).status).toBe('running');
      expect(res.headers.get('connection')).toBe('close');
    } finally {
      await (closed ?? other.close());
    }
  });
});
