// Background logins and the login board (docs/person-in-the-loop.md#logins-in-the-background): POST /api/login with "async": true or
// Prefer: respond-async answers 202 {login_id, status_url} at once; GET /api/login/:id says where the login stands
// (running, needs_person with its takeover_url, succeeded, failed, cancelled); GET /api/login/:id/state gives an
// async login's storageState once. A synchronous login named by X-Login-Id shows on the board too.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvents } from '../../../../src/main/core/events.js';
import type { LoginRun } from '../../../../src/shared/login.schema.js';
import { startCaptcha } from '../../../fixtures/sites/captcha.site.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { errorShapeProblem } from '../../../helpers/error-shape.js';
import { LivePerson, signInPastCaptcha, waitForEnd, waitForTakeoverUrl } from '../../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

type LoginError = { error: string; message: string; details: Record<string, unknown> };

let t: TestServer;
let agent: Browser;
let csrf: FixtureSite;
let mfa: FixtureSite;
let captcha: FixtureSite;
const finished: CoreEvents['login.finished'][] = [];

beforeAll(async () => {
  t = await startTestServer();
  t.core.events.on('login.finished', (e) => finished.push(e));
  agent = await launchTestBrowser();
  csrf = await startSite('classic-csrf');
  mfa = await startSite('mfa');
  captcha = await startCaptcha({ personCanSolve: true });
});
afterAll(async () => {
  await agent?.close();
  await Promise.all([csrf?.close(), mfa?.close(), captcha?.close()]);
  await t?.close();
});

const loginBody = (site: FixtureSite, over: Record<string, unknown> = {}) => ({
  cred: { username: site.credentials.username, password: site.credentials.password },
  domain: site.loginUrl,
  useCache: false,
  ...over,
});

function postLogin(body: unknown, headers: Record<string, string> = {}, key?: string) {
  return t.request('/api/login', { method: 'POST', headers, json: body, key });
}

/** A 202: its body and headers checked; the login id. */
async function accepted(res: Response): Promise<string> {
  const body = (await res.json()) as { login_id: string; status_url: string };
  expect(res.status, JSON.stringify(body)).toBe(202);
  expect(body.login_id).toMatch(/^[\w.-]{1,64}$/);
  expect(body.status_url).toBe(`/api/login/${body.login_id}`);
  expect(res.headers.get('location')).toBe(body.status_url);
  expect(res.headers.get('preference-applied')).toBe('respond-async');
  return body.login_id;
}

async function json<T = Record<string, unknown>>(res: Response): Promise<{ status: number; body: T }> {
  return { status: res.status, body: (await res.json()) as T };
}

async function expectError(res: Response, status: number, error: string, what: string): Promise<LoginError> {
  const { body } = await json<LoginError>(res);
  expect(res.status, `${what}: ${JSON.stringify(body)}`).toBe(status);
  expect(errorShapeProblem(body, 'login'), what).toBeNull();
  expect(body.error, what).toBe(error);
  return body;
}

describe('async logins', () => {
  it('"async": true answers 202 at once; the board says succeeded; the state is given once', async () => {
    const started = Date.now();
    const id = await accepted(await postLogin(loginBody(csrf, { async: true })));
    const run = await waitForEnd(t, id);
    expect(run).toMatchObject({
      login_id: id,
      status: 'succeeded',
      state_available: true,
      session_id: expect.any(String),
    });
    expect(run.started_at).toBeGreaterThanOrEqual(started);
    expect(run.finished_at).toBeGreaterThanOrEqual(run.started_at);
    expect(run.steps.length).toBeGreaterThan(0);
    expect(run).not.toHaveProperty('error');
    expect(run).not.toHaveProperty('takeover_url');

    const first = await t.request(`/api/login/${id}/state`);
    const state = await first.json();
    expect(first.status, JSON.stringify(state)).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await opensProtectedPage(agent, csrf, state)).toBe(true);
    const again = await expectError(await t.request(`/api/login/${id}/state`), 409, 'STATE_UNAVAILABLE', 'twice');
    expect(again.details).toMatchObject({ login_id: id, status: 'succeeded' });
    expect((await json<LoginRun>(await t.request(`/api/login/${id}`))).body.state_available).toBe(false);
    // The session is cached like any fresh login's.
    const sessions = (await json<{ data: { id: string }[] }>(await t.request('/api/sessions'))).body.data;
    expect(sessions.map((s) => s.id)).toContain(run.session_id);
    expect(finished).toContainEqual(
      expect.objectContaining({ loginId: id, status: 'succeeded', sessionId: run.session_id, error: null }),
    );
  });

  it('Prefer: respond-async does the same, under the X-Login-Id given', async () => {
    const res = await postLogin(loginBody(csrf), { prefer: 'respond-async', 'x-login-id': 'prefer-1' });
    expect(await accepted(res)).toBe('prefer-1');
    expect((await waitForEnd(t, 'prefer-1')).status).toBe('succeeded');
    const state = await t.request('/api/login/prefer-1/state');
    expect(state.status).toBe(200);
    expect(await opensProtectedPage(agent, csrf, await state.json())).toBe(true);
  });

  it('a wrong password: failed, with the AUTHENTICATION_FAILED body the login answered; no state', async () => {
    const body = loginBody(csrf, { async: true, cred: { username: csrf.credentials.username, password: 'nope-123' } });
    const id = await accepted(await postLogin(body));
    const run = await waitForEnd(t, id);
    expect(run.status).toBe('failed');
    expect(errorShapeProblem(run.error, 'login')).toBeNull();
    expect(run.error).toMatchObject({
      error: 'AUTHENTICATION_FAILED',
      details: { reason: 'invalid_credentials', login_id: id },
    });
    expect(JSON.stringify(run)).not.toContain('nope-123');
    expect(run).not.toHaveProperty('session_id');
    expect(run.state_available).toBe(false);
    const state = await expectError(await t.request(`/api/login/${id}/state`), 409, 'STATE_UNAVAILABLE', 'state');
    expect(state.details).toMatchObject({ login_id: id, status: 'failed' });
    expect(finished).toContainEqual(
      expect.objectContaining({ loginId: id, status: 'failed', error: 'AUTHENTICATION_FAILED' }),
    );
  });

  it('an unknown id, and another organization’s login, are 404', async () => {
    await expectError(await t.request('/api/login/no-such-login'), 404, 'NOT_FOUND', 'unknown id');
    await expectError(await t.request('/api/login/no-such-login/state'), 404, 'NOT_FOUND', 'unknown id: state');
    const id = await accepted(await postLogin(loginBody(csrf, { async: true })));
    const other = t.newOrg('another-org');
    await expectError(await t.request(`/api/login/${id}`, { key: other.key }), 404, 'NOT_FOUND', 'other org');
    await expectError(await t.request(`/api/login/${id}/state`, { key: other.key }), 404, 'NOT_FOUND', 'other: state');
    await expectError(
      await t.request(`/api/login/${id}/cancel`, { method: 'POST', key: other.key }),
      404,
      'NOT_FOUND',
      'other org: cancel',
    );
    // Its own key still sees it, and the other org's attempts changed nothing.
    expect((await waitForEnd(t, id)).status).toBe('succeeded');
    expect((await t.request(`/api/login/${id}/state`)).status).toBe(200);
  });

  it('a synchronous login named by X-Login-Id shows on the board too (its answer had the state)', async () => {
    const res = await postLogin(loginBody(csrf), { 'x-login-id': 'sync-1' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await opensProtectedPage(agent, csrf, await res.json())).toBe(true);
    const run = (await json<LoginRun>(await t.request('/api/login/sync-1'))).body;
    expect(run).toMatchObject({ login_id: 'sync-1', status: 'succeeded', state_available: false });
    expect(run.session_id).toBe(res.headers.get('x-session-id'));
    const state = await expectError(await t.request('/api/login/sync-1/state'), 409, 'STATE_UNAVAILABLE', 'sync');
    expect(state.message).toContain('not an async login');
  });
});

describe('async interactive logins', () => {
  it('needs_person with a takeover_url; no state yet; the id is taken; a cancel by id → cancelled', async () => {
    const res = await postLogin(loginBody(mfa, { async: true, interactive: true }), { 'x-login-id': 'wait-1' });
    expect(await accepted(res)).toBe('wait-1');
    const url = await waitForTakeoverUrl(t, 'wait-1');
    expect(url).toMatch(new RegExp(`^${t.url}/live/wait-1#[A-Za-z0-9_-]{20,}$`));
    const run = (await json<LoginRun>(await t.request('/api/login/wait-1'))).body;
    expect(run).toMatchObject({ status: 'needs_person', takeover_url: url, finished_at: null });
    expect(run.steps.length).toBeGreaterThan(0);

    const early = await expectError(await t.request('/api/login/wait-1/state'), 409, 'LOGIN_RUNNING', 'early state');
    expect(early.details).toMatchObject({ login_id: 'wait-1', status: 'needs_person' });
    const twice = await postLogin(loginBody(mfa, { async: true }), { 'x-login-id': 'wait-1' });
    expect((await expectError(twice, 409, 'LOGIN_RUNNING', 'same id twice')).details).toMatchObject({
      login_id: 'wait-1',
    });

    expect((await t.request('/api/login/wait-1/cancel', { method: 'POST' })).status).toBe(204);
    const end = await waitForEnd(t, 'wait-1');
    expect(end.status).toBe('cancelled');
    expect(end).not.toHaveProperty('takeover_url');
    expect(end.error).toMatchObject({ error: 'LOGIN_CANCELLED', details: { reason: 'cancelled', login_id: 'wait-1' } });
    // The live page is over with it.
    const events = await fetch(`${t.url}/live/wait-1/events`, { headers: { 'x-takeover-token': url.split('#')[1]! } });
    await expectError(events, 404, 'NOT_FOUND', 'spent takeover link');
    expect(finished).toContainEqual(
      expect.objectContaining({ loginId: 'wait-1', status: 'cancelled', error: 'LOGIN_CANCELLED' }),
    );
  });

  it('succeeds once a person signs in through the live page; the state is then taken once', async () => {
    const id = await accepted(await postLogin(loginBody(captcha, { async: true, interactive: true })));
    const url = await waitForTakeoverUrl(t, id);
    const person = await LivePerson.open(agent, url, () => t.core.login.takeover!.livePage(id));
    try {
      await person.settle();
      await signInPastCaptcha(person, captcha);
      const run = await waitForEnd(t, id);
      expect(run).toMatchObject({ status: 'succeeded', state_available: true, session_id: expect.any(String) });
      expect(await person.outcome()).toBe('Signed in.');
      const state = await t.request(`/api/login/${id}/state`);
      expect(state.status).toBe(200);
      expect(await opensProtectedPage(agent, captcha, await state.json())).toBe(true);
      expect((await t.request(`/api/login/${id}/state`)).status).toBe(409);
    } finally {
      await person.close();
      await t.request(`/api/login/${id}/cancel`, { method: 'POST' });
    }
  });

  // src bug: LoginService.login's single-flight key (login.service.ts, flightKey) ignores the login id, so a second
  // identical login under another id rides the first's flight: its board entry stays "running" with no steps and no
  // takeover_url while the first waits for a person, and POST /api/login/<its id>/cancel answers 404.
  it('two identical interactive logins under two ids: each shows where it stands and can be cancelled', async () => {
    const body = loginBody(mfa, { async: true, interactive: true });
    expect(await accepted(await postLogin(body, { 'x-login-id': 'twin-a' }))).toBe('twin-a');
    await waitForTakeoverUrl(t, 'twin-a');
    expect(await accepted(await postLogin(body, { 'x-login-id': 'twin-b' }))).toBe('twin-b');
    try {
      const board = await waitForTakeoverUrl(t, 'twin-b', { timeout: 10_000 }).then(
        () => 'needs_person',
        (err: Error) => err.message,
      );
      const cancel = (await t.request('/api/login/twin-b/cancel', { method: 'POST' })).status;
      expect({ board, cancel }).toEqual({ board: 'needs_person', cancel: 204 });
    } finally {
      await t.request('/api/login/twin-a/cancel', { method: 'POST' });
      await t.request('/api/login/twin-b/cancel', { method: 'POST' });
    }
  });
});
