// The page heuristics of passkey logins: which controls name a passkey (sign in with one, or create one) in several
// languages and forms (text, aria-label, an input's value, inside a shadow root), and which are left alone.
import { describe, expect, it } from 'vitest';
import { findPasskeyControls } from '../../../../src/main/core/login/passkeys/passkey-buttons.js';
import { findSettingsLinks } from '../../../../src/main/core/login/passkeys/settings-pages.js';
import { useSiteBrowser } from '../../../helpers/browser.js';

const { browser } = useSiteBrowser();

async function onPage<T>(html: string, fn: (page: import('playwright-core').Page) => Promise<T>): Promise<T> {
  const ctx = await browser().newContext();
  try {
    const page = await ctx.newPage();
    await page.route('http://localhost:9/**', (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><body>${html}</body>` }),
    );
    await page.goto('http://localhost:9/account');
    return await fn(page);
  } finally {
    await ctx.close();
  }
}

describe('passkey controls', () => {
  it('finds sign-in and create controls in several languages; skips remove, hidden and unrelated ones', async () => {
    const found = await onPage(
      `<button>Sign in with a passkey</button>
       <a href="#" role="button">Mit Passkey anmelden</a>
       <button aria-label="Use a security key"><svg width="10" height="10"></svg></button>
       <input type="button" value="Iniciar sesión con llave de acceso">
       <button>パスキーでログイン</button>
       <button>Create a passkey</button>
       <button>Zugangsschlüssel hinzufügen</button>
       <button>Remove passkey</button>
       <button style="display:none">Sign in with a passkey (hidden)</button>
       <button>Sign in</button>
       <div id="host"></div>
       <script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = '<button>Use your passkey</button>';</script>`,
      findPasskeyControls,
    );
    expect(found.map((c) => [c.text, c.kind])).toEqual([
      ['Sign in with a passkey', 'sign-in'],
      ['Mit Passkey anmelden', 'sign-in'],
      ['Use a security key', 'sign-in'],
      ['Iniciar sesión con llave de acceso', 'sign-in'],
      ['パスキーでログイン', 'sign-in'],
      ['Create a passkey', 'create'],
      ['Zugangsschlüssel hinzufügen', 'create'],
      ['Use your passkey', 'sign-in'],
    ]);
  });

  it('follows security and settings links first, never log out or another site', async () => {
    const links = await onPage(
      `<a href="/profile">Profile</a><a href="/logout">Log out</a><a href="/settings">Settings</a>
       <a href="/settings/security">Security</a><a href="https://elsewhere.example/security">Security (other site)</a>
       <a href="/blog">Blog</a>`,
      findSettingsLinks,
    );
    expect(links).toEqual([
      'http://localhost:9/settings/security',
      'http://localhost:9/settings',
      'http://localhost:9/profile',
    ]);
  });
});
