import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { FormFinder, type PageScan } from '../../../../src/main/core/login/engine/form-finder.js';

let pool: BrowserPool;
let server: Server;
let base = '';
const pages = new Map<string, string>();
const finder = new FormFinder();

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: resolveBrowserExecutable({}).path, maxContexts: 2 });
  server = createServer((req, res) => {
    const body = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await pool?.dispose();
  await new Promise<void>((r) => server?.close(() => r()));
});

/** Serves `html` on the local server and scans it. */
async function scanHtml(html: string, path = `/p${pages.size}`): Promise<PageScan> {
  pages.set(path, `<!doctype html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`);
  return pool.withContext(async (ctx) => {
    const page = await ctx.newPage();
    await page.goto(base + path, { waitUntil: 'load' });
    return finder.scan(page);
  });
}

function summary(scan: PageScan) {
  const c = scan.form?.candidate;
  return {
    kind: c?.kind,
    password: c?.password?.name || c?.password?.htmlId,
    username:
      c?.usernameCandidates[0] && c.usernameCandidates[0].score > 0
        ? c.usernameCandidates[0].name || c.usernameCandidates[0].htmlId
        : undefined,
    submit: c?.submit?.text,
  };
}

describe('FormFinder (in-page login form heuristics)', () => {
  it('uses autocomplete attributes even without helpful names', async () => {
    const scan = await scanHtml(`
      <form><input name="f1" autocomplete="username"><input name="f2" type="text"><input name="f3" type="password" autocomplete="current-password">
      <button>Go</button></form>`);
    expect(summary(scan)).toMatchObject({ kind: 'password', password: 'f3', submit: 'Go' });
    // f2 is closer, but f1 says autocomplete=username.
    expect(summary(scan).username).toBe('f1');
  });

  it('reads <label> text for unnamed fields', async () => {
    const scan = await scanHtml(`
      <form><label for="a">Favourite colour</label><input id="a"><label for="b">E-Mail-Adresse</label><input id="b">
      <label>Passwort <input id="c" type="password"></label><input type="submit" value="Anmelden"></form>`);
    expect(summary(scan)).toEqual({ kind: 'password', password: 'c', username: 'b', submit: 'Anmelden' });
  });

  it('handles placeholder-only fields without <form> and a div button', async () => {
    const scan = await scanHtml(`
      <div class="card"><div><input placeholder="Email"></div><div><input type="password" placeholder="Password"></div>
      <div role="button" tabindex="0">Log in</div><a href="/reset">Forgot password?</a></div>`);
    const s = summary(scan);
    expect(s.kind).toBe('password');
    expect(s.submit).toBe('Log in');
    const user = scan.form!.candidate.usernameCandidates[0];
    expect(user.placeholder).toBe('Email');
  });

  it('skips a newsletter form placed before the login form', async () => {
    const scan = await scanHtml(`
      <section><h3>Our newsletter</h3><form><input type="email" name="newsletter_email" placeholder="Your email"><button>Subscribe</button></form></section>
      <form action="/session"><h2>Log in</h2><input type="email" name="user_email"><input type="password" name="pw"><button>Log in</button></form>`);
    expect(summary(scan)).toEqual({ kind: 'password', password: 'pw', username: 'user_email', submit: 'Log in' });
  });

  it('picks the login form next to a sign-up form, in either order', async () => {
    const signup = `<form><h2>Create account</h2><input name="su_email" type="email"><input name="su_pw" type="password" autocomplete="new-password">
      <input name="su_pw2" type="password" placeholder="Confirm password"><button>Sign up</button></form>`;
    const login = `<form><h2>Welcome back</h2><input name="li_email" type="email"><input name="li_pw" type="password"><button>Sign in</button></form>`;
    for (const html of [signup + login, login + signup]) {
      const scan = await scanHtml(html);
      expect(summary(scan)).toEqual({ kind: 'password', password: 'li_pw', username: 'li_email', submit: 'Sign in' });
      expect(scan.rejected.join(' ')).toMatch(/sign-up/);
    }
  });

  it('finds nothing on a sign-up-only page (and says why)', async () => {
    const scan =
      await scanHtml(`<form><h1>Register</h1><input name="e" type="email"><input name="p" type="password" autocomplete="new-password">
      <input name="p2" type="password"><button>Create account</button></form>`);
    expect(scan.form).toBeUndefined();
    expect(scan.rejected.length).toBeGreaterThan(0);
  });

  it('ignores hidden decoy / honeypot fields', async () => {
    const scan = await scanHtml(`
      <form>
        <input name="decoy_user" style="position:absolute;left:-10000px">
        <input name="decoy_user2" style="opacity:0">
        <div style="display:none"><input name="decoy3"><input type="password" name="decoy_pw"></div>
        <div aria-hidden="true"><input name="decoy4"></div>
        <div style="width:0;height:0;overflow:hidden"><input name="decoy5"></div>
        <input name="login">
        <input name="decoy6" type="text" tabindex="-1" style="visibility:hidden">
        <input type="password" name="real_pw">
        <button type="submit">Sign in</button>
      </form>`);
    expect(summary(scan)).toEqual({ kind: 'password', password: 'real_pw', username: 'login', submit: 'Sign in' });
  });

  it('does not take the search box for the username (formless page)', async () => {
    const scan = await scanHtml(`
      <header><input type="search" name="q" placeholder="Search docs"><button>Search</button></header>
      <main><input type="text" name="site_search" aria-label="Search"><p>Login below</p>
      <input type="password" name="pass"><button>Enter</button></main>`);
    const s = summary(scan);
    expect(s.kind).toBe('password');
    expect(s.username).toBeUndefined();
  });

  it('finds the form inside a cross-origin iframe', async () => {
    pages.set(
      '/frame-inner',
      `<!doctype html><form><input name="uid" placeholder="User ID"><input type="password" name="pwd"><button>Sign on</button></form>`,
    );
    const port = (server.address() as AddressInfo).port;
    const scan = await scanHtml(
      `<h1>Bank</h1><iframe src="http://localhost:${port}/frame-inner" width="400" height="300"></iframe>`,
    );
    expect(summary(scan)).toEqual({ kind: 'password', password: 'pwd', username: 'uid', submit: 'Sign on' });
    expect(scan.form!.isMainFrame).toBe(false);
    expect(scan.form!.frame.url()).toContain('localhost');
  });

  it('recognizes the identifier step of a two-step login (and not a newsletter)', async () => {
    const scan = await scanHtml(`
      <footer><form><label>Get updates <input type="email" name="nl"></label><button>Subscribe</button></form></footer>
      <form><h1>Sign in</h1><input type="email" name="identifier" autocomplete="username"><input type="password" name="pw" style="display:none">
      <button type="submit">Next</button></form>`);
    expect(summary(scan)).toMatchObject({ kind: 'identifier', username: 'identifier', submit: 'Next' });
  });

  it('does not treat an email capture ("Get started") as an identifier step, but offers the Sign in link', async () => {
    const scan = await scanHtml(`
      <nav><a href="/pricing">Pricing</a><a href="/register">Sign up</a><a href="/signin">Sign in</a></nav>
      <main><h1>Work, faster.</h1><input type="email" placeholder="Enter your work email"><button>Get started</button></main>`);
    expect(scan.form).toBeUndefined();
    expect(scan.signInLinks.map((l) => l.button.text)).toEqual(['Sign in']);
  });

  it('looks only for a form when asked for the form alone (the quick look that confirms a success)', async () => {
    const html = `<nav><a href="/signin">Sign in</a></nav><h1>Enter the code</h1>
      <input autocomplete="one-time-code" inputmode="numeric" maxlength="6"><button>Verify</button>`;
    const full = await scanHtml(html);
    expect(full.signInLinks.length).toBe(1);
    expect(full.codePrompt).toBeDefined();
    const formOnly = await pool.withContext(async (ctx) => {
      const page = await ctx.newPage();
      await page.goto(`${base}/p${pages.size - 1}`, { waitUntil: 'load' });
      return finder.scan(page, { formOnly: true });
    });
    expect(formOnly.form).toBeUndefined();
    expect(formOnly.signInLinks).toEqual([]);
    expect(formOnly.codePrompt).toBeUndefined();
  });

  it('finds inputs inside open shadow roots', async () => {
    const scan = await scanHtml(`<login-box></login-box><script>
      customElements.define('login-box', class extends HTMLElement { connectedCallback() {
        const r = this.attachShadow({ mode: 'open' });
        r.innerHTML = '<form><label for="u">Username</label><input id="u" name="u"><label for="p">Password</label><input id="p" type="password" name="p"><button>Log in</button></form>';
      } });</script>`);
    expect(summary(scan)).toEqual({ kind: 'password', password: 'p', username: 'u', submit: 'Log in' });
  });

  it('prefers the sign-in submit button over show-password and social buttons', async () => {
    const scan = await scanHtml(`
      <form><input name="email" type="email"><input name="password" type="password">
      <button type="button" aria-label="Show password">👁</button>
      <button type="button">Continue with Google</button><a href="/forgot">Forgot your password?</a>
      <button type="submit">Continue</button></form>`);
    expect(summary(scan).submit).toBe('Continue');
  });

  it('never takes a show-password eye for the submit, whatever it says; an icon-only submit is found by structure', async () => {
    const material = await scanHtml(`
      <form><label for="e">Email</label><input id="e" type="email">
      <label for="pw">Password</label><span class="wrap"><input id="pw" name="pw" type="password">
      <button type="button" class="mat-icon-button"><span class="material-icons">visibility</span></button></span>
      <button type="submit" class="mat-fab" disabled><span class="material-icons">arrow_forward</span></button></form>`);
    expect(summary(material)).toMatchObject({ kind: 'password', password: 'pw', submit: 'arrow_forward' });
    // An eye known only by aria-pressed, or only by sitting in the field's own wrapper with no text.
    for (const eye of ['<button aria-pressed="false">●</button>', '<span role="button" tabindex="0"></span>']) {
      const scan = await scanHtml(`
        <div><input name="user" autocomplete="username"><div class="pw"><input name="pass" type="password">${eye}</div>
        <div role="button" tabindex="0">Go</div></div>`);
      expect(summary(scan).submit).toBe('Go');
    }
  });

  it('judges a new-password field by the whole form: a Japanese login form with one is a login form', async () => {
    const login = await scanHtml(`
      <h1>ログイン</h1><form method="post" action="/login.php">
      <label for="u">ユーザー名</label><input id="u" type="text" name="login_id">
      <label for="p">パスワード</label><input id="p" type="password" name="pw" autocomplete="new-password">
      <button type="submit">サインイン</button></form>`);
    expect(summary(login)).toEqual({ kind: 'password', password: 'pw', username: 'login_id', submit: 'サインイン' });
    const signup = await scanHtml(`
      <h1>新規登録</h1><form><label for="u">ユーザー名</label><input id="u" name="login_id">
      <label for="p">パスワード</label><input id="p" type="password" name="pw" autocomplete="new-password">
      <label for="c">パスワード（確認）</label><input id="c" type="password" name="pw2" autocomplete="new-password">
      <button type="submit">登録する</button></form>`);
    expect(signup.form).toBeUndefined();
  });

  it('sees a login window in an app whose body is 0 px high with overflow hidden (all content positioned)', async () => {
    const scan = await scanHtml(`<style>body{margin:0;overflow:hidden}</style>
      <div style="position:absolute;left:100px;top:100px;width:320px;background:#fff">
      <label for="u">Username:</label><input id="u" name="username">
      <label for="p">Password:</label><input id="p" name="passwd" type="password">
      <a class="x-btn" role="button" tabindex="0">Login</a></div>`);
    expect(summary(scan)).toEqual({ kind: 'password', password: 'passwd', username: 'username', submit: 'Login' });
  });
});
