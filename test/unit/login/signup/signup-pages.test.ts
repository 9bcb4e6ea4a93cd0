import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { LoginEngine } from '../../../../src/main/core/login/flow/login-engine.js';
import { SignupRunner } from '../../../../src/main/core/login/signup/signup-flow.js';
import type { SignupRequest, SignupResult } from '../../../../src/main/core/login/signup/signup-types.js';

/**
 * SignupRunner against small hand-made sign-up pages on a loopback server: the styles the fixture site
 * does not show (a single-page app without <form> that validates in the page, first/last name and user
 * name fields, a styled terms checkbox, a pre-ticked newsletter box, German wording, a site that creates
 * the account without signing in, a page without any sign-up).
 */
const PASSWORD = 'Correct-Horse-Battery-9';
let pool: BrowserPool;
const runner = new SignupRunner({ login: new LoginEngine({}) });

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server;
let base = '';
const routes = new Map<string, Handler>();
/** What the pages' servers received, by path. */
const received = new Map<string, Record<string, unknown>>();

function html(res: ServerResponse, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`);
}

function signup(path: string, over: Partial<SignupRequest> = {}): Promise<SignupResult> {
  return pool.withContext((ctx) =>
    runner.signup(ctx, {
      url: `${base}${path}`,
      username: 'ada@example.com',
      password: PASSWORD,
      additionalFields: { name: 'Ada Lovelace' },
      timeoutMs: 20_000,
      codeTimeoutMs: 5000,
      ...over,
    }),
  );
}

const explain = (r: SignupResult): string => (r.ok ? 'ok' : `${r.reason}: ${r.message}\n${r.steps.join('\n')}`);

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (handler) handler(req, res, raw);
      else html(res, 'not found');
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

// A single-page app: no <form>, validation in the page (role=alert), a JSON POST, then a client-side redirect.
routes.set('/spa/join', (_req, res) =>
  html(
    res,
    `<div id="app"><h2>Join Quill</h2>
<div><label for="fn">First name</label><input id="fn"></div>
<div><label for="ln">Last name</label><input id="ln"></div>
<div><label for="un">Username</label><input id="un" autocomplete="username"></div>
<div><label for="em">Email</label><input id="em" type="email"></div>
<div><label for="pw">Password</label><input id="pw" type="password" autocomplete="new-password"></div>
<div class="check"><input id="tos" type="checkbox" style="opacity:0;position:absolute">
<label for="tos">I accept the <a href="/terms">Terms</a></label></div>
<div><input id="news" type="checkbox" checked><label for="news">Email me product updates and tips</label></div>
<p id="msg" role="alert"></p>
<div role="button" tabindex="0" id="go" class="btn">Sign up</div></div>
<script>
const $ = (id) => document.getElementById(id);
$('go').addEventListener('click', async () => {
  if ($('pw').value.length < 12) { $('msg').textContent = 'Password must be at least 12 characters'; return; }
  if (!$('tos').checked) { $('msg').textContent = 'Please accept the Terms'; return; }
  const body = { first: $('fn').value, last: $('ln').value, username: $('un').value, email: $('em').value,
    password: $('pw').value, news: $('news').checked };
  const r = await fetch('/spa/api/signup', { method: 'POST', body: JSON.stringify(body) });
  if (r.ok) location.href = '/spa/home';
});
</script>`,
  ),
);
routes.set('/spa/api/signup', (_req, res, raw) => {
  received.set('/spa/api/signup', JSON.parse(raw) as Record<string, unknown>);
  res.writeHead(201, {
    'content-type': 'application/json',
    'set-cookie': 'quill_session=s3cr3t-token; HttpOnly; Path=/',
  });
  res.end('{}');
});
routes.set('/spa/home', (req, res) =>
  html(res, req.headers.cookie?.includes('quill_session') ? '<h1>Your feed</h1>' : '<h1>Signed out</h1>'),
);

// German wording; the server answers that the address is taken.
routes.set('/de/registrieren', (_req, res) =>
  html(
    res,
    `<h1>Konto erstellen</h1><form method="post" action="/de/registrieren-post">
<label>E-Mail <input type="email" name="email"></label>
<label>Passwort <input type="password" name="pw1"></label>
<label>Passwort wiederholen <input type="password" name="pw2"></label>
<label><input type="checkbox" name="agb" required> Ich akzeptiere die AGB</label>
<label><input type="checkbox" name="nl"> Newsletter abonnieren</label>
<button type="submit">Registrieren</button></form>`,
  ),
);
routes.set('/de/registrieren-post', (_req, res, raw) => {
  received.set('/de/registrieren-post', Object.fromEntries(new URLSearchParams(raw)));
  html(res, `<h1>Konto erstellen</h1><div class="fehler error">Diese E-Mail-Adresse ist bereits registriert.</div>`);
});

// The account is created, but the site does not sign in: it shows a page with a "Log in" link.
routes.set('/plain/signup', (_req, res) =>
  html(
    res,
    `<h1>Create an account</h1><form method="post" action="/plain/signup-post">
<label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password" autocomplete="new-password"></label>
<button>Create account</button></form>`,
  ),
);
routes.set('/plain/signup-post', (_req, res) =>
  html(res, `<h1>Thanks for joining!</h1><p>Your account is ready. <a href="/plain/login">Log in</a></p>`),
);
routes.set('/plain/login', (_req, res) =>
  html(
    res,
    `<h1>Log in</h1><form method="post" action="/plain/login-post"><label>Email <input type="email" name="email"></label>
<label>Password <input type="password" name="password"></label><button>Log in</button></form>`,
  ),
);
routes.set('/plain/login-post', (_req, res, raw) => {
  const ok = new URLSearchParams(raw).get('password') === PASSWORD;
  if (!ok) return html(res, '<h1>Log in</h1><p class="error">Wrong password</p>');
  res.writeHead(303, { location: '/plain/home', 'set-cookie': 'plain_sid=abc123xyz; HttpOnly; Path=/' });
  res.end();
});
routes.set('/plain/home', (_req, res) => html(res, '<h1>Dashboard</h1>'));

routes.set('/nothing', (_req, res) =>
  html(res, '<h1>About us</h1><p>We make things.</p><a href="/contact">Contact</a>'),
);

describe('SignupRunner on hand-made pages', () => {
  it('a single-page app without <form>: names split, user name from the email, styled terms ticked, newsletter unticked', async () => {
    const result = await signup('/spa/join');
    expect(result.ok, explain(result)).toBe(true);
    expect(received.get('/spa/api/signup')).toEqual({
      first: 'Ada',
      last: 'Lovelace',
      username: 'ada',
      email: 'ada@example.com',
      password: PASSWORD,
      news: false,
    });
    expect(result.ok && result.storageState.cookies.map((c) => c.name)).toEqual(['quill_session']);
  });

  it("the page's own validation message is the rejection", async () => {
    received.delete('/spa/api/signup');
    const result = await signup('/spa/join', { password: 'short-pw' });
    expect(result).toMatchObject({ ok: false, reason: 'signup_rejected' });
    expect(!result.ok && result.message).toContain('Password must be at least 12 characters');
    expect(received.has('/spa/api/signup')).toBe(false);
  });

  it('German: the confirmation filled, AGB ticked, newsletter not; "bereits registriert" is user_exists', async () => {
    const result = await signup('/de/registrieren');
    expect(result).toMatchObject({ ok: false, reason: 'user_exists' });
    expect(received.get('/de/registrieren-post')).toEqual({
      email: 'ada@example.com',
      pw1: PASSWORD,
      pw2: PASSWORD,
      agb: 'on',
    });
  });

  it('no session after the sign-up: logs in through the page the site shows', async () => {
    const result = await signup('/plain/signup', { additionalFields: {} });
    expect(result.ok, explain(result)).toBe(true);
    expect(result.ok && result.storageState.cookies.map((c) => c.name)).toEqual(['plain_sid']);
    // The page is a POST result (not to be opened again): its "Log in" link leads to the login page.
    expect(result.steps).toEqual(
      expect.arrayContaining([
        'no session after the sign-up; signing in with the new account',
        "following sign-in link 'Log in'",
      ]),
    );
  });

  it('signup_form_not_found on a page without a sign-up form or link; secrets never in the trace', async () => {
    const result = await signup('/nothing');
    expect(result).toMatchObject({ ok: false, reason: 'signup_form_not_found' });
    expect(JSON.stringify(result)).not.toContain(PASSWORD);
  });
});
