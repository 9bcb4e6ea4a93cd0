import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { FormFinder, type PageScan } from '../../../../src/main/core/login/engine/form-finder.js';

/**
 * Identifier fields and submit controls as design-system apps build them: names from
 * aria-labelledby with autocomplete="off", `div role="button"` controls, links styled as buttons,
 * search boxes next to the login, and login forms hidden in a tab panel.
 */
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

async function scanHtml(html: string): Promise<PageScan> {
  const path = `/p${pages.size}`;
  pages.set(path, `<!doctype html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`);
  return pool.withContext(async (ctx) => {
    const page = await ctx.newPage();
    await page.goto(base + path, { waitUntil: 'load' });
    return finder.scan(page);
  });
}

const SEARCH_HEADER = `<header><div role="search"><input type="text" role="combobox" aria-label="Search" placeholder="Search pages, people…" autocomplete="off"></div></header>`;

describe('identifier fields', () => {
  it('an e-mail name from aria-labelledby is enough, with autocomplete="off" and no login heading', async () => {
    const scan = await scanHtml(`${SEARCH_HEADER}
      <main><h1>Welcome back</h1>
      <div><span id="lbl-1">Work email</span><input type="text" id="f-1" aria-labelledby="lbl-1" autocomplete="off"></div>
      <div role="button" tabindex="0">Continue</div></main>`);
    const c = scan.form?.candidate;
    expect(c?.kind).toBe('identifier');
    expect(c?.usernameCandidates[0].htmlId).toBe('f-1');
    expect(c?.usernameCandidates[0].label).toBe('Work email');
    expect(c?.submit?.text).toBe('Continue');
  });

  it('an e-mail name from a placeholder or aria-label counts the same way', async () => {
    for (const attr of ['placeholder="Email address"', 'aria-label="Your e-mail"']) {
      const scan = await scanHtml(`<main><h2>Welcome</h2><input type="text" id="who" ${attr} autocomplete="off">
        <div role="button" tabindex="0">Next</div></main>`);
      expect(scan.form?.candidate.kind, attr).toBe('identifier');
      expect(scan.form?.candidate.usernameCandidates[0].htmlId, attr).toBe('who');
    }
  });

  it('a search box is never the identifier, even under a sign-in heading next to a Continue button', async () => {
    const scan = await scanHtml(`<main><h1>Sign in</h1>
      <input type="text" name="query" aria-label="Search the help center" autocomplete="off">
      <button type="button">Continue</button></main>`);
    expect(scan.form).toBeUndefined();
    const typeSearch = await scanHtml(`<main><h1>Log in</h1><input type="search" id="s" placeholder="Email or name">
      <button type="button">Next</button></main>`);
    expect(typeSearch.form).toBeUndefined();
  });

  it('a search box is never the username of a password form', async () => {
    const scan = await scanHtml(`<div><h1>Sign in</h1>${SEARCH_HEADER}
      <input type="text" id="user" aria-label="Username"><input type="password" id="pw">
      <button>Log in</button></div>`);
    const users = scan.form?.candidate.usernameCandidates ?? [];
    expect(users[0]?.htmlId).toBe('user');
    expect(users.some((u) => /search/i.test(u.descriptor))).toBe(false);
  });
});

describe('submit controls', () => {
  it('a div role="button" is the submit control of a form-less login', async () => {
    const scan = await scanHtml(`<div class="card"><h2>Account</h2>
      <label>Email <input type="email" id="e"></label><label>Password <input type="password" id="p"></label>
      <div role="button" tabindex="0" class="css-x1">Log in</div></div>`);
    expect(scan.form?.candidate.kind).toBe('password');
    expect(scan.form?.candidate.submit?.text).toBe('Log in');
  });

  it('a link styled as a button beats a plain text link next to the password field', async () => {
    const scan = await scanHtml(`<div class="card"><h2>Members</h2>
      <label>Email <input type="email" id="e"></label><label>Password <input type="password" id="p"></label>
      <p><a href="#">Sign in with a one-off code</a></p>
      <div><div><a class="btn btn-primary" href="#">Sign in</a></div></div></div>`);
    expect(scan.form?.candidate.submit?.text).toBe('Sign in');
  });
});

describe('hidden login forms', () => {
  it('offers the tab whose panel holds the hidden login form', async () => {
    const scan = await scanHtml(`<div role="tablist">
      <button role="tab" aria-selected="true" aria-controls="p1">Open an account</button>
      <button role="tab" aria-selected="false" aria-controls="p2">Online banking</button></div>
      <div role="tabpanel" id="p1"><form><label>Email <input type="email" name="apply"></label><button>Start application</button></form></div>
      <div role="tabpanel" id="p2" hidden><form><label>Username <input name="u" autocomplete="username"></label>
      <label>Password <input type="password" name="p" autocomplete="current-password"></label><button>Log in</button></form></div>`);
    expect(scan.form?.candidate.kind).not.toBe('password');
    expect(scan.signInLinks.map((l) => l.button.text)).toContain('Online banking');
    expect(scan.signInLinks.map((l) => l.button.text)).not.toContain('Open an account');
  });
});
