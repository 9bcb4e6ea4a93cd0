// An import named by host is checked where the session shows, not on the home page alone (issue 42): the
// landing-signin site's home page is a cached marketing page, the same signed in or not ("Sign in" in the header, no
// account menu); its session shows on /dashboard, and /login sends a signed-in visitor on there. Real Chromium
// profiles (Debian's chromium, the basic cookie store), imported through the HTTP API.
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { chromiumUserDataDir, openChromiumProfile } from '../../../helpers/chromium-profile.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';

const RUNS = 5;

interface Imported {
  session_id: string | null;
  origin: string;
  valid: boolean;
  status: string;
  evidence: string[];
}

/** Signs in on the site's own form with "Keep me signed in" (a persistent cookie: what Chromium writes to disk). */
async function signIn(ctx: BrowserContext, site: FixtureSite): Promise<void> {
  const page = await ctx.newPage();
  await page.goto(`${site.origin}/login`);
  await page.fill('#session_email', site.credentials.username);
  await page.fill('#session_password', site.credentials.password);
  await page.check('#session_remember_me');
  await Promise.all([page.waitForURL(/\/dashboard$/), page.click('button[name=commit]')]);
  await page.close();
}

/** A closed profile signed in to the site; `endedBySite`: the site has since ended that session (a dead cookie). */
async function profileSignedIn(home: string, site: FixtureSite, endedBySite: boolean): Promise<void> {
  const ctx = await openChromiumProfile(chromiumUserDataDir(home), 'basic');
  try {
    await signIn(ctx, site);
    if (endedBySite) {
      const cookie = (await ctx.cookies(site.origin)).map((c) => `${c.name}=${c.value}`).join('; ');
      await fetch(`${site.origin}/logout`, { headers: { cookie }, redirect: 'manual' });
    }
  } finally {
    await ctx.close();
  }
}

describe('an import named by host is checked where the session shows (landing page the same for everyone)', () => {
  let site: FixtureSite;
  let server: TestServer;
  let liveHome: string;
  let deadHome: string;

  beforeAll(async () => {
    site = await startSite('landing-signin');
    liveHome = tempDir();
    deadHome = tempDir();
    await profileSignedIn(liveHome, site, false);
    await profileSignedIn(deadHome, site, true);
    server = await startTestServer({ browserProfiles: { roots: [liveHome, deadHome] } });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const key = () => server.core.keys.create(server.orgId, { scopes: ['browser-profiles:read'] }).key;
  const importHost = async (home: string, scoped: string): Promise<Imported> => {
    const listed = await server.request('/api/browser-profiles', { key: scoped });
    const profile = ((await listed.json()) as { data: { id: string; path: string }[] }).data.find((p) =>
      p.path.startsWith(home),
    )!;
    const res = await server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped,
      json: { profile: profile.id, sites: [new URL(site.origin).host] },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { sessions: Imported[] }).sessions[0];
  };

  it(`a signed-in profile is valid: the sign-in link sends it on to the dashboard (${RUNS} of ${RUNS})`, async () => {
    const scoped = key();
    for (let run = 1; run <= RUNS; run++) {
      const imported = await importHost(liveHome, scoped);
      expect({ run, valid: imported.valid, status: imported.status }).toEqual({ run, valid: true, status: 'valid' });
      expect(imported.session_id).toMatch(/^ses_/);
      // The evidence says why: the home page was undecided, the page behind its sign-in link showed the session.
      expect(imported.evidence).toEqual(
        expect.arrayContaining([
          'the page offers a sign-in link and no sign-out control',
          `the site root shows no signed-in signal: opened its sign-in link ${site.origin}/login`,
          `ended on ${site.origin}/dashboard`,
          'the page shows a sign-out control',
        ]),
      );
    }
  });

  it(`a profile whose session the site ended is not valid: the sign-in page shows its form (${RUNS} of ${RUNS})`, async () => {
    const scoped = key();
    for (let run = 1; run <= RUNS; run++) {
      const imported = await importHost(deadHome, scoped);
      expect({ run, valid: imported.valid, status: imported.status }).toEqual({
        run,
        valid: false,
        status: 'invalid',
      });
      expect(imported.evidence).toContain('the page shows a password login form');
    }
  });
});
