// The person's browser profiles answer only the organizations the person allowed (docs/security.md#the-browser-profiles-are-the-persons): by default the
// install's first organization; another organization's key, even one granted browser-profiles:read by name, gets a
// 403 saying how the person allows it (`browser-profiles allow --org NAME`, the CLI on the same data dir). A real
// Chromium profile (Debian's chromium, basic store), logged in to a fixture site and closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileAccess, profileImports } from '../../../../src/main/core/login/profiles/index.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { chromiumUserDataDir, makeLoggedInProfile } from '../../../helpers/chromium-profile.js';
import { runCli } from '../../../helpers/spawn.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';

interface LoginError {
  error: string;
  message: string;
  details: Record<string, unknown>;
}

/** A CLI run starts a whole core through tsx: tens of seconds on 2 busy cores. */
const CLI_TIMEOUT_MS = 180_000;

let site: FixtureSite;
let server: TestServer;
let home: string;
/** browser-profiles:read keys of the first organization (test-org) and of another one. */
let first: string;
let other: { orgId: string; key: string };

beforeAll(async () => {
  site = await startSite('extra-fields');
  home = tempDir();
  await makeLoggedInProfile(chromiumUserDataDir(home), 'basic', site);
  server = await startTestServer({ browserProfiles: { roots: [home] } });
  first = server.core.keys.create(server.orgId, { scopes: ['browser-profiles:read'] }).key;
  // Named to sort after test-org: the default is the oldest organization even when both were made in one ms.
  other = server.newOrg('zz-other-team', ['browser-profiles:read', 'sessions:read']);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await site?.close();
});

const list = (key: string) => server.request('/api/browser-profiles', { key });
const importFrom = (key: string, profile: string) =>
  server.request('/api/sessions/import', { method: 'POST', key, json: { profile, sites: [site.protectedUrl] } });
const profileId = async () => {
  const res = await list(first);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string; path: string }[] }).data.find((p) => p.path.startsWith(home))!.id;
};
const cli = (...args: string[]) => runCli(['browser-profiles', ...args, '--data-dir', server.dataDir]);

async function expectNotAllowed(res: Response): Promise<void> {
  const body = (await res.json()) as LoginError;
  expect(res.status, JSON.stringify(body)).toBe(403);
  expect(body).toMatchObject({
    error: 'ORGANIZATION_NOT_ALLOWED',
    details: { reason: 'organization_not_allowed', org_id: other.orgId },
  });
  expect(body.message).toContain('"zz-other-team"');
  expect(body.message).toContain('browser-profiles allow --org "zz-other-team"');
}

describe('browser profiles by organization', () => {
  it('by default only the first organization: another one’s key gets 403 and nothing is read or kept', async () => {
    const profile = await profileId();
    expect((await importFrom(first, profile)).status).toBe(200);

    await expectNotAllowed(await list(other.key));
    await expectNotAllowed(await importFrom(other.key, profile));
    const sessions = await server.request('/api/sessions', { key: other.key });
    expect(((await sessions.json()) as { data: unknown[] }).data).toEqual([]);
    expect(profileImports(server.core).list(other.orgId)).toEqual([]);
  });

  it(
    'the CLI says which organizations may read them, the default marked as such',
    () => {
      const shown = cli('orgs', '--json');
      expect(shown.status, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({ orgs: [{ id: server.orgId, name: 'test-org' }], chosen: false });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'once the person allows the organization (CLI), its key imports; once they deny it, 403 again',
    async () => {
      const allowed = cli('allow', '--org', 'zz-other-team');
      expect(allowed.status, allowed.stderr).toBe(0);
      expect(allowed.stdout).toContain('keys of zz-other-team with browser-profiles:read may now read');
      const profile = await profileId();
      const res = await importFrom(other.key, profile);
      const body = (await res.json()) as { sessions: { origin: string; valid: boolean }[] };
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body.sessions[0]).toMatchObject({ origin: new URL(site.loginUrl).origin, valid: true });
      expect(profileImports(server.core).list(other.orgId)[0]).toMatchObject({ via: 'api', outcome: 'valid' });
      // The first organization stays on the list it was the default of.
      expect((await list(first)).status).toBe(200);

      const denied = cli('deny', '--org', 'zz-other-team');
      expect(denied.status, denied.stderr).toBe(0);
      await expectNotAllowed(await list(other.key));
      expect(profileAccess(server.core).readers()).toMatchObject({ orgs: [{ id: server.orgId }], chosen: true });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'an unknown organization is refused by the CLI and changes nothing',
    () => {
      const res = cli('allow', '--org', 'nobody-by-that-name');
      expect(res.status).not.toBe(0);
      expect(res.stderr).toContain('No organization named "nobody-by-that-name"');
      expect(profileAccess(server.core).readers().orgs).toHaveLength(1);
    },
    CLI_TIMEOUT_MS,
  );
});
