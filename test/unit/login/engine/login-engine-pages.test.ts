// LoginEngine on hand-made pages that log in: consent banners and dialogs, a late SPA form behind "Log in", extra
// fields, two steps on separate URLs, a login modal, a hidden menu link and a slow POST.
import { describe, expect, it } from 'vitest';
import {
  altBase,
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
  it('dismisses a consent banner covering the form, then logs in; captures localStorage of every visited origin', async () => {
    routes.set('/e/login', (_q, res) =>
      html(
        res,
        `${LOGIN_FORM.replace('/c/do-login', '/e/do-login')}
        <div id="cookie-consent" style="position:fixed;inset:0;background:rgba(0,0,0,.4);z-index:10">
          <div style="background:#fff;margin:200px auto;width:300px">We use cookies. <button onclick="document.getElementById('cookie-consent').remove()">Accept all</button></div>
        </div>`,
      ),
    );
    routes.set('/e/do-login', (_q, res, body) => {
      if (body.get('email') === 'ann@example.com' && body.get('password') === 'pw-secret-2') {
        res.writeHead(303, { location: `${altBase}/e/sso-callback`, 'set-cookie': 'e_session=ok; HttpOnly; Path=/' });
        res.end();
      } else html(res, `<p role="alert">Invalid email or password</p>${LOGIN_FORM}`);
    });
    // Another origin sets a token in localStorage, then sends the user back.
    routes.set('/e/sso-callback', (_q, res) =>
      html(res, `<script>localStorage.setItem('sso_token', 'tok-123'); location.replace('${base}/e/home');</script>`),
    );
    routes.set('/e/home', (_q, res) => html(res, '<h1>Dashboard</h1>'));
    const result = await login({ url: `${base}/e/login`, username: 'ann@example.com', password: 'pw-secret-2' });
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}\n${result.steps.join('\n')}`);
    expect(result.steps.join('\n')).toMatch(/consent/);
    expect(result.finalUrl).toBe(`${base}/e/home`);
    expect(result.storageState.cookies.map((c) => c.name)).toContain('e_session');
    const alt = result.storageState.origins.find((o) => o.origin === altBase);
    expect(alt?.localStorage).toEqual([{ name: 'sso_token', value: 'tok-123' }]);
  });

  it('clicks "Log in" (never "Sign up"/"Get started") and waits for a late-rendered SPA form', async () => {
    routes.set('/f/', (_q, res) =>
      html(
        res,
        `<header><a href="/f/register">Sign up</a> <a href="/f/start">Get started</a> <a href="/f/login">Log in</a></header><h1>Acme</h1>`,
      ),
    );
    routes.set('/f/register', (_q, res) => html(res, '<h1>Register</h1>'));
    routes.set('/f/start', (_q, res) => html(res, '<h1>Start</h1>'));
    routes.set('/f/login', (_q, res) =>
      html(
        res,
        `<div id="app">Loading…</div><script>
        setTimeout(() => {
          document.getElementById('app').innerHTML = '<h2>Welcome back</h2><input id="u" aria-label="Username"><input id="p" type="password" aria-label="Password"><div role="button" id="go">Continue</div><div id="msg" aria-live="polite"></div>';
          document.getElementById('go').onclick = async () => {
            const r = await fetch('/f/api/session', { method: 'POST', body: new URLSearchParams({ u: document.getElementById('u').value, p: document.getElementById('p').value }) });
            if (r.ok) { localStorage.setItem('access_token', 'jwt-abc'); history.pushState({}, '', '/f/app'); document.getElementById('app').innerHTML = '<h1>Your projects</h1>'; }
            else { document.getElementById('msg').textContent = 'Wrong username or password.'; }
          };
        }, 700);</script>`,
      ),
    );
    routes.set('/f/api/session', (_q, res, body) => {
      const ok = body.get('u') === 'bob' && body.get('p') === 'pw-secret-3';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(ok ? '{"ok":true}' : '{"error":"bad"}');
    });
    const good = await login({ url: `${base}/f/`, username: 'bob', password: 'pw-secret-3' });
    if (!good.ok) throw new Error(`${good.reason}: ${good.message}\n${good.steps.join('\n')}`);
    expect(good.steps).toContain("clicked 'Log in' link");
    expect(good.finalUrl).toBe(`${base}/f/app`);
    expect(good.storageState.origins.find((o) => o.origin === base)?.localStorage).toEqual([
      { name: 'access_token', value: 'jwt-abc' },
    ]);
    const bad = await login({ url: `${base}/f/`, username: 'bob', password: WRONG_PASSWORD });
    expect(bad).toMatchObject({ ok: false, reason: 'invalid_credentials' });
    expect(bad.ok ? '' : bad.message).toMatch(/Wrong username or password/);
  });

  it('fills additional fields: select, checkbox and text by label', async () => {
    const form = `<form method="post" action="/g/do"><h1>Log in</h1>
      <label>Organisation <input name="org"></label>
      <label>Region <select name="region"><option value="">Choose</option><option value="eu-1">Europe</option><option value="us-1">United States</option></select></label>
      <label>Username <input name="user"></label><label>Password <input type="password" name="pass"></label>
      <label><input type="checkbox" name="agree" value="yes" required> I agree to the acceptable use policy</label>
      <button>Log in</button></form>`;
    routes.set('/g/login', (_q, res) => html(res, form));
    routes.set('/g/do', (_q, res, b) => {
      const ok =
        b.get('org') === 'acme' &&
        b.get('region') === 'us-1' &&
        b.get('agree') === 'yes' &&
        b.get('user') === 'carol' &&
        b.get('pass') === 'pw-secret-4';
      if (ok) {
        res.writeHead(302, { location: '/g/home', 'set-cookie': 'sid=1; HttpOnly; Path=/' });
        res.end();
      } else html(res, `<div class="error">Login failed</div>${form}`);
    });
    routes.set('/g/home', (_q, res) => html(res, '<h1>Home</h1>'));
    const result = await login({
      url: `${base}/g/login`,
      username: 'carol',
      password: 'pw-secret-4',
      additionalFields: { Organization: 'acme', region: 'United States', acceptable_use_policy: 'true' },
    });
    if (!result.ok) throw new Error(`${result.reason}: ${result.message}\n${result.steps.join('\n')}`);
    expect(result.steps.filter((s) => s.startsWith('filled additional field'))).toHaveLength(3);
    expect(JSON.stringify(result.steps)).not.toMatch(/pw-secret-4|acme/);
  });

  it('two-step on separate URLs (identifier page, password page, "Stay signed in?")', async () => {
    const identify = (err = '') => `<form method="post" action="/h/identify"><h1>Sign in</h1>${err}
      <input type="email" name="loginfmt" placeholder="Email, phone, or Skype" autocomplete="username">
      <input type="password" name="passwd" aria-hidden="true" tabindex="-1" style="display:none">
      <p>No account? <a href="/h/signup">Create one!</a></p><input type="submit" value="Next"></form>`;
    routes.set('/h/login', (_q, res) => html(res, identify()));
    routes.set('/h/identify', (_q, res, b) => {
      if (b.get('loginfmt') === 'ann@example.com') redirect(res, '/h/password');
      else html(res, identify(`<div role="alert">That account doesn't exist. Enter a different account.</div>`));
    });
    const pwPage = (
      err = '',
    ) => `<form method="post" action="/h/pw"><div>ann@example.com</div><h1>Enter password</h1>${err}
      <input type="password" name="passwd" placeholder="Password"><a href="/h/forgot">Forgot my password</a><input type="submit" value="Sign in"></form>`;
    routes.set('/h/password', (_q, res) => html(res, pwPage()));
    routes.set('/h/pw', (_q, res, b) => {
      if (b.get('passwd') === 'pw-secret-5') redirect(res, '/h/kmsi', 'ESTSAUTH=abc; HttpOnly; Path=/');
      else
        html(res, pwPage('<div id="passwordError" class="alert-error">Your account or password is incorrect.</div>'));
    });
    routes.set('/h/kmsi', (_q, res) => html(res, '<h1>Stay signed in?</h1><button>No</button><button>Yes</button>'));
    const ok = await login({ url: `${base}/h/login`, username: 'ann@example.com', password: 'pw-secret-5' });
    expect(ok.ok, explain(ok)).toBe(true);
    if (ok.ok) expect(ok.storageState.cookies.map((c) => c.name)).toContain('ESTSAUTH');
    if (ok.ok) expect(ok.steps.join('\n')).toMatch(/answered 'Stay signed in\?' with 'Yes'/);
    const badPw = await login({ url: `${base}/h/login`, username: 'ann@example.com', password: WRONG_PASSWORD });
    expect(badPw).toMatchObject({ ok: false, reason: 'invalid_credentials' });
    const badUser = await login({ url: `${base}/h/login`, username: 'nobody@example.com', password: 'pw-secret-5' });
    expect(badUser).toMatchObject({ ok: false, reason: 'invalid_credentials' });
    expect(badUser.ok ? '' : badUser.message).toMatch(/doesn't exist/);
  });

  it('opens a login modal from a "Log in" button and submits a formless dialog with an <a> button', async () => {
    routes.set('/i/', (_q, res) =>
      html(
        res,
        `<header><button id="open">Log in</button> <button>Sign up free</button></header><h1>Notes</h1>
        <dialog id="dlg"><h2>Welcome back</h2><input id="em" type="email" placeholder="you@company.com">
        <input id="pw" type="password" placeholder="••••••"><a href="#" id="go">Login</a><p id="err" class="text-red-600"></p></dialog>
        <script>
          document.getElementById('open').onclick = () => document.getElementById('dlg').showModal();
          document.getElementById('go').onclick = async (e) => {
            e.preventDefault();
            const r = await fetch('/i/api', { method: 'POST', body: new URLSearchParams({ e: em.value, p: pw.value }) });
            if (r.ok) location.href = '/i/app'; else document.getElementById('err').textContent = 'Incorrect email or password';
          };
        </script>`,
      ),
    );
    routes.set('/i/api', (_q, res, b) => {
      const ok = b.get('e') === 'dan@example.com' && b.get('p') === 'pw-secret-6';
      res.writeHead(ok ? 204 : 401, ok ? { 'set-cookie': 'notes_token=t; HttpOnly; Path=/' } : {});
      res.end();
    });
    routes.set('/i/app', (_q, res) => html(res, '<h1>All notes</h1>'));
    const ok = await login({ url: `${base}/i/`, username: 'dan@example.com', password: 'pw-secret-6' });
    expect(ok.ok, explain(ok)).toBe(true);
    expect(ok.steps).toContain("clicked 'Log in' button");
    const bad = await login({ url: `${base}/i/`, username: 'dan@example.com', password: WRONG_PASSWORD });
    expect(bad).toMatchObject({ ok: false, reason: 'invalid_credentials' });
  });

  it('follows a sign-in link hidden in a collapsed menu', async () => {
    routes.set('/j/', (_q, res) =>
      html(
        res,
        `<button aria-label="Menu">☰</button><nav style="display:none"><a href="/j/register">Register</a><a href="/j/signin">Sign in</a></nav><h1>Shop</h1>`,
      ),
    );
    routes.set('/j/signin', (_q, res) =>
      html(
        res,
        `<form method="post" action="/j/do"><input name="username"><input type="password" name="password"><button>Sign in</button></form>`,
      ),
    );
    routes.set('/j/do', (_q, res, b) =>
      b.get('password') === 'pw-secret-7'
        ? redirect(res, '/j/', 'shop_sess=1; Path=/')
        : html(res, '<p class="error">Wrong password</p>'),
    );
    const ok = await login({ url: `${base}/j/`, username: 'erin', password: 'pw-secret-7' });
    expect(ok.ok, explain(ok)).toBe(true);
    expect(ok.steps.join('\n')).toMatch(/followed hidden 'Sign in' link/);
  });

  it('waits for a slow login POST instead of judging early', async () => {
    routes.set('/l/login', (_q, res) => html(res, LOGIN_FORM.replace('/c/do-login', '/l/do')));
    routes.set('/l/do', (_q, res) => {
      setTimeout(() => redirect(res, '/l/home', 'slow_session=1; HttpOnly; Path=/'), 3000);
    });
    routes.set('/l/home', (_q, res) => html(res, '<h1>Hello</h1>'));
    const ok = await login({ url: `${base}/l/login`, username: 'gus@example.com', password: 'pw-secret-9' });
    expect(ok.ok, explain(ok)).toBe(true);
    expect(ok.finalUrl).toBe(`${base}/l/home`);
  });

  it('accepts a modal consent dialog that makes the login page inert', async () => {
    routes.set('/m/login', (_q, res) =>
      html(
        res,
        `<main inert>${LOGIN_FORM.replace('/c/do-login', '/m/do')}</main>
        <div role="dialog" aria-modal="true" id="cmp" style="position:fixed;bottom:0;left:0;right:0;background:#eee">
          <p>We value your privacy. We use cookies to improve your experience.</p><button id="rej">Manage options</button><button id="acc">Accept all</button></div>
        <script>document.getElementById('acc').onclick = () => { document.getElementById('cmp').remove(); document.querySelector('main').inert = false; };</script>`,
      ),
    );
    routes.set('/m/do', (_q, res, b) =>
      b.get('password') === 'pw-secret-10'
        ? redirect(res, '/m/home', 'm_sess=1; HttpOnly; Path=/')
        : html(res, '<p role="alert">Invalid email or password</p>'),
    );
    routes.set('/m/home', (_q, res) => html(res, '<h1>Home</h1>'));
    const ok = await login({ url: `${base}/m/login`, username: 'hal@example.com', password: 'pw-secret-10' });
    expect(ok.ok, explain(ok)).toBe(true);
    expect(ok.steps.join('\n')).toMatch(/consent/);
  });

  it('fills an additional field that has its own first step (workspace, then email + password)', async () => {
    routes.set('/o/signin', (_q, res) =>
      html(
        res,
        `<form method="post" action="/o/ws"><h1>Sign in to your workspace</h1><input name="workspace" placeholder="your-workspace"><button>Continue</button></form>`,
      ),
    );
    routes.set('/o/ws', (_q, res, b) =>
      b.get('workspace') === 'acme'
        ? html(
            res,
            `<form method="post" action="/o/do"><h1>Sign in to acme</h1><input type="email" name="email"><input type="password" name="password"><button>Sign in</button></form>`,
          )
        : html(res, '<p class="error">Workspace not found</p>'),
    );
    routes.set('/o/do', (_q, res, b) =>
      b.get('password') === 'pw-secret-11'
        ? redirect(res, '/o/home', 'o_sess=1; Path=/')
        : html(res, '<p class="error">Wrong password</p>'),
    );
    routes.set('/o/home', (_q, res) => html(res, '<h1>Channels</h1>'));
    const ok = await login({
      url: `${base}/o/signin`,
      username: 'jo@example.com',
      password: 'pw-secret-11',
      additionalFields: { workspace: 'acme' },
    });
    expect(ok.ok, explain(ok)).toBe(true);
    expect(ok.steps).toContain("filled additional field 'workspace' (first step)");
  });
});
