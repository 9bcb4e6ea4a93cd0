// Linux browsers as people install them: Snap and Flatpak builds keep their profiles under ~/snap and ~/.var/app,
// and on KDE Chromium keeps its cookie password in KWallet. Real profiles made by Debian's chromium are placed at
// those paths under a temp home and imported through the HTTP API. KWallet itself cannot run here: the tool boundary
// is KDE's `kwallet-query`, stood in for by a script on PATH that hands out the password the test keyring holds for
// the v11 profile (Chromium wrote it there), and only for the folder and entry Chromium uses.
// Run inside scripts/with-keyring.sh (the v11 profile keeps its key in that keyring).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { makeLoggedInProfile } from '../../../helpers/chromium-profile.js';
import { keyringAvailable } from '../../../helpers/requires.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { CHROMIUM_FAMILY } from '../../../../src/main/core/login/profiles/browser-kinds.js';
import { secretServicePassword } from '../../../../src/main/core/login/profiles/os-keys.js';

const hasKeyring = keyringAvailable();

interface Profile {
  id: string;
  browser: string;
  path: string;
  origins: string[];
}

const SNAP_CHROMIUM = 'snap/chromium/common/chromium';
const FLATPAK_BRAVE = '.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser';
const FLATPAK_CHROMIUM = '.var/app/org.chromium.Chromium/config/chromium';

// Skipped only without a Secret Service keyring (outside scripts/with-keyring.sh on a developer's machine: the v11
// profile's key lives there), said on the console; under CI keyringAvailable() fails the file instead.
describe.skipIf(!hasKeyring)('Snap and Flatpak profiles, and KWallet on KDE', () => {
  let site: FixtureSite;
  let server: TestServer;
  let packagedHome: string;
  let kdeHome: string;
  let bin: string;
  let askedLog: string;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    site = await startSite('extra-fields');
    packagedHome = tempDir();
    kdeHome = tempDir();
    // One real v10 profile at the Chromium snap's path, and the same files at the Brave Flatpak's.
    await makeLoggedInProfile(path.join(packagedHome, SNAP_CHROMIUM), 'basic', site);
    fs.cpSync(path.join(packagedHome, SNAP_CHROMIUM), path.join(packagedHome, FLATPAK_BRAVE), {
      recursive: true,
      verbatimSymlinks: true,
    });
    // A v11 profile at the Chromium Flatpak's path: its password is in the test keyring, where KWallet's stand-in
    // reads it from a file.
    await makeLoggedInProfile(path.join(kdeHome, FLATPAK_CHROMIUM), 'gnome-libsecret', site);
    const password = await secretServicePassword(CHROMIUM_FAMILY.find((f) => f.kind === 'chromium')!);
    bin = tempDir();
    askedLog = path.join(bin, 'asked.log');
    fs.writeFileSync(path.join(bin, 'password'), password);
    fs.writeFileSync(
      path.join(bin, 'kwallet-query'),
      [
        '#!/bin/sh',
        `printf '%s\\n' "$*" >> '${askedLog}'`,
        'if [ "$*" = "--read-password Chromium Safe Storage --folder Chromium Keys kdewallet" ]; then',
        `  cat '${path.join(bin, 'password')}'; echo`,
        'else',
        '  echo "Failed to read entry"; exit 1',
        'fi',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    server = await startTestServer({ browserProfiles: { roots: [packagedHome, kdeHome] } });
  }, 120_000);

  afterEach(() => {
    for (const key of ['PATH', 'XDG_CURRENT_DESKTOP', 'KDE_SESSION_VERSION', 'DBUS_SESSION_BUS_ADDRESS']) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
    fs.rmSync(askedLog, { force: true });
  });

  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const scoped = () => server.core.keys.create(server.orgId, { scopes: ['browser-profiles:read'] }).key;
  const list = async (): Promise<Profile[]> => {
    const res = await server.request('/api/browser-profiles', { key: scoped() });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Profile[] }).data;
  };
  const importFrom = async (dir: string) => {
    const profile = (await list()).find((p) => p.path === path.join(dir, 'Default'))!;
    return server.request('/api/sessions/import', {
      method: 'POST',
      key: scoped(),
      json: { profile: profile.id, sites: [site.protectedUrl] },
    });
  };
  /** The desktop session the import runs in: no Secret Service reachable, so only KWallet can answer. */
  const desktop = (vars: Record<string, string>, withKwalletQuery: boolean) => {
    Object.assign(process.env, vars);
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path.join(kdeHome, 'no-bus')}`;
    if (withKwalletQuery) process.env.PATH = `${bin}${path.delimiter}${savedEnv.PATH}`;
  };

  it('lists the Snap Chromium, Flatpak Brave and Flatpak Chromium profiles as those browsers', async () => {
    const profiles = await list();
    const origin = new URL(site.loginUrl).origin;
    for (const [home, dir, browser] of [
      [packagedHome, SNAP_CHROMIUM, 'chromium'],
      [packagedHome, FLATPAK_BRAVE, 'brave'],
      [kdeHome, FLATPAK_CHROMIUM, 'chromium'],
    ]) {
      const found = profiles.find((p) => p.path === path.join(home, dir, 'Default'));
      expect(found, dir).toMatchObject({ browser });
      expect(found!.origins).toContain(origin);
    }
  });

  it.each([SNAP_CHROMIUM, FLATPAK_BRAVE])('imports a valid session from the profile at ~/%s', async (dir) => {
    const res = await importFrom(path.join(packagedHome, dir));
    expect(res.status).toBe(200);
    const { sessions } = (await res.json()) as { sessions: { valid: boolean; status: string }[] };
    expect(sessions).toEqual([expect.objectContaining({ valid: true, status: 'valid' })]);
  });

  it('on KDE 6 the v11 key comes from KWallet ("Chromium Keys" / "Chromium Safe Storage")', async () => {
    desktop({ XDG_CURRENT_DESKTOP: 'KDE', KDE_SESSION_VERSION: '6' }, true);
    const res = await importFrom(path.join(kdeHome, FLATPAK_CHROMIUM));
    expect(res.status, await res.clone().text()).toBe(200);
    const { sessions } = (await res.json()) as { sessions: { valid: boolean }[] };
    expect(sessions[0]).toMatchObject({ valid: true });
    expect(fs.readFileSync(askedLog, 'utf8')).toBe(
      '--read-password Chromium Safe Storage --folder Chromium Keys kdewallet\n',
    );
  });

  it('on GNOME KWallet is never asked: without the Secret Service the import is a 403', async () => {
    desktop({ XDG_CURRENT_DESKTOP: 'GNOME' }, true);
    const res = await importFrom(path.join(kdeHome, FLATPAK_CHROMIUM));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('KEYCHAIN_REFUSED');
    expect(fs.existsSync(askedLog)).toBe(false);
  });

  it('on KDE without kwallet-query the 403 says what to install', async () => {
    desktop({ XDG_CURRENT_DESKTOP: 'KDE', KDE_SESSION_VERSION: '5' }, false);
    const res = await importFrom(path.join(kdeHome, FLATPAK_CHROMIUM));
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('KEYCHAIN_REFUSED');
    expect(body.message).toContain('kwallet-query is not installed');
  });
});
