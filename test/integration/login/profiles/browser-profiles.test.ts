// Sessions from the person's own browsers: real Chromium profiles made by Debian's chromium (basic store → v10
// cookies, the test keyring → v11), logged in to a fixture site and closed, imported through the HTTP API.
// Run inside scripts/with-keyring.sh (the v11 profile keeps its key in that keyring).
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import { chromiumUserDataDir, makeLoggedInProfile, openChromiumProfile } from '../../../helpers/chromium-profile.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { profileImports } from '../../../../src/main/core/login/profiles/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, dataOf } from '../../../helpers/mcp-agent.js';
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../../../helpers/repo-root.js';
import { filesUnder, findSecrets, saveLogin, settle } from '../../../helpers/vault-logins.js';
import { secretServicePassword } from '../../../../src/main/core/login/profiles/os-keys.js';
import { cbcKey } from '../../../../src/main/core/login/profiles/chromium-crypto.js';
import { CHROMIUM_FAMILY } from '../../../../src/main/core/login/profiles/browser-kinds.js';
import { keyringAvailable } from '../../../helpers/requires.js';

const hasKeyring = keyringAvailable();

/**
 * The CLI as a child process, awaited without blocking this process (runCli's spawnSync would: the fixture site the
 * import checks runs here).
 */
function runCliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'src/main/cli.ts'), ...args], {
    cwd: REPO_ROOT,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

interface Profile {
  id: string;
  browser: string;
  name: string;
  path: string;
  origins: string[];
}
interface LoginError {
  error: string;
  message: string;
  details: Record<string, unknown>;
}
interface Imported {
  session_id: string | null;
  origin: string;
  valid: boolean;
  status: string;
  state: { cookies: { name: string; domain: string; httpOnly: boolean; expires: number }[]; origins: unknown[] };
}

describe.skipIf(!hasKeyring)('sessions from the person’s own browsers (Chromium profiles)', () => {
  let site: FixtureSite;
  let server: TestServer;
  let browser: Browser;
  let basicHome: string;
  let keyringHome: string;
  let scoped: string;

  beforeAll(async () => {
    site = await startSite('extra-fields');
    basicHome = tempDir();
    keyringHome = tempDir();
    await makeLoggedInProfile(chromiumUserDataDir(basicHome), 'basic', site);
    await makeLoggedInProfile(chromiumUserDataDir(keyringHome), 'gnome-libsecret', site);
    server = await startTestServer({ browserProfiles: { roots: [basicHome, keyringHome] } });
    scoped = server.core.keys.create(server.orgId, { scopes: ['browser-profiles:read'] }).key;
    browser = await launchTestBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  const list = async (): Promise<Profile[]> => {
    const res = await server.request('/api/browser-profiles', { key: scoped });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Profile[] }).data;
  };
  const profileIn = async (home: string) => (await list()).find((p) => p.path.startsWith(home))!;
  const importFrom = (profile: string, sites: string[], key = scoped) =>
    server.request('/api/sessions/import', { method: 'POST', key, json: { profile, sites } });

  it('finds both profiles with the sites they hold cookies for', async () => {
    const profiles = await list();
    const siteOrigin = new URL(site.loginUrl).origin;
    for (const home of [basicHome, keyringHome]) {
      const p = profiles.find((x) => x.path.startsWith(home));
      expect(p).toMatchObject({ browser: 'chromium', path: path.join(chromiumUserDataDir(home), 'Default') });
      expect(p!.id).toMatch(/^bp_/);
      expect(p!.name).toBeTruthy();
      expect(p!.origins).toContain(siteOrigin);
    }
  });

  it.each([
    ['v10 (basic store)', () => basicHome, 'v10'],
    ['v11 (Secret Service)', () => keyringHome, 'v11'],
  ])(
    'imports the site from the %s profile: a valid cached session that opens the protected page',
    async (_n, home, prefix) => {
      const cookies = path.join(chromiumUserDataDir(home()), 'Default', 'Cookies');
      // The profile really holds values of that format (read as bytes: the test does not decrypt anything itself).
      expect(fs.readFileSync(cookies).includes(Buffer.from(prefix))).toBe(true);
      const profile = await profileIn(home());
      const res = await importFrom(profile.id, [site.protectedUrl]);
      expect(res.status).toBe(200);
      const { sessions } = (await res.json()) as { sessions: Imported[] };
      expect(sessions).toHaveLength(1);
      const [imported] = sessions;
      expect(imported).toMatchObject({ origin: new URL(site.loginUrl).origin, valid: true, status: 'valid' });
      expect(imported.session_id).toMatch(/^ses_/);
      const session = imported.state.cookies.find((c) => c.name === 'ws_session');
      expect(session).toMatchObject({ domain: '127.0.0.1', httpOnly: true });
      expect(session!.expires).toBeGreaterThan(Date.now() / 1000);
      expect(imported.state.origins).toEqual([
        { origin: new URL(site.loginUrl).origin, localStorage: [{ name: 'agent-studio-test', value: 'kept ✓' }] },
      ]);
      expect(await opensProtectedPage(browser, site, imported.state)).toBe(true);

      // The session cache holds it like a fresh login's, checked; the use log names the import.
      const listed = (await (await server.request('/api/sessions')).json()) as {
        data: { id: string; status: string; login_method: string }[];
      };
      expect(listed.data.find((s) => s.id === imported.session_id)).toMatchObject({
        status: 'valid',
        login_method: 'browser-import',
      });
      expect(profileImports(server.core).list(server.orgId)[0]).toMatchObject({
        via: 'api',
        profileId: profile.id,
        browser: 'chromium',
        outcome: 'valid',
        sessionId: imported.session_id,
      });
    },
  );

  it('filed under a saved login: a later login with it (or its password) is served the imported session', async () => {
    const post = (pathname: string, json: unknown) => server.request(pathname, { method: 'POST', json });
    const saved = await saveLogin(post, {
      label: 'The account the profile is signed in to',
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
      shareWith: 'all',
    });
    const profile = await profileIn(basicHome);
    const res = await server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped,
      json: { profile: profile.id, sites: [site.protectedUrl], credential: saved.id },
    });
    const { sessions } = (await res.json()) as { sessions: Imported[] };
    expect(res.status).toBe(200);
    expect(sessions[0]).toMatchObject({ valid: true, status: 'valid' });
    const imported = sessions[0];
    const cookie = (state: Imported['state']) => state.cookies.find((c) => c.name === 'ws_session') as unknown;

    // By reference: a cache hit on the imported entry, no browser started.
    const byRef = await post('/api/login', { credential: saved.id });
    expect(byRef.status).toBe(200);
    expect(byRef.headers.get('x-session-cache')).toBe('hit');
    expect(byRef.headers.get('x-session-id')).toBe(imported.session_id);
    expect(cookie((await byRef.json()) as Imported['state'])).toEqual(cookie(imported.state));
    // Inline with the same username and password: the same identity and credentials, the same hit.
    const inline = await post('/api/login', {
      cred: { username: site.credentials.username, password: site.credentials.password },
      loginMethod: 'password',
      domain: site.loginUrl,
    });
    expect(inline.headers.get('x-session-cache')).toBe('hit');
    expect(inline.headers.get('x-session-id')).toBe(imported.session_id);
    // A wrong password never rides on it.
    const wrong = await post('/api/login', {
      cred: { username: site.credentials.username, password: 'not-the-password' },
      loginMethod: 'password',
      domain: site.loginUrl,
    });
    expect(wrong.headers.get('x-session-cache')).not.toBe('hit');
    // The session is the saved login's: a refresh or health check renews it with it.
    const listed = (await (await server.request('/api/sessions')).json()) as {
      data: { id: string; login_method: string; credential_id?: string | null }[];
    };
    expect(listed.data.find((s) => s.id === imported.session_id)).toMatchObject({ login_method: 'password' });
  });

  it('a saved login of another site is refused before the profile is read', async () => {
    const post = (pathname: string, json: unknown) => server.request(pathname, { method: 'POST', json });
    const other = await saveLogin(post, {
      label: 'Another site',
      loginUrl: 'http://127.0.0.2:9/login',
      username: 'someone',
      password: 'elsewhere-password',
      shareWith: 'all',
    });
    const profile = await profileIn(basicHome);
    const before = profileImports(server.core).list(server.orgId).length;
    const res = await server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped,
      json: { profile: profile.id, sites: [site.protectedUrl], credential: other.id },
    });
    const body = (await res.json()) as LoginError;
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ error: 'INVALID_REQUEST', details: { field: 'credential' } });
    expect(body.message).toContain(new URL(site.loginUrl).origin);
    expect(JSON.stringify(body)).not.toContain('elsewhere-password');
    expect(profileImports(server.core).list(server.orgId)).toHaveLength(before);
  });

  it('imports from a profile the browser still has open (read from a copy)', async () => {
    const ctx = await openChromiumProfile(chromiumUserDataDir(basicHome), 'basic');
    try {
      const profile = await profileIn(basicHome);
      const res = await importFrom(profile.id, [site.protectedUrl]);
      expect(res.status).toBe(200);
      const { sessions } = (await res.json()) as { sessions: Imported[] };
      expect(sessions[0]).toMatchObject({ valid: true, status: 'valid' });
      expect(await opensProtectedPage(browser, site, sessions[0].state)).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('takes a site as the listing shows it (host:port, no scheme), checked on the page given', async () => {
    const profile = await profileIn(basicHome);
    const host = new URL(site.loginUrl).host; // 127.0.0.1:PORT: a loopback host means http://
    expect(profile.origins).toContain(`http://${host}`);
    const res = await server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped,
      json: { profile: profile.id, sites: [host], checkUrl: site.protectedUrl },
    });
    expect(res.status).toBe(200);
    const { sessions } = (await res.json()) as { sessions: Imported[] };
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ origin: `http://${host}`, valid: true, status: 'valid' });
    expect(await opensProtectedPage(browser, site, sessions[0].state)).toBe(true);
  });

  it('a site that is neither a URL nor a host is a 400 saying what a site may be', async () => {
    const profile = await profileIn(basicHome);
    const res = await importFrom(profile.id, ['ftp://files.example.com']);
    expect(res.status).toBe(400);
    expect(((await res.json()) as LoginError).message).toMatch(/sites\[\] must be a site: .*github\.com/);
  });

  it('a site the profile holds nothing for is a 404 naming it', async () => {
    const profile = await profileIn(basicHome);
    const elsewhere = `http://localhost:${new URL(site.loginUrl).port}/account`;
    const res = await importFrom(profile.id, [elsewhere]);
    expect(res.status).toBe(404);
    const body = (await res.json()) as LoginError;
    expect(body.error).toBe('NOTHING_TO_IMPORT');
    expect(body.message).toContain(`http://localhost:${new URL(site.loginUrl).port}`);
    expect(profileImports(server.core).list(server.orgId)[0]).toMatchObject({ outcome: 'nothing_to_import' });
  });

  it('an unknown profile is a 404', async () => {
    const res = await importFrom('bp_nope', [site.protectedUrl]);
    expect(res.status).toBe(404);
    expect(((await res.json()) as LoginError).error).toBe('PROFILE_NOT_FOUND');
  });

  it('a keychain that cannot be reached is a 403 naming it, and no cookie value leaks', async () => {
    const profile = await profileIn(keyringHome);
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path.join(keyringHome, 'no-bus')}`;
    try {
      const res = await importFrom(profile.id, [site.protectedUrl]);
      expect(res.status).toBe(403);
      const body = (await res.json()) as LoginError;
      expect(body.error).toBe('KEYCHAIN_REFUSED');
      expect(body.message).toContain('Chromium');
    } finally {
      process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });

  it('only keys granted browser-profiles:read by name: "*" and other scopes get 403', async () => {
    for (const key of [server.key, server.core.keys.create(server.orgId, { scopes: ['sessions:read'] }).key]) {
      const listRes = await server.request('/api/browser-profiles', { key });
      expect(listRes.status).toBe(403);
      const profile = await profileIn(basicHome);
      expect((await importFrom(profile.id, [site.protectedUrl], key)).status).toBe(403);
    }
    const body = (await (await server.request('/api/browser-profiles')).json()) as LoginError;
    expect(body).toMatchObject({
      error: 'FORBIDDEN',
      details: { required_scope: 'browser-profiles:read', explicit_only: true },
    });
  });

  it('another organization never sees the imported sessions', async () => {
    const other = server.newOrg('other-org', ['*']);
    const res = await server.request('/api/sessions', { key: other.key });
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
    expect(profileImports(server.core).list(other.orgId)).toEqual([]);
  });

  it('the CLI lists the profiles and imports a site straight from this machine', async () => {
    fs.writeFileSync(
      path.join(server.dataDir, 'config.json'),
      JSON.stringify({ browserProfiles: { roots: [basicHome, keyringHome] } }),
    );
    const args = ['--data-dir', server.dataDir];
    const listed = await runCliAsync(['sessions', 'import', '--list', '--json', ...args]);
    expect(listed.status, listed.stderr).toBe(0);
    const profiles = JSON.parse(listed.stdout) as Profile[];
    const profile = profiles.find((p) => p.path.startsWith(keyringHome))!;
    expect(profile.origins).toContain(new URL(site.loginUrl).origin);

    const imported = await runCliAsync([
      'sessions',
      'import',
      '--profile',
      profile.id,
      '--site',
      site.protectedUrl,
      '--org',
      'test-org',
      ...args,
    ]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(
      new RegExp(`^${new URL(site.loginUrl).origin}  valid  ses_\\w+  \\d+ cookies$`, 'm'),
    );
    // Without --json no cookie value is printed.
    expect(imported.stdout).not.toContain('ws_session');
    expect(profileImports(server.core).list(server.orgId)[0]).toMatchObject({
      via: 'cli',
      keyId: null,
      outcome: 'valid',
    });
  });

  it('MCP: the tools exist only for a key granted the scope, and import a session', async () => {
    const connect = async (key: string) => {
      const client = new Client({ name: 'profiles-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      return client;
    };
    const everything = await connect(server.key);
    const granted = await connect(scoped);
    try {
      const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
      expect(await names(everything)).not.toContain('list_browser_profiles');
      expect(await names(everything)).not.toContain('import_session');
      const tools = (await granted.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['import_session', 'list_browser_profiles']));
      expect(tools.find((t) => t.name === 'list_browser_profiles')!.annotations).toMatchObject({ readOnlyHint: true });

      const { data } = dataOf<{ data: Profile[] }>(await callTool(granted, 'list_browser_profiles'));
      const profile = data.find((p) => p.path.startsWith(basicHome))!;
      const result = dataOf<{ sessions: Imported[] }>(
        await callTool(granted, 'import_session', { profile: profile.id, sites: [site.protectedUrl] }),
      );
      expect(result.sessions[0]).toMatchObject({ valid: true, status: 'valid' });
      expect(await opensProtectedPage(browser, site, result.sessions[0].state)).toBe(true);
      expect(profileImports(server.core).list(server.orgId)[0]).toMatchObject({ via: 'api', outcome: 'valid' });
    } finally {
      await Promise.all([everything.close(), granted.close()]);
    }
  });

  it('the cookie keys never reach the data dir, the log or an answer (the secret search)', async () => {
    // The v11 profile's key as Chromium keeps it (the Secret Service password) and the AES key derived from it.
    const password = await secretServicePassword(CHROMIUM_FAMILY.find((f) => f.kind === 'chromium')!);
    const aesKey = cbcKey(password, 1).toString('hex');
    const res = await importFrom((await profileIn(keyringHome)).id, [site.protectedUrl]);
    expect(res.status).toBe(200);
    const answer = await res.text();
    await settle(server);
    const secrets = { 'safe-storage password': password, 'derived cookie key (hex)': aesKey };
    expect(findSecrets([...filesUnder(server.dataDir), { where: 'the import answer', data: answer }], secrets)).toEqual(
      [],
    );
  });
});

// Firefox profiles (made by Debian's firefox-esr over WebDriver BiDi, no Playwright) are tested in
// firefox-profile.test.ts.
