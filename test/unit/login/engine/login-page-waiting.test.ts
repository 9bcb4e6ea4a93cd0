import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { LoginEngine, type LoginResult } from '../../../../src/main/core/login/flow/login-engine.js';

/**
 * How long the engine waits for a login UI is decided by the page: a page that shows a spinner or
 * an empty app root is not settled even when the network is quiet, and a login form rendered
 * later (with no request in between) is still found. A static page without a form is judged as soon
 * as it settles.
 *
 * The late form is drawn when the test tells the page to, over an event stream (which the engine's network
 * watch leaves out, as it does a site's own streams): once the engine's steps say it is waiting on what the
 * page shows. A form drawn after a fixed delay raced the engine's first look on a loaded machine (the look
 * came after the form, and the waiting was never seen).
 */
const USER = 'grace@example.test';
const PASSWORD = 'n0t-a-real-secret-9';
let pool: BrowserPool;
let server: Server;
let base = '';
const pages = new Map<string, string>();

const LOGIN_FORM = `<h1>Sign in</h1><form method="post" action="/session"><label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label><button>Sign in</button></form>`;

/** An app that renders its login form when the server's event stream says so, with no request in between. */
const lateApp = (shell: string): string =>
  `${shell}<script>new EventSource('/events').onmessage = () => { document.getElementById('root').innerHTML = ${JSON.stringify(LOGIN_FORM)}; };</script>`;

/** The open event streams of the late apps: `drawForms` tells each page to render its form. */
const streams = new Set<ServerResponse>();
const drawForms = (): void => {
  for (const s of streams) s.write('data: render\n\n');
};

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
  pages.set(
    '/spinner',
    lateApp('<div id="root"><div class="spinner" role="progressbar" aria-label="Loading">…</div></div>'),
  );
  pages.set('/empty-root', lateApp('<div id="root"></div>'));
  pages.set('/static', '<h1>About us</h1><p>We make tools. There is nothing to sign in to here.</p>');
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': open\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (path === '/session' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const ok = new URLSearchParams(raw).get('password') === PASSWORD;
        res.writeHead(
          303,
          ok ? { location: '/home', 'set-cookie': 'sid=s1; HttpOnly; Path=/' } : { location: '/spinner' },
        );
        res.end();
      });
      return;
    }
    const body = path === '/home' ? '<h1>Welcome back</h1>' : pages.get(path);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body ?? ''}</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.dispose();
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

/** Logs in at `path`; the late apps' forms are drawn once a step matches `drawWhen`. */
const login = (path: string, drawWhen?: RegExp): Promise<LoginResult> =>
  pool.withContext((ctx) =>
    new LoginEngine({}).login(ctx, {
      url: base + path,
      username: USER,
      password: PASSWORD,
      timeoutMs: 30_000,
      onStep: (line) => {
        if (drawWhen?.test(line)) drawForms();
      },
    }),
  );

const explain = (r: LoginResult): string => (r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`);

describe('LoginEngine: waiting for a login UI', () => {
  it('keeps watching a page that shows a spinner, and logs in once the form renders', async () => {
    const r = await login('/spinner', /^waiting: the page shows loading indicator/);
    expect(r.ok, explain(r)).toBe(true);
    expect(r.steps.join('\n')).toMatch(/waiting: the page shows loading indicator/);
  });

  it('keeps watching an empty app root, and logs in once the form renders', async () => {
    const r = await login('/empty-root', /^waiting: the page shows empty app shell/);
    expect(r.ok, explain(r)).toBe(true);
    expect(r.steps.join('\n')).toMatch(/waiting: the page shows empty app shell/);
  });

  it('judges a settled page without a login form once it settles (not at the settle bound)', async () => {
    const r = await login('/static');
    expect(r.ok ? 'ok' : r.reason, explain(r)).toBe('login_form_not_found');
    // Judged because the page settled, not because the bound ran out (how soon is the login bench's business).
    expect(r.steps.join('\n')).not.toMatch(/did not settle within/);
  });
});
