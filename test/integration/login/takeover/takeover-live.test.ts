// The live takeover page with a real server and Chromium (docs/person-in-the-loop.md#the-live-page): a login stopped at a
// CAPTCHA or a second factor with `interactive: true` waits on <server>/live/<id>#<token>; a person opens it in
// any browser (a separate Playwright context here) and finishes the login ONLY through the streamed canvas
// (test/helpers/takeover-person.ts). Also: Done, Cancel, the page's security and several viewers.
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSseParser } from '../../../../src/main/core/login/takeover/live-page/takeover-protocol.js';
import type { LoginRun } from '../../../../src/shared/login.schema.js';
import { startCaptcha } from '../../../fixtures/sites/captcha.site.js';
import { MFA_CODE, startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { errorShapeProblem } from '../../../helpers/error-shape.js';
import {
  enterCode,
  LivePerson,
  PERSON_WAIT_MS,
  signInPastCaptcha,
  waitForEnd,
  waitForTakeoverUrl,
  type PersonWindow,
} from '../../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

type LoginError = { error: string; message: string; details: Record<string, unknown> };

const WIDE: PersonWindow = { viewport: { width: 1280, height: 800 } };
const SMALL_HIDPI: PersonWindow = { viewport: { width: 800, height: 600 }, deviceScaleFactor: 2 };

let t: TestServer;
let agent: Browser;
let captcha: FixtureSite;
let mfa: FixtureSite;
/** Every takeover token handed out: none may reach the server log. */
const tokens: string[] = [];
/**
 * The test's login and the people who opened its page: after the test they leave, and the login is cancelled if
 * it still waits (identical logins share one flight: a leftover would stand in for the next test's login).
 */
let current: { id: string; people: LivePerson[] } | undefined;
/** Views whose last image stayed of another size than the viewport after the resize (see the helper's note). */
let staleFrames = 0;

beforeAll(async () => {
  t = await startTestServer();
  agent = await launchTestBrowser();
  captcha = await startCaptcha({ personCanSolve: true });
  mfa = await startSite('mfa');
});
afterAll(async () => {
  if (staleFrames) console.warn(`takeover-live: ${staleFrames} view(s) kept a stale frame after the resize`);
  await agent?.close();
  await captcha?.close();
  await mfa?.close();
  await t?.close();
});

/** An interactive login named `id` (X-Login-Id), answered when it ends. */
function interactiveLogin(site: FixtureSite, id: string, over: Record<string, unknown> = {}): Promise<Response> {
  current = { id, people: [] };
  const pending = t.request('/api/login', {
    method: 'POST',
    headers: { 'x-login-id': id },
    json: {
      cred: { username: site.credentials.username, password: site.credentials.password },
      domain: site.loginUrl,
      useCache: false,
      interactive: true,
      ...over,
    },
  });
  pending.catch(() => {}); // a test that failed before reading it: the server's close ends it
  return pending;
}

afterEach(async () => {
  if (!current) return;
  for (const p of current.people) await p.close();
  await t.request(`/api/login/${current.id}/cancel`, { method: 'POST' });
  current = undefined;
});

/** Settles a person's view; a stale last image (see the helper's note) is counted, not failed. */
async function settled(person: LivePerson) {
  const vp = await person.settle();
  if (person.staleFrame) staleFrames++;
  return vp;
}

/** The takeover URL of a waiting login (polled with a deadline), remembered for the log check. */
async function takeoverUrl(id: string): Promise<string> {
  const url = await waitForTakeoverUrl(t, id);
  expect(url).toMatch(new RegExp(`^${t.url}/live/${id}#[A-Za-z0-9_-]{20,}$`));
  tokens.push(url.split('#')[1]!);
  return url;
}

/** A person opens the live page of login `id` in a window of their own (`url`: the one given, else polled). */
async function personFor(id: string, window: PersonWindow = WIDE, url?: string): Promise<LivePerson> {
  const person = await LivePerson.open(
    agent,
    url ?? (await takeoverUrl(id)),
    () => t.core.login.takeover!.livePage(id),
    window,
  );
  current?.people.push(person);
  return person;
}

const liveEvents = (id: string, token?: string) =>
  fetch(`${t.url}/live/${id}/events`, { headers: token === undefined ? {} : { 'x-takeover-token': token } });

/** A viewer reading the event stream from Node: its hello, frames counted; close() leaves. */
async function streamViewer(id: string, token: string) {
  const abort = new AbortController();
  const res = await fetch(`${t.url}/live/${id}/events`, {
    headers: { 'x-takeover-token': token },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const parser = createSseParser();
  const decoder = new TextDecoder();
  let frames = 0;
  let hello: { viewer: string; controller: boolean } | undefined;
  while (!hello || frames === 0) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the event stream ended before hello and a frame');
    for (const ev of parser.push(decoder.decode(value, { stream: true }))) {
      if (ev.event === 'hello') hello = JSON.parse(ev.data);
      if (ev.event === 'frame') frames++;
    }
  }
  return { ...hello, frames, close: () => abort.abort() };
}

async function loginAnswer(pending: Promise<Response>) {
  const res = await pending;
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.each([
  ['1280x800', WIDE],
  ['800x600 at device scale 2', SMALL_HIDPI],
])('a person in a %s window', (label, window) => {
  it('solves the CAPTCHA and signs in through the canvas; the session comes back by itself', async () => {
    const id = `cap-${window.viewport.width}`;
    const before = captcha.stats().successfulLogins;
    const pending = interactiveLogin(captcha, id);
    const person = await personFor(id, window);
    // The page fitted the remote viewport to its own area: the frames come at that size.
    const vp = await settled(person);
    expect(vp.width, label).toBeLessThanOrEqual(window.viewport.width);
    expect(vp.height, label).toBeLessThan(window.viewport.height);
    await signInPastCaptcha(person, captcha);

    const { status, body } = await loginAnswer(pending);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(captcha.stats().successfulLogins).toBe(before + 1);
    expect(await opensProtectedPage(agent, captcha, body)).toBe(true);
    expect(await person.outcome()).toBe('Signed in.');
    const run = await waitForEnd(t, id);
    expect(run).toMatchObject({ login_id: id, status: 'succeeded', session_id: expect.any(String) });
    expect(run).not.toHaveProperty('takeover_url');
  });
});

describe('the live page', () => {
  it('mfa: the code typed through the canvas signs in (200)', async () => {
    const pending = interactiveLogin(mfa, 'mfa-1');
    const person = await personFor('mfa-1');
    await settled(person);
    await enterCode(person, MFA_CODE);
    const { status, body } = await loginAnswer(pending);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(await opensProtectedPage(agent, mfa, body)).toBe(true);
    expect((await waitForEnd(t, 'mfa-1')).status).toBe('succeeded');
  });

  it('Done hands the page’s session back as it is (here: challenge ticked, not yet submitted)', async () => {
    const pending = interactiveLogin(captcha, 'done-1');
    const person = await personFor('done-1');
    await settled(person);
    await signInPastCaptcha(person, captcha, { submit: false });
    await person.done();
    const { status, body } = await loginAnswer(pending);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.cookies).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'th_challenge' })]));
    expect(await person.outcome()).toBe('Done.');
    expect((await waitForEnd(t, 'done-1')).status).toBe('succeeded');
  });

  it('Cancel (confirmed) gives up: 422 with details.interactive "closed", and the page says so', async () => {
    const pending = interactiveLogin(mfa, 'cancel-1');
    const person = await personFor('cancel-1');
    await person.cancel();
    const { status, body } = await loginAnswer(pending);
    expect(status, JSON.stringify(body)).toBe(422);
    expect(errorShapeProblem(body, 'login')).toBeNull();
    expect(body).toMatchObject({
      error: 'MFA_REQUIRED',
      details: { reason: 'mfa_required', interactive: 'closed', login_id: 'cancel-1' },
    });
    expect(await person.outcome()).toBe('Cancelled.');
    // A person's Cancel is the login's failure (its typed error), not a cancel by id (LOGIN_CANCELLED).
    const run = await waitForEnd(t, 'cancel-1');
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ error: 'MFA_REQUIRED', details: { interactive: 'closed' } });
  });

  it('several viewers: a second one watches (its input is 409) and controls once the first leaves', async () => {
    const pending = interactiveLogin(mfa, 'many-1');
    const first = await personFor('many-1');
    const token = tokens.at(-1)!;
    const second = await personFor('many-1', SMALL_HIDPI, `${t.url}/live/many-1#${token}`);
    await expect.poll(() => second.page.locator('#viewer-state').textContent()).toMatch(/^Watching/);
    await expect.poll(() => first.page.locator('#viewer-state').textContent()).toMatch(/1 watching/);
    expect(await second.page.locator('#view').getAttribute('class')).toContain('watching');

    // A third viewer (a raw event stream) gets frames; it does not control: its input and resize are refused.
    const watcher = await streamViewer('many-1', token);
    expect(watcher.controller).toBe(false);
    const post = (what: string, body: unknown) =>
      fetch(`${t.url}/live/many-1/${what}`, {
        method: 'POST',
        headers: { 'x-takeover-token': token, 'x-takeover-viewer': watcher.viewer, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const input = await post('input', { type: 'text', text: 'not mine' });
    expect(input.status).toBe(409);
    expect(errorShapeProblem(await input.json(), 'login')).toBeNull();
    expect((await post('resize', { width: 400, height: 300 })).status).toBe(409);
    watcher.close();

    // The first leaves: control passes to the second, which fits the page to its own window and finishes.
    await first.close();
    await expect.poll(() => second.page.locator('#viewer-state').textContent()).toBe('You control this page');
    // The new controller's page sends its size once it has control; on a busy machine that can come later than
    // settle()'s 600 ms of quiet, which would then take the first viewer's size as settled.
    await expect
      .poll(() => second.remote.viewportSize()?.width ?? Infinity, { timeout: PERSON_WAIT_MS })
      .toBeLessThanOrEqual(SMALL_HIDPI.viewport.width);
    const vp = await settled(second);
    expect(vp.width).toBeLessThanOrEqual(SMALL_HIDPI.viewport.width);
    await enterCode(second, MFA_CODE);
    const { status, body } = await loginAnswer(pending);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(await opensProtectedPage(agent, mfa, body)).toBe(true);
  });

  it('security: one 404 for a wrong, missing or spent token; another org sees no login; CSP; no token in the log', async () => {
    const pending = interactiveLogin(mfa, 'sec-1');
    const url = await takeoverUrl('sec-1');
    const token = url.split('#')[1]!;
    const expectNotFound = async (res: Response, what: string) => {
      const body = (await res.json()) as LoginError;
      expect(res.status, `${what}: ${JSON.stringify(body)}`).toBe(404);
      expect(errorShapeProblem(body, 'login'), what).toBeNull();
      expect(body.error, what).toBe('NOT_FOUND');
    };
    await expectNotFound(await liveEvents('sec-1', `${token.slice(0, -2)}xx`), 'wrong token');
    await expectNotFound(await liveEvents('sec-1'), 'no token');
    await expectNotFound(await liveEvents('no-such-login', token), 'another login id');
    for (const what of ['input', 'resize', 'done', 'cancel']) {
      const res = await fetch(`${t.url}/live/sec-1/${what}`, {
        method: 'POST',
        headers: { 'x-takeover-token': 'wrong', 'content-type': 'application/json' },
        body: JSON.stringify(what === 'input' ? { type: 'text', text: 'x' } : { width: 800, height: 600 }),
      });
      await expectNotFound(res, `POST ${what} with a wrong token`);
    }

    // Only the login's organization sees it.
    const other = t.newOrg('other-org');
    await expectNotFound(await t.request('/api/login/sec-1', { key: other.key }), 'another org: status');
    await expectNotFound(await t.request('/api/login/sec-1/state', { key: other.key }), 'another org: state');
    await expectNotFound(
      await t.request('/api/login/sec-1/cancel', { method: 'POST', key: other.key }),
      'another org: cancel',
    );

    // The page and its files: never inside another site's frame, no referrer, not cached.
    for (const path of ['/live/sec-1', '/live/assets/takeover.js', '/live/assets/takeover.css']) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(await res.text(), path).not.toContain(token);
    }

    // The right token streams; once the login is over the same link is a 404 like any other.
    const viewer = await streamViewer('sec-1', token);
    expect(viewer.controller).toBe(true);
    viewer.close();
    expect((await t.request('/api/login/sec-1/cancel', { method: 'POST' })).status).toBe(204);
    const { status, body } = await loginAnswer(pending);
    expect(status, JSON.stringify(body)).toBe(409);
    expect(body).toMatchObject({ error: 'LOGIN_CANCELLED', details: { login_id: 'sec-1' } });
    expect((await waitForEnd(t, 'sec-1')).status).toBe('cancelled');
    await expectNotFound(await liveEvents('sec-1', token), 'a spent token');

    // Every takeover token of this file so far: never written to the server's log.
    await t.core.logger.flush();
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(log).toContain('login waits for a person on its live page');
    expect(tokens.length).toBeGreaterThanOrEqual(6);
    for (const tk of tokens) expect(log).not.toContain(tk);
    const run = (await (await t.request('/api/login/sec-1')).json()) as LoginRun;
    expect(JSON.stringify(run)).not.toContain(token);
  });
});
