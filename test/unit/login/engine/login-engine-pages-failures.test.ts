// LoginEngine on hand-made pages where the login does not succeed: an unreachable site, no login UI, a timeout,
// an abort, a second factor asked for, and wrong passwords reported by alert(), a silent step back or a toast.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  base,
  explain,
  html,
  login,
  LOGIN_FORM,
  redirect,
  routes,
  usePageServer,
  WRONG_PASSWORD,
} from './login-engine-pages.server.js';

usePageServer();

describe('LoginEngine on hand-made pages', () => {
  it('site_unreachable when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = await login({
      url: `http://127.0.0.1:${port}/login`,
      username: 'u@example.com',
      password: 'pw-secret-1',
    });
    expect(result).toMatchObject({ ok: false, reason: 'site_unreachable' });
    expect(result.ok ? '' : result.message).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it('site_unreachable when the login page answers HTTP 5xx', async () => {
    routes.set('/a/login', (_q, res) => html(res, '<h1>Bad gateway</h1>', 502));
    const result = await login({ url: `${base}/a/login`, username: 'u', password: 'pw-secret-1' });
    expect(result).toMatchObject({ ok: false, reason: 'site_unreachable' });
  });

  it('login_form_not_found on a page without any login UI', async () => {
    routes.set('/b/home', (_q, res) =>
      html(res, '<h1>Welcome</h1><p>Nothing to see.</p><a href="/register">Sign up</a><button>Get started</button>'),
    );
    const result = await login({ url: `${base}/b/home`, username: 'u', password: 'pw-secret-1' });
    expect(result).toMatchObject({ ok: false, reason: 'login_form_not_found' });
    expect(result.steps.join('\n')).not.toMatch(/clicked/);
  });

  it('timeout when the site never answers the submit', async () => {
    routes.set('/c/login', (_q, res) => html(res, LOGIN_FORM));
    routes.set('/c/do-login', () => {}); // never responds
    const started = Date.now();
    const result = await login({
      url: `${base}/c/login`,
      username: 'u@example.com',
      password: 'pw-secret-1',
      timeoutMs: 4000,
    });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('rejects when the caller aborts', async () => {
    const controller = new AbortController();
    routes.set('/d/login', (_q, res) => html(res, LOGIN_FORM.replace('/c/do-login', '/d/do')));
    routes.set('/d/do', () => controller.abort(new Error('stop'))); // the caller gives up while the site hangs
    const pending = login(
      { url: `${base}/d/login`, username: 'u@example.com', password: 'pw-secret-1' },
      controller.signal,
    );
    await expect(pending).rejects.toThrow('stop');
  });

  it('reports mfa_required for a PIN-style one-time-code field and ignores an invisible reCAPTCHA badge', async () => {
    const form = `<form method="post" action="/k/do"><h1>Log in</h1><input name="user"><input type="password" name="pass"><button>Log in</button>
      <p class="recaptcha-terms">This site is protected by reCAPTCHA and the Google Privacy Policy and Terms of Service apply.</p></form>
      <div class="grecaptcha-badge" style="width:256px;height:60px;position:fixed;right:0;bottom:14px"><iframe title="reCAPTCHA" src="/k/anchor?size=invisible" width="256" height="60"></iframe></div>`;
    routes.set('/k/login', (_q, res) => html(res, form));
    routes.set('/k/anchor', (_q, res) => html(res, 'badge'));
    routes.set('/k/do', (_q, res, b) =>
      b.get('pass') === 'pw-secret-8'
        ? html(
            res,
            `<form method="post" action="/k/otp"><h1>Check your phone</h1><label>Code <input type="password" name="otp" autocomplete="one-time-code"></label><button>Verify</button></form>`,
          )
        : html(res, `<div role="alert">Invalid username or password</div>${form}`),
    );
    const mfa = await login({ url: `${base}/k/login`, username: 'finn', password: 'pw-secret-8' });
    expect(mfa, explain(mfa)).toMatchObject({ ok: false, reason: 'mfa_required' });
    const bad = await login({ url: `${base}/k/login`, username: 'finn', password: WRONG_PASSWORD });
    expect(bad).toMatchObject({ ok: false, reason: 'invalid_credentials' });
  });

  it('reads an error reported with alert()', async () => {
    routes.set('/n/login', (_q, res) =>
      html(
        res,
        `<form id="f"><input name="login" placeholder="Login"><input type="password" name="pw" placeholder="Password"><input type="submit" value="OK"></form>
        <script>document.getElementById('f').onsubmit = (e) => { e.preventDefault(); fetch('/n/check', { method: 'POST' }).then(() => alert('Invalid login or password!')); };</script>`,
      ),
    );
    routes.set('/n/check', (_q, res) => html(res, 'no'));
    const bad = await login({ url: `${base}/n/login`, username: 'ivy', password: WRONG_PASSWORD });
    expect(bad, explain(bad)).toMatchObject({ ok: false, reason: 'invalid_credentials' });
    expect(bad.ok ? '' : bad.message).toMatch(/Invalid login or password/);
  });

  it('a wrong password that silently returns to the username step is invalid_credentials, not success', async () => {
    const step1 = `<form method="post" action="/q/next"><h1>Sign in</h1><input type="email" name="email" autocomplete="username"><button>Next</button></form>`;
    routes.set('/q/login', (_q, res) => html(res, step1));
    routes.set('/q/next', (_q, res) =>
      html(
        res,
        `<form method="post" action="/q/pw"><h1>Sign in</h1><input type="password" name="pw"><button>Sign in</button></form>`,
      ),
    );
    routes.set('/q/pw', (_q, res) => redirect(res, '/q/login'));
    const bad = await login({ url: `${base}/q/login`, username: 'kim@example.com', password: WRONG_PASSWORD });
    expect(bad, explain(bad)).toMatchObject({ ok: false, reason: 'invalid_credentials' });
  });

  it('catches an error toast that disappears quickly', async () => {
    routes.set('/r/login', (_q, res) =>
      html(
        res,
        `<div><input placeholder="Username"><input type="password" placeholder="Password"><button id="b">Sign in</button></div><div id="toasts"></div>
        <script>document.getElementById('b').onclick = () => fetch('/r/api', { method: 'POST' }).then(() => {
          const t = document.createElement('div'); t.textContent = 'Login failed'; document.getElementById('toasts').append(t);
          setTimeout(() => t.remove(), 400);
        });</script>`,
      ),
    );
    routes.set('/r/api', (_q, res) => html(res, '{}', 401));
    const bad = await login({ url: `${base}/r/login`, username: 'lee', password: WRONG_PASSWORD });
    expect(bad, explain(bad)).toMatchObject({
      ok: false,
      reason: 'invalid_credentials',
      message: expect.stringMatching(/Login failed/),
    });
  });
});
