// Sessions from the person's own Firefox: a real profile made by Debian's firefox-esr (created with -CreateProfile,
// so profiles.ini is Firefox's own), signed in to a fixture site through its login form over WebDriver BiDi and
// closed, then listed and imported through the HTTP API like the Chromium profiles (browser-profiles.test.ts).
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { launchTestBrowser, opensProtectedPage } from '../../../helpers/browser.js';
import {
  FIREFOX_LONG_VALUE,
  FIREFOX_PROFILE_NAME,
  makeLoggedInFirefoxProfile,
  SYSTEM_FIREFOX,
} from '../../../helpers/firefox-profile.js';
import { requireSystemPart, titleWithSkip } from '../../../helpers/requires.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { profileImports } from '../../../../src/main/core/login/profiles/index.js';

interface Profile {
  id: string;
  browser: string;
  name: string;
  path: string;
  origins: string[];
}
interface Imported {
  session_id: string | null;
  origin: string;
  valid: boolean;
  status: string;
  state: {
    cookies: { name: string; domain: string; httpOnly: boolean; expires: number }[];
    origins: { origin: string; localStorage: { name: string; value: string }[] }[];
  };
}

const hasFirefox = requireSystemPart(
  'firefox-esr (or firefox)',
  !!SYSTEM_FIREFOX,
  'Debian: apt-get install firefox-esr; npm run bootstrap installs it',
);

const TITLE = titleWithSkip('sessions from the person’s own Firefox', hasFirefox, 'no firefox-esr or firefox');

describe.skipIf(!hasFirefox)(TITLE, () => {
  let site: FixtureSite;
  let server: TestServer;
  let browser: Browser;
  let home: string;
  let profileDir: string;
  let scoped: string;

  beforeAll(async () => {
    site = await startSite('extra-fields');
    home = tempDir();
    profileDir = await makeLoggedInFirefoxProfile(home, site);
    server = await startTestServer({ browserProfiles: { roots: [home] } });
    scoped = server.core.keys.create(server.orgId, { scopes: ['browser-profiles:read'] }).key;
    browser = await launchTestBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  const origin = () => new URL(site.loginUrl).origin;
  const firefoxProfile = async (): Promise<Profile | undefined> => {
    const res = await server.request('/api/browser-profiles', { key: scoped });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Profile[] }).data.find((p) => p.browser === 'firefox');
  };

  it('finds the profile through profiles.ini with the site it is signed in to', async () => {
    const profile = await firefoxProfile();
    expect(profile).toMatchObject({ browser: 'firefox', name: FIREFOX_PROFILE_NAME, path: profileDir });
    expect(profile!.id).toMatch(/^bp_/);
    // The cookie names no port; the listed origin is the site's own (its port from the profile's storage).
    expect(profile!.origins).toEqual([origin()]);
  });

  it('imports the site: cookies.sqlite and the LSNG localStorage, a valid session that opens the protected page', async () => {
    // Firefox really stored the long item Snappy-compressed (read on a copy would do too; the closed profile is ours).
    const lsFile = path.join(profileDir, 'storage', 'default', origin().replace(/[:/]/g, '+'), 'ls', 'data.sqlite');
    const db = new Database(lsFile, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT key, compression_type FROM data ORDER BY key').all();
      expect(rows).toEqual([
        { key: 'agent-studio-long', compression_type: 1 },
        { key: 'agent-studio-test', compression_type: 0 },
      ]);
    } finally {
      db.close();
    }

    const profile = (await firefoxProfile())!;
    const res = await server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped,
      json: { profile: profile.id, sites: [site.protectedUrl] },
    });
    expect(res.status).toBe(200);
    const { sessions } = (await res.json()) as { sessions: Imported[] };
    expect(sessions).toHaveLength(1);
    const [imported] = sessions;
    expect(imported).toMatchObject({ origin: origin(), valid: true, status: 'valid' });
    expect(imported.session_id).toMatch(/^ses_/);
    const session = imported.state.cookies.find((c) => c.name === 'ws_session');
    expect(session).toMatchObject({ domain: '127.0.0.1', httpOnly: true });
    expect(session!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(imported.state.origins).toHaveLength(1);
    expect(imported.state.origins[0].origin).toBe(origin());
    expect(imported.state.origins[0].localStorage).toEqual(
      expect.arrayContaining([
        { name: 'agent-studio-test', value: 'kept ✓' },
        { name: 'agent-studio-long', value: FIREFOX_LONG_VALUE },
      ]),
    );
    expect(imported.state.origins[0].localStorage).toHaveLength(2);
    expect(await opensProtectedPage(browser, site, imported.state)).toBe(true);

    expect(profileImports(server.core).list(server.orgId)[0]).toMatchObject({
      via: 'api',
      profileId: profile.id,
      browser: 'firefox',
      outcome: 'valid',
      sessionId: imported.session_id,
    });
  });

  it('a site the profile holds nothing for is a 404 naming it', async () => {
    const profile = (await firefoxProfile())!;
    const elsewhere = `http://localhost:${new URL(site.loginUrl).port}`;
    const res = await server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped,
      json: { profile: profile.id, sites: [`${elsewhere}/workspace`] },
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('NOTHING_TO_IMPORT');
    expect(body.message).toContain(elsewhere);
  });
});
