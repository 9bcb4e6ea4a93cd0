// A login waiting for a person, finished without the person touching the live page (POST /api/login/{id}/code: a
// one-time code an agent got from its user) and a login whose form the engine does not recognise, handed to a
// person (login_form_not_found with `interactive: true`). Real server, Chromium and fixture sites on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoginRun } from '../../../../src/shared/login.schema.js';
import { startCaptcha } from '../../../fixtures/sites/captcha.site.js';
import { MFA_CODE, startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { errorShapeProblem } from '../../../helpers/error-shape.js';
import { LivePerson, waitForEnd, waitForTakeoverUrl } from '../../../helpers/takeover-person.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';

let t: TestServer;
let agent: Browser;
let mfa: FixtureSite;
let captcha: FixtureSite;
let widget: { url: string; close(): Promise<void> };
let waiting: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  agent = await launchTestBrowser();
  mfa = await startSite('mfa');
  captcha = await startCaptcha({ personCanSolve: true });
  widget = await startWidgetSite();
});
afterAll(async () => {
  await agent?.close();
  await mfa?.close();
  await captcha?.close();
  await widget?.close();
  await t?.close();
});
afterEach(async () => {
  for (const id of waiting) await t.request(`/api/login/${id}/cancel`, { method: 'POST' });
  waiting = [];
});

function interactiveLogin(id: string, domain: string, cred: { username: string; password: string }) {
  waiting.push(id);
  const pending = t.request('/api/login', {
    method: 'POST',
    headers: { 'x-login-id': id },
    json: { cred, domain, useCache: false, interactive: true },
  });
  pending.catch(() => {});
  return pending;
}

const typeCode = (id: string, code: unknown, key?: string) =>
  t.request(`/api/login/${id}/code`, { method: 'POST', json: { code }, key });

const status = async (id: string) => (await (await t.request(`/api/login/${id}`)).json()) as LoginRun;

describe('POST /api/login/{id}/code', () => {
  it('types the code into the waiting login’s page: the login answers 200 with a working session', async () => {
    const pending = interactiveLogin('code-1', mfa.loginUrl, mfa.credentials);
    await waitForTakeoverUrl(t, 'code-1');
    expect(await status('code-1')).toMatchObject({ status: 'needs_person', reason: 'mfa_required' });
    const typed = await typeCode('code-1', ` ${MFA_CODE.slice(0, 3)}-${MFA_CODE.slice(3)} `);
    expect(typed.status).toBe(202);
    expect(await typed.json()).toMatchObject({ typed: true, field: 'Two-factor authentication', answer: 'went_on' });
    const res = await pending;
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(await opensProtectedPage(agent, mfa, body)).toBe(true);
    const run = await waitForEnd(t, 'code-1');
    expect(run.status).toBe('succeeded');
    expect(run).not.toHaveProperty('reason');
  });

  it('a wrong code leaves the login waiting; the right one then signs in', async () => {
    const pending = interactiveLogin('code-2', mfa.loginUrl, mfa.credentials);
    await waitForTakeoverUrl(t, 'code-2');
    const wrong = '135790'; // not MFA_CODE
    const rejected = await typeCode('code-2', wrong);
    expect(rejected.status).toBe(202);
    // The answer is the page's: its prompt again with its error, in its words; the login is still the person's.
    expect(await rejected.json()).toEqual({
      typed: true,
      field: 'Two-factor authentication',
      answer: 'rejected',
      message: 'Invalid code. Try again.',
    });
    expect((await status('code-2')).status).toBe('needs_person');
    const right = await typeCode('code-2', MFA_CODE);
    expect(right.status, await right.clone().text()).toBe(202);
    expect(await right.json()).toMatchObject({ answer: 'went_on' });
    expect((await pending).status).toBe(200);
    // The steps say what the person's codes did: typed, rejected, typed, taken, signed in.
    expect((await waitForEnd(t, 'code-2')).steps.slice(-5)).toEqual([
      "typed the code the person gave into 'Two-factor authentication' and submitted it",
      "the site rejected the code: 'Invalid code. Try again.'",
      "typed the code the person gave into 'Two-factor authentication' and submitted it",
      'the code prompt is gone: the site took the code',
      'signed in on the live page (a new session cookie, no login form)',
    ]);
  });

  it('refuses what is not a waiting login of this organization, a page with no code field, and bad codes', async () => {
    expect((await typeCode('nobody', MFA_CODE)).status).toBe(404);
    const pending = interactiveLogin('code-3', captcha.loginUrl, captcha.credentials);
    await waitForTakeoverUrl(t, 'code-3');
    expect(await status('code-3')).toMatchObject({ reason: 'captcha_blocked' });
    const noField = await typeCode('code-3', '123456');
    const body = await noField.json();
    expect(noField.status).toBe(409);
    expect(body).toMatchObject({ error: 'NO_CODE_FIELD' });
    expect(errorShapeProblem(body, 'login')).toBeNull();
    for (const bad of ['12', 'abc!def', '1'.repeat(13), 42]) {
      const res = await typeCode('code-3', bad);
      expect(res.status, String(bad)).toBe(400);
    }
    const other = t.core.orgs.create(`other-${Date.now()}`);
    const otherKey = t.core.keys.create(other.id, { name: 'k', scopes: ['login:write'] }).key;
    expect((await typeCode('code-3', '123456', otherKey)).status).toBe(404);
    await t.request('/api/login/code-3/cancel', { method: 'POST' });
    const cancelled = await pending;
    expect(cancelled.status).toBe(409);
    expect(await cancelled.json()).toMatchObject({ error: 'LOGIN_CANCELLED' });
  });
});

describe('a login form the engine does not find, with interactive: true', () => {
  it('is handed to a person (reason login_form_not_found), who signs in; the session comes back by itself', async () => {
    const pending = interactiveLogin('form-1', widget.url, { username: 'ada', password: 'pw-widget' });
    const url = await waitForTakeoverUrl(t, 'form-1');
    expect(await status('form-1')).toMatchObject({ status: 'needs_person', reason: 'login_form_not_found' });
    const person = await LivePerson.open(agent, url, () => t.core.login.takeover.livePage('form-1'));
    try {
      await person.settle();
      const r = person.remote;
      await person.click(r.locator('#who'));
      await person.type('ada');
      await person.click(r.locator('#secret'));
      await person.type('pw-widget');
      await person.click(r.getByText('Enter the studio'));
      const res = await pending;
      const body = (await res.json()) as { cookies: { name: string }[] };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.cookies.map((c) => c.name)).toContain('studio_session');
    } finally {
      await person.close();
    }
  });

  it('without interactive, the typed 422 comes at once, as before', async () => {
    const res = await t.request('/api/login', {
      method: 'POST',
      json: { cred: { username: 'ada', password: 'pw-widget' }, domain: widget.url, useCache: false },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).details.reason).toBe('login_form_not_found');
  });
});

/**
 * A site that signs in through custom widgets (contenteditable boxes and a div "button" run by script, no form,
 * no input): the style of some web apps' own design systems. The engine finds no login form there; a person can.
 */
async function startWidgetSite() {
  const page = `<!doctype html><html><head><title>Studio</title></head><body style="font:16px sans-serif;margin:40px">
<h1>Studio</h1><p>Who are you?</p>
<div id="who" contenteditable="true" style="border:1px solid #555;width:240px;height:28px;margin:8px 0"></div>
<p>Your phrase</p>
<div id="secret" contenteditable="true" style="border:1px solid #555;width:240px;height:28px;margin:8px 0;-webkit-text-security:disc"></div>
<div id="go" style="display:inline-block;padding:10px 16px;background:#246;color:#fff;cursor:pointer">Enter the studio</div>
<script>
document.getElementById('go').addEventListener('click', async () => {
  const who = document.getElementById('who').textContent.trim();
  const secret = document.getElementById('secret').textContent.trim();
  const res = await fetch('/enter', { method: 'POST', body: JSON.stringify({ who, secret }) });
  if (res.ok) location.href = '/home';
});
</script></body></html>`;
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/enter') {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const { who, secret } = JSON.parse(raw) as { who: string; secret: string };
        if (who !== 'ada' || secret !== 'pw-widget') return void res.writeHead(401).end();
        res.writeHead(204, { 'set-cookie': 'studio_session=s-1; Path=/; HttpOnly; SameSite=Lax' }).end();
      });
      return;
    }
    if (req.url === '/home') {
      const signedIn = /studio_session=s-1/.test(req.headers.cookie ?? '');
      res.writeHead(signedIn ? 200 : 302, signedIn ? { 'content-type': 'text/html' } : { location: '/' });
      return void res.end(signedIn ? '<h1>Welcome back, Ada</h1><a href="/">Sign out</a>' : '');
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
