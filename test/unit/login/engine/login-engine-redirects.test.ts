import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import {
  LoginEngine,
  type EngineLoginRequest,
  type LoginResult,
} from '../../../../src/main/core/login/flow/login-engine.js';
import { isFaviconRequest } from '../../../../src/main/core/login/engine/request-interceptor.js';

/**
 * The engine concludes success as soon as the evidence is strong (new auth cookie, password field
 * gone, page loaded, nothing in flight). These pages check that it still never judges a page that
 * is already on its way out (script redirects, auto-submitted forms, meta refresh), and that it
 * skips images and fonts unless told otherwise.
 */
const WRONG_PASSWORD = 'Tr0ub4dor&3-wrong';
let pool: BrowserPool;
type Handler = (req: IncomingMessage, res: ServerResponse, body: URLSearchParams) => void;
let server: Server;
let base = '';
const routes = new Map<string, Handler>();
const requested: string[] = [];

function html(res: ServerResponse, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`);
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, { location, ...(cookie ? { 'set-cookie': cookie } : {}) });
  res.end();
}

const form = (action: string, error = ''): string =>
  `<form method="post" action="${action}"><h1>Sign in</h1>${error}<label>Email <input type="email" name="email"></label>
  <label>Password <input type="password" name="password"></label><button>Sign in</button></form>`;

function login(req: EngineLoginRequest, engine = new LoginEngine({})): Promise<LoginResult> {
  return pool.withContext((ctx) => engine.login(ctx, req));
}

const explain = (r: LoginResult): string => (r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`);

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requested.push(path);
      const handler = routes.get(path);
      if (handler) handler(req, res, new URLSearchParams(raw));
      else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.dispose();
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('LoginEngine: pages on their way out, and resource blocking', () => {
  it('a wrong password that bounces through a script-redirect page (with a new session cookie) back to the form is invalid_credentials', async () => {
    routes.set('/a/login', (q, res) =>
      html(
        res,
        form(
          '/a/do',
          new URL(q.url!, base).searchParams.has('e') ? '<p class="error">Invalid email or password</p>' : '',
        ),
      ),
    );
    routes.set('/a/do', (_q, res, b) =>
      b.get('password') === 'pw-a'
        ? redirect(res, '/a/home', 'a_session=ok; HttpOnly; Path=/')
        : redirect(res, '/a/bounce', `a_session=anon${Date.now()}; HttpOnly; Path=/`),
    );
    routes.set('/a/bounce', (_q, res) =>
      html(res, `<p>One moment…</p><script>location.replace('/a/login?e=1')</script>`),
    );
    routes.set('/a/home', (_q, res) => html(res, '<h1>Home</h1>'));
    const bad = await login({ url: `${base}/a/login`, username: 'ann@example.com', password: WRONG_PASSWORD });
    expect(bad, explain(bad)).toMatchObject({ ok: false, reason: 'invalid_credentials' });
    const ok = await login({ url: `${base}/a/login`, username: 'ann@example.com', password: 'pw-a' });
    expect(ok.ok, explain(ok)).toBe(true);
  });

  it('follows an auto-submitted form (SAML-style POST binding) to the app and captures its session', async () => {
    routes.set('/b/login', (_q, res) => html(res, form('/b/idp')));
    routes.set('/b/idp', (_q, res, b) => {
      if (b.get('password') !== 'pw-b') return html(res, form('/b/idp', '<p role="alert">Wrong password</p>'));
      html(
        res,
        `<form method="post" action="/b/acs"><input type="hidden" name="SAMLResponse" value="x"><noscript><button>Continue</button></noscript></form>
        <script>setTimeout(() => document.forms[0].submit(), 30)</script>`,
        { 'set-cookie': 'idp_auth=1; HttpOnly; Path=/' },
      );
    });
    routes.set('/b/acs', (_q, res) => redirect(res, '/b/home', 'sp_session=2; HttpOnly; Path=/'));
    routes.set('/b/home', (_q, res) => html(res, '<h1>Dashboard</h1>'));
    const ok = await login({ url: `${base}/b/login`, username: 'bo@example.com', password: 'pw-b' });
    expect(ok.ok, explain(ok)).toBe(true);
    if (!ok.ok) return;
    expect(ok.finalUrl).toBe(`${base}/b/home`);
    expect(ok.storageState.cookies.map((c) => c.name).sort()).toEqual(['idp_auth', 'sp_session']);
  });

  it('waits for a meta refresh after the login before capturing', async () => {
    routes.set('/c/login', (_q, res) => html(res, form('/c/do')));
    routes.set('/c/do', (_q, res) =>
      html(res, `<meta http-equiv="refresh" content="0;url=/c/final"><p>Signed in, redirecting…</p>`, {
        'set-cookie': 'c_auth=1; HttpOnly; Path=/',
      }),
    );
    routes.set('/c/final', (_q, res) => html(res, '<h1>Welcome</h1>', { 'set-cookie': 'c_prefs=dark; Path=/' }));
    const ok = await login({ url: `${base}/c/login`, username: 'cy@example.com', password: 'pw-c' });
    expect(ok.ok, explain(ok)).toBe(true);
    if (!ok.ok) return;
    expect(ok.finalUrl).toBe(`${base}/c/final`);
    expect(ok.storageState.cookies.map((c) => c.name).sort()).toEqual(['c_auth', 'c_prefs']);
  });

  it('skips images, media, fonts and the favicon by default (a captcha image still loads); blockResources: false loads them', async () => {
    const page = `<link rel="icon" href="/d/favicon.ico"><img src="/d/logo.png" width="40" height="40"><img src="/d/captcha.png" width="1" height="1" alt="">
      <style>@font-face { font-family: X; src: url(/d/font.woff2); } body { font-family: X; }</style>${form('/d/do')}`;
    routes.set('/d/login', (_q, res) => html(res, page));
    routes.set('/d/do', (_q, res) => redirect(res, '/d/home', 'd_session=1; HttpOnly; Path=/'));
    routes.set('/d/home', (_q, res) => html(res, '<h1>Home</h1><img src="/d/banner.jpg" width="10" height="10">'));
    requested.length = 0;
    const blocked = await login({ url: `${base}/d/login`, username: 'di@example.com', password: 'pw-d' });
    expect(blocked.ok, explain(blocked)).toBe(true);
    expect(requested).toContain('/d/captcha.png');
    expect(requested.filter((p) => /logo|banner|font|favicon/.test(p))).toEqual([]);
    requested.length = 0;
    const loaded = await login(
      { url: `${base}/d/login`, username: 'di@example.com', password: 'pw-d' },
      new LoginEngine({ blockResources: false }),
    );
    expect(loaded.ok, explain(loaded)).toBe(true);
    expect(requested).toEqual(expect.arrayContaining(['/d/logo.png', '/d/banner.jpg']));
  });
});

describe('isFaviconRequest', () => {
  it("names the browser's own icon fetch, not the page's requests", () => {
    expect(isFaviconRequest('http://a.test/favicon.ico', 'other')).toBe(true);
    expect(isFaviconRequest('http://a.test/static/favicon-32x32.png', 'Other')).toBe(true);
    expect(isFaviconRequest('http://a.test/assets/app.ico?v=2', 'other')).toBe(true);
    // the page asking for the same URL (fetch, an <img>) is the page's activity
    expect(isFaviconRequest('http://a.test/favicon.ico', 'fetch')).toBe(false);
    expect(isFaviconRequest('http://a.test/favicon.ico', 'image')).toBe(false);
    expect(isFaviconRequest('http://a.test/api/session', 'other')).toBe(false);
    expect(isFaviconRequest('not a url', 'other')).toBe(false);
  });
});
