import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { LoginEngine, type LoginResult } from '../../../../src/main/core/login/flow/login-engine.js';

/**
 * How long the engine waits for a login UI is decided by the page: a page that shows a spinner or
 * an empty app root is not settled even when the network is quiet, and a login form rendered
 * later (here: 1.5 s after load, with no request in between) is still found. A static page without
 * a form is judged soon after it settles.
 */
const USER = 'grace@example.test';
const PASSWORD = 'n0t-a-real-secret-9';
let pool: BrowserPool;
let server: Server;
let base = '';
const pages = new Map<string, string>();

const LOGIN_FORM = `<h1>Sign in</h1><form method="post" action="/session"><label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label><button>Sign in</button></form>`;

/** An app that renders its login form 1.5 s after load without any request in between. */
const lateApp = (shell: string): string =>
  `${shell}<script>setTimeout(() => { document.getElementById('root').innerHTML = ${JSON.stringify(LOGIN_FORM)}; }, 1500);</script>`;

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

const login = (path: string): Promise<LoginResult> =>
  pool.withContext((ctx) =>
    new LoginEngine({}).login(ctx, { url: base + path, username: USER, password: PASSWORD, timeoutMs: 30_000 }),
  );

const explain = (r: LoginResult): string => (r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`);

describe('LoginEngine: waiting for a login UI', () => {
  it('keeps watching a page that shows a spinner, and logs in once the form renders', async () => {
    const r = await login('/spinner');
    expect(r.ok, explain(r)).toBe(true);
    expect(r.steps.join('\n')).toMatch(/waiting: the page shows loading indicator/);
  });

  it('keeps watching an empty app root, and logs in once the form renders', async () => {
    const r = await login('/empty-root');
    expect(r.ok, explain(r)).toBe(true);
  });

  it('judges a settled page without a login form soon (no fixed long wait)', async () => {
    const started = Date.now();
    const r = await login('/static');
    expect(r.ok ? 'ok' : r.reason, explain(r)).toBe('login_form_not_found');
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
