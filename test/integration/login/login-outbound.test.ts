import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreOverrides } from '../../../src/main/core/create-core.js';
import { loopbackHooks, type NameTable } from '../../helpers/outbound-names.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * The login browser and the outbound policy (network.outbound). Every listener is on 127.0.0.1. The
 * policy's resolver hook makes `app.localhost` stand for a public address and `intranet.localhost` for
 * 10.0.0.5, and its dial hook connects allowed addresses to 127.0.0.1. The names are *.localhost on
 * purpose: a browser request that went around the policy's proxy would be resolved by Chromium itself to
 * 127.0.0.1 and reach the counting "intranet" listener, so these tests fail without the guard instead of
 * passing on a DNS error. Literal 10.x and 169.254.x URLs are refused before any browser opens them.
 */

const USER = 'ada@example.com';
const PASSWORD = 'pw-Correct-1';

const NAMES: NameTable = {
  'app.localhost': [{ address: '93.184.215.14', family: 4 }],
  'intranet.localhost': [{ address: '10.0.0.5', family: 4 }],
};
const hooks: CoreOverrides['outboundHooks'] = loopbackHooks(NAMES);

interface Listener {
  port: number;
  /** TCP connections accepted (HTTP, CONNECT tunnels and WebSockets alike). */
  connections: number;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<Listener> {
  const l: Listener = { port: 0, connections: 0, close: async () => {} };
  server.on('connection', () => l.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  l.port = (server.address() as net.AddressInfo).port;
  l.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return l;
}

/** The LAN service a page must never reach: answers anything, counts every connection. */
function startIntranet(): Promise<Listener> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'));
  server.on('connect', (_req, socket: net.Socket) => socket.end('HTTP/1.1 200 OK\r\n\r\n'));
  server.on('upgrade', (_req, socket: net.Socket) => socket.destroy());
  return listen(server);
}

const form = (action: string, extra = '') =>
  `<!doctype html><title>Sign in</title>${extra}<form method="post" action="${action}"><h1>Sign in</h1>` +
  `<label>Email <input type="email" name="username" autocomplete="username"></label>` +
  `<label>Password <input type="password" name="password" autocomplete="current-password"></label>` +
  `<button type="submit">Sign in</button></form>`;

/**
 * A minimal login site: /login posts to /session, which sets `sid` and goes to /account (or, for
 * /redirect/login, to the intranet). /leaky/login also loads an image, a script, a fetch, a WebSocket and
 * an https image from the intranet, and an image from the intranet listener's loopback address.
 */
function startSite(intranetPort: number): Promise<Listener> {
  const intranet = `intranet.localhost:${intranetPort}`;
  const leaks =
    `<img src="http://${intranet}/pixel.png"><img src="https://${intranet}/tls.png">` +
    // Chromium sends loopback direct unless told otherwise (<-loopback>): this one proves it is not.
    `<img src="http://127.0.0.1:${intranetPort}/loop.png">` +
    `<script src="http://${intranet}/track.js"></script>` +
    `<script>fetch('http://${intranet}/api').catch(() => {});` +
    `try { new WebSocket('ws://${intranet}/ws'); } catch {}</script>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const html = (body: string, status = 200) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (req.method === 'GET' && url.pathname === '/login') return html(form('/session'));
    if (req.method === 'GET' && url.pathname === '/leaky/login') return html(form('/session', leaks));
    if (req.method === 'GET' && url.pathname === '/redirect/login') return html(form('/session?next=intranet'));
    if (req.method === 'POST' && url.pathname === '/session') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const f = new URLSearchParams(body);
        if (f.get('username') !== USER || f.get('password') !== PASSWORD)
          return html(form('/session', '<p role="alert">Wrong email or password.</p>'), 401);
        const next = url.searchParams.get('next') === 'intranet' ? `http://${intranet}/welcome` : '/account';
        res.writeHead(302, { location: next, 'set-cookie': 'sid=s3ss10n; Path=/; HttpOnly' }).end();
      });
      return;
    }
    if (url.pathname === '/account') {
      if (!/\bsid=s3ss10n\b/.test(req.headers.cookie ?? ''))
        return void res.writeHead(302, { location: '/login' }).end();
      return html('<h1>Welcome back, Ada</h1><a href="/logout">Sign out</a>');
    }
    res.writeHead(404).end();
  });
  return listen(server);
}

let pub: TestServer;
let def: TestServer;
let intranet: Listener;
let site: Listener;

beforeAll(async () => {
  intranet = await startIntranet();
  site = await startSite(intranet.port);
  // blockResources off: images load too, so every kind of subresource is tried.
  const config = { login: { timeoutMs: 20_000 }, browser: { blockResources: false } };
  pub = await startTestServer(
    { ...config, network: { outbound: 'public-only' } },
    { overrides: { outboundHooks: hooks } },
  );
  def = await startTestServer(config, { overrides: { outboundHooks: hooks } });
});
afterAll(async () => {
  await pub?.close();
  await def?.close();
  await site?.close();
  await intranet?.close();
});

const body = (domain: string, over: Record<string, unknown> = {}) => ({
  cred: { username: USER, password: PASSWORD },
  loginMethod: 'password',
  domain,
  useCache: false,
  ...over,
});
const login = (t: TestServer, domain: string, over: Record<string, unknown> = {}) =>
  t.request('/api/login', { method: 'POST', json: body(domain, over) });
const app = (path: string) => `http://app.localhost:${site.port}${path}`;
const lan = (path: string) => `http://intranet.localhost:${intranet.port}${path}`;

/** A 400 INVALID_REQUEST naming the field and network.outbound; returns the message. */
async function expectRefused(res: Response, field: string, why: RegExp): Promise<string> {
  const answer = (await res.json()) as { error: string; message: string; details: Record<string, unknown> };
  expect(res.status).toBe(400);
  expect(answer).toMatchObject({ error: 'INVALID_REQUEST', details: { field, setting: 'network.outbound' } });
  expect(answer.message).toMatch(/network\.outbound/);
  expect(answer.message).toMatch(why);
  return answer.message;
}

describe('the URL a key names is checked before a browser opens it', () => {
  it('public-only: a login to a name that resolves to a private address is a 400, the host never reached', async () => {
    const before = intranet.connections;
    const message = await expectRefused(await login(pub, lan('/login')), 'domain', /private.*"public-only"/);
    expect(message).not.toContain('10.0.0.5');
    expect(intranet.connections).toBe(before);
  });

  it('public-only: literal private, loopback and link-local addresses are a 400', async () => {
    await expectRefused(await login(pub, 'http://10.0.0.5:8080/login'), 'domain', /"public-only"/);
    await expectRefused(await login(pub, `http://127.0.0.1:${site.port}/login`), 'domain', /loopback/);
    await expectRefused(await login(pub, 'http://169.254.169.254/latest/meta-data/'), 'domain', /link-local/);
  });

  it('default mode: link-local and metadata hosts are a 400 too', async () => {
    await expectRefused(await login(def, 'http://169.254.169.254/latest/meta-data/'), 'domain', /link-local/);
    await expectRefused(await login(def, 'http://metadata.google.internal/'), 'domain', /metadata/);
  });

  it('public-only: a sign-up on a private host is a 400, the host never reached', async () => {
    const before = intranet.connections;
    const res = await pub.request('/api/signup', {
      method: 'POST',
      json: { cred: { username: USER, password: PASSWORD }, domain: lan('/signup') },
    });
    expect(await expectRefused(res, 'domain', /"public-only"/)).not.toContain('10.0.0.5');
    expect(intranet.connections).toBe(before);
  });

  it('public-only: a session check of a private checkUrl is a 400, the host never reached', async () => {
    const res = await login(pub, app('/login'), { checkUrl: lan('/account') });
    expect(res.status).toBe(200);
    const before = intranet.connections;
    const validated = await pub.request(`/api/sessions/${res.headers.get('x-session-id')}/validate`, {
      method: 'POST',
    });
    expect(await expectRefused(validated, 'checkUrl', /"public-only"/)).not.toContain('10.0.0.5');
    expect(intranet.connections).toBe(before);
  });
});

describe('everything a login page loads goes through the policy', () => {
  it('public-only: a login on a public site works through the proxy, and its storageState works', async () => {
    const res = await login(pub, app('/login'));
    expect(res.status).toBe(200);
    const state = (await res.json()) as { cookies: { name: string; value: string; domain: string }[] };
    const sid = state.cookies.find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ value: 's3ss10n', domain: 'app.localhost' });
    const account = await fetch(`http://127.0.0.1:${site.port}/account`, {
      headers: { cookie: `sid=${sid?.value}` },
      redirect: 'manual',
    });
    expect(await account.text()).toContain('Welcome back');
    // The session check opens the site through the proxy too.
    const validated = await pub.request(`/api/sessions/${res.headers.get('x-session-id')}/validate`, {
      method: 'POST',
    });
    expect(await validated.json()).toMatchObject({ valid: true });
  });

  it('public-only: a public page loading images, scripts, fetch and a WebSocket from the intranet never reaches it', async () => {
    const before = intranet.connections;
    const res = await login(pub, app('/leaky/login'));
    // The page's own flow still works: its form posts to the public site.
    expect(res.status).toBe(200);
    expect(intranet.connections).toBe(before);
  });

  it('public-only: a redirect to the intranet after the form is sent never reaches it', async () => {
    const before = intranet.connections;
    const res = await login(pub, app('/redirect/login'));
    // The site set its session cookie, then sent the browser to a refused host (the proxy's 403 page): the
    // engine still captures the session the site gave, and the intranet saw nothing.
    expect(res.status).toBe(200);
    expect(((await res.json()) as { cookies: { name: string }[] }).cookies.map((c) => c.name)).toContain('sid');
    expect(intranet.connections).toBe(before);
  });

  it('default mode: a login page on 127.0.0.1 works, and private hosts may be loaded (the counter sees them)', async () => {
    const direct = await login(def, `http://127.0.0.1:${site.port}/login`);
    expect(direct.status).toBe(200);
    const before = intranet.connections;
    const res = await login(def, app('/leaky/login'));
    expect(res.status).toBe(200);
    expect(intranet.connections).toBeGreaterThan(before);
  });
});
