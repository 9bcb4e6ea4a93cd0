/**
 * What the login engine may call a success (issue "round 3": never a false success): evidence of a
 * session, never a form that merely went away; and what it may call a lockout or a failure: a notice
 * on a signed-in page, or a lockout named as a possibility, is not the verdict.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { LoginEngine, type LoginResult } from '../../../../src/main/core/login/flow/login-engine.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';

let pool: BrowserPool;
let server: Server;
let base = '';
const engine = new LoginEngine({});
const USER = 'ada@example.com';
const PASSWORD = 'right-password-1';

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`);
}

/**
 * /vanish: the form removes itself on submit and says "Welcome!" whatever the password, with no
 * request, cookie, storage or navigation - nothing that is a session.
 */
const VANISHING_FORM = `<h1>Sign in</h1><form id="f"><label for="u">Email</label><input id="u" type="email" autocomplete="username">
<label for="p">Password</label><input id="p" type="password" autocomplete="current-password"><button>Sign in</button></form>
<script>document.getElementById('f').addEventListener('submit', (e) => { e.preventDefault(); document.getElementById('f').remove();
document.body.insertAdjacentHTML('beforeend', '<p>Welcome!</p>'); });</script>`;

/** /required: a workspace field the page requires (native validation) that the request does not fill. */
const REQUIRED_FIELD_FORM = `<h1>Sign in</h1><form method="post" action="/session"><label for="w">Workspace</label>
<input id="w" name="workspace" required><label for="u">Email</label><input id="u" name="email" type="email" autocomplete="username">
<label for="p">Password</label><input id="p" name="password" type="password" autocomplete="current-password"><button>Sign in</button></form>`;

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/vanish') html(res, VANISHING_FORM);
    else if (path === '/required') html(res, REQUIRED_FIELD_FORM);
    else html(res, 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.dispose();
  await new Promise<void>((r) => server?.close(() => r()));
});

function login(url: string, username: string, password: string): Promise<LoginResult> {
  return pool.withContext((ctx) => engine.login(ctx, { url, username, password, timeoutMs: 20_000 }));
}

describe('login verdicts', () => {
  it('a form the browser will not submit (a required field the request left empty) is credentials_required, never a 401', async () => {
    const result = await login(`${base}/required`, USER, PASSWORD);
    expect(result.ok, result.ok ? 'ok' : result.steps.join('\n')).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe('credentials_required');
      expect(result.message).toMatch(/required or invalid fields: .*workspace.*\(pass them in additionalFields\)/i);
    }
  });

  it('a form that goes away with no sign of a session is not a success', async () => {
    const result = await login(`${base}/vanish`, USER, PASSWORD);
    expect(result.ok, result.ok ? 'ok' : result.steps.join('\n')).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe('invalid_credentials');
      expect(result.message).toMatch(/nothing shows a session/);
    }
  });

  describe('a site that words wrong passwords as a possible lockout and reports failed attempts once signed in', () => {
    let site: FixtureSite;
    beforeAll(async () => {
      site = await startSite('lockout-notice');
    });
    afterAll(() => site?.close());

    it('a wrong password is invalid_credentials, not account_locked; the next right one is a success', async () => {
      const wrong = await login(site.loginUrl, site.credentials.username, 'not-the-password');
      expect(wrong.ok).toBe(false);
      if (!wrong.ok) expect(wrong.reason).toBe('invalid_credentials');
      // The signed-in page now says "1 failed login attempt logged since your last login".
      const right = await login(site.loginUrl, site.credentials.username, site.credentials.password);
      expect(right.ok, right.ok ? 'ok' : `${right.reason}: ${right.steps.join('\n')}`).toBe(true);
      if (right.ok) expect(right.steps.some((s) => /login succeeded/.test(s))).toBe(true);
      expect(site.stats()).toEqual({ loginAttempts: 2, successfulLogins: 1 });
    });
  });
});
