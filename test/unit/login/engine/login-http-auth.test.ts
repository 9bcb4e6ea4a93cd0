import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { decideAuthChallenge } from '../../../../src/main/core/login/engine/request-interceptor.js';
import {
  LoginEngine,
  type EngineLoginRequest,
  type LoginResult,
} from '../../../../src/main/core/login/flow/login-engine.js';
import { OutboundPolicy } from '../../../../src/main/core/net/outbound-policy.js';

/**
 * HTTP authentication (401 + WWW-Authenticate) must never leave a login waiting on the browser's
 * credentials prompt: the login page's own challenge is answered with the credentials (an HTTP-auth
 * site is a login too), any other challenge is cancelled and the page decides the outcome.
 */
const USER = 'ada@example.test';
const PASSWORD = 'c0rrect-h0rse-battery';
const basicOk = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
let pool: BrowserPool;
let server: Server;
let base = '';
const routes = new Map<string, (req: IncomingMessage, res: ServerResponse, body: string) => void>();

function html(res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`);
}

const challenge = { 'www-authenticate': 'Basic realm="admin", charset="UTF-8"' };

const login = (req: Partial<EngineLoginRequest> & { url: string }): Promise<LoginResult> =>
  pool.withContext((ctx) =>
    new LoginEngine({}).login(ctx, { username: USER, password: PASSWORD, timeoutMs: 20_000, ...req }),
  );

const explain = (r: LoginResult): string => (r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`);

beforeAll(async () => {
  // As the server builds it: every request through the outbound proxy, challenges answered through it.
  pool = new BrowserPool({
    executablePath: resolveBrowserExecutable({}).path,
    maxContexts: 2,
    outbound: new OutboundPolicy(),
  });
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) handler(req, res, raw);
      else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set('/admin', (req, res) =>
    req.headers.authorization === basicOk
      ? html(res, '<h1>Router admin</h1><p>Status: online</p>')
      : html(res, '<h1>401 Authorization Required</h1>', 401, challenge),
  );
  // A single-page app: the form posts by XHR; a wrong password makes the API challenge with Basic.
  routes.set('/app', (_req, res) =>
    html(
      res,
      `<h1>Sign in</h1><form id="f"><label>Email <input type="email" name="email" autocomplete="username"></label>
      <label>Password <input type="password" name="password" autocomplete="current-password"></label>
      <button>Sign in</button></form><p id="msg" role="alert"></p>
      <script>document.getElementById('f').addEventListener('submit', async (e) => {
        e.preventDefault();
        const r = await fetch('/api/session', { method: 'POST', body: new FormData(e.target) });
        if (r.ok) { localStorage.setItem('token', 'tok-' + Date.now()); location.href = '/home'; }
        else document.getElementById('msg').textContent = 'Login failed. Check your email and password.';
      });</script>`,
    ),
  );
  routes.set('/api/session', (_req, res, body) => {
    if (body.includes(PASSWORD)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    } else {
      res.writeHead(401, challenge);
      res.end();
    }
  });
  routes.set('/home', (_req, res) => html(res, '<h1>Welcome back</h1>'));
});

afterAll(async () => {
  await pool?.dispose();
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('decideAuthChallenge', () => {
  const base = { resourceType: 'Document', mainFrame: true, alreadyAnswered: false, formSubmitted: false };
  it('answers the challenge of the page being opened, once', () => {
    expect(decideAuthChallenge(base)).toBe('provide');
    expect(decideAuthChallenge({ ...base, alreadyAnswered: true })).toBe('cancel');
  });
  it('cancels challenges of subresources, iframes and anything after a form was submitted', () => {
    expect(decideAuthChallenge({ ...base, resourceType: 'XHR' })).toBe('cancel');
    expect(decideAuthChallenge({ ...base, resourceType: 'Fetch' })).toBe('cancel');
    expect(decideAuthChallenge({ ...base, mainFrame: false })).toBe('cancel');
    expect(decideAuthChallenge({ ...base, formSubmitted: true })).toBe('cancel');
  });
});

describe('LoginEngine: HTTP authentication', () => {
  it('logs in to a page protected by HTTP Basic authentication', async () => {
    const r = await login({ url: `${base}/admin` });
    expect(r.ok, explain(r)).toBe(true);
    expect(r.steps.join('\n')).toMatch(/HTTP authentication/);
    expect(r.steps.join('\n')).not.toContain(PASSWORD);
  });

  it('a refused HTTP Basic password is invalid_credentials, quickly', async () => {
    const started = Date.now();
    const r = await login({ url: `${base}/admin`, password: 'wrong-password-1' });
    expect(r.ok ? 'ok' : r.reason, explain(r)).toBe('invalid_credentials');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('an XHR that answers a wrong password with a Basic challenge is cancelled: invalid_credentials, no hang', async () => {
    const started = Date.now();
    const r = await login({ url: `${base}/app`, password: 'wrong-password-2' });
    expect(r.ok ? 'ok' : r.reason, explain(r)).toBe('invalid_credentials');
    if (!r.ok) expect(r.message).toMatch(/Login failed/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('the same app with the right password logs in', async () => {
    const r = await login({ url: `${base}/app` });
    expect(r.ok, explain(r)).toBe(true);
  });

  it('a script and a stylesheet behind a Basic challenge on the login page are cancelled; the page loads and the login completes', async () => {
    const refuse = (_q: IncomingMessage, res: ServerResponse): void => {
      res.writeHead(401, challenge);
      res.end();
    };
    routes.set('/locked.js', refuse);
    routes.set('/locked.css', refuse);
    // A parser-blocking script: left to the browser, its challenge would stall the page before the form.
    routes.set('/with-locked-assets', (_q, res) =>
      html(
        res,
        `<link rel="stylesheet" href="/locked.css"><script src="/locked.js"></script>
        <form method="post" action="/with-locked-assets/do"><input name="u" autocomplete="username">
        <input type="password" name="p"><button>Log in</button></form>`,
      ),
    );
    routes.set('/with-locked-assets/do', (_q, res) => {
      res.writeHead(302, { location: '/dashboard', 'set-cookie': 'sid=s1; HttpOnly; Path=/' });
      res.end();
    });
    routes.set('/dashboard', (_q, res) => html(res, '<h1>Dashboard</h1>'));
    const r = await login({ url: `${base}/with-locked-assets` });
    expect(r.ok, explain(r)).toBe(true);
    if (r.ok) expect(r.steps.join('\n')).toMatch(/cancelled an HTTP authentication prompt from Script/);
  });
});
