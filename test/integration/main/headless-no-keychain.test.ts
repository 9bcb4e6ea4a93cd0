import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { launchTestBrowser } from '../../helpers/browser.js';
import { firstRunKey, spawnServer, type ServerProcess } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** What a server with no desktop session looks like: no D-Bus, so no Secret Service keychain. */
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: '', AGENT_STUDIO_SECRETS_BACKEND: '' };

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('headless server on a machine without a keychain', () => {
  const dataDir = tempDir();
  let server: ServerProcess;
  let site: FixtureSite;
  let browser: Browser;
  let key: string;
  let cookieValues: string[] = [];

  beforeAll(async () => {
    site = await startSite('classic-csrf');
    browser = await launchTestBrowser();
    server = await spawnServer(['--port', '0', '--data-dir', dataDir], NO_KEYCHAIN);
    key = firstRunKey(server);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await browser?.close();
    await site?.close();
  });

  it('prints the first-run key, saved encrypted, and says once where secrets are kept', () => {
    expect(key).toMatch(/^pk_/);
    expect(server.stdout()).toMatch(/also saved, encrypted, in the data dir/);
    expect(server.stderr()).not.toMatch(/could NOT be saved/);
    expect(server.stderr()).toContain(path.join(dataDir, 'secrets.key'));
    expect(fs.statSync(path.join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
  });

  it('logs in with that key: 200 and a state that opens the protected page', async () => {
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cred: site.credentials,
        loginMethod: 'password',
        domain: site.loginUrl,
        useCache: true,
      }),
    });
    expect(res.status).toBe(200);
    const state = (await res.json()) as { cookies: { value: string }[] };
    cookieValues = state.cookies.map((c) => c.value).filter((v) => v.length >= 8);
    expect(cookieValues.length).toBeGreaterThan(0);
    const ctx = await browser.newContext({ storageState: state as never });
    try {
      const page = await ctx.newPage();
      await page.goto(site.protectedUrl);
      await expect(page.getByText(site.loggedInText).first().waitFor({ timeout: 5000 })).resolves.toBeUndefined();
    } finally {
      await ctx.close();
    }
    // The cached session is used next time, so the session-cache key persisted too.
    const again = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cred: site.credentials, loginMethod: 'password', domain: site.loginUrl }),
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-session-cache')).toBe('hit');
  });

  it('logs in where the submit is enabled only once filled: the engine’s page scripts run under tsx too', async () => {
    // This server runs through tsx, as `npm run cli` and `npm run mcp` do: esbuild's keepNames there wraps a named
    // function inside a page script in `__name()`, which the page lacks (the wait for the submit once threw so, and
    // every such login ended in NO_OUTCOME; vitest's own transform never showed it).
    const material = await startSite('material-login');
    try {
      const res = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          cred: material.credentials,
          loginMethod: 'password',
          domain: material.loginUrl,
          useCache: false,
        }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    } finally {
      await material.close();
    }
  });

  it('keeps no key, password or cookie value in plain text anywhere in the data dir', () => {
    for (const file of filesUnder(dataDir)) {
      if (path.basename(file) === 'secrets.key') continue;
      // Where the first run put its key for the person (the output was no terminal): the key alone, mode 600.
      if (path.basename(file) === 'first-run-key.txt') {
        expect(fs.readFileSync(file, 'utf8')).toBe(`${key}\n`);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        continue;
      }
      const bytes = fs.readFileSync(file);
      expect(bytes.includes(key), file).toBe(false);
      expect(bytes.includes(site.credentials.password), file).toBe(false);
      for (const value of cookieValues) expect(bytes.includes(value), file).toBe(false);
    }
  });

  it('after a restart the same key still works (secrets read back from the file)', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = await spawnServer(['--port', '0', '--data-dir', dataDir], NO_KEYCHAIN);
    expect(server.stderr()).not.toMatch(/warning/);
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cred: site.credentials, loginMethod: 'password', domain: site.loginUrl }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-session-cache')).toBe('hit');
  });
});
