// Reads one profile's session for some sites: its cookies (Chromium: decrypted with the key the OS keeps for the
// browser) and its localStorage (Chromium: LevelDB; Firefox: firefox-storage.ts), as a Playwright storageState per
// site. Always from a copy of the files.
import type { StorageState } from '../../../../shared/login.schema.js';
import { AppError } from '../../errors.js';
import type { Platform } from './browser-kinds.js';
import { ChromiumDecryptor, type ChromiumKeys } from './chromium-crypto.js';
import { chromiumLocalStorage } from './chromium-local-storage.js';
import { firefoxLocalStorage, firefoxStorageOrigins } from './firefox-storage.js';
import { linuxKeyStores, linuxStorePassword } from './linux-keyrings.js';
import { macSafeStoragePassword, windowsCookieKey } from './os-keys.js';
import { readSqliteCopy } from './profile-copy.js';
import {
  chromiumCookies,
  chromiumMetaVersion,
  chromiumOrigins,
  chromiumRows,
  cookieMatchesHost,
  firefoxCookies,
  firefoxOrigins,
  type PlaywrightCookie,
} from './profile-cookies.js';
import type { FoundProfile } from './profile-discovery.js';

export interface SiteState {
  origin: string;
  state: StorageState;
}

export const nothingToImport = (origin: string, profile: FoundProfile) =>
  new AppError(
    404,
    'nothing_to_import',
    `The ${profile.browser} profile "${profile.name}" holds no cookies or localStorage for ${origin}: sign in to the ` +
      'site in that browser first (or pick another profile).',
    { reason: 'nothing_to_import', origin },
  );

function chromiumKeys(profile: FoundProfile, platform: Platform): ChromiumKeys {
  const family = profile.family!;
  if (platform === 'win32') return { windowsKey: () => windowsCookieKey(profile.userDataDir, family) };
  if (platform === 'darwin') return { safeStoragePasswords: [() => macSafeStoragePassword(family)] };
  // Read when the import runs: the desktop session this process was started in.
  return {
    safeStoragePasswords: linuxKeyStores(process.env).map((store) => () => linuxStorePassword(family, store)),
  };
}

/** The origins the profile holds cookies for (from a copy of its cookie database). */
export function profileOrigins(profile: FoundProfile): string[] {
  if (profile.browser !== 'firefox') return readSqliteCopy(profile.cookiesFile, profile.name, chromiumOrigins);
  const cookieOrigins = readSqliteCopy(profile.cookiesFile, profile.name, firefoxOrigins);
  // Firefox's cookies name no port, its localStorage directories do: a cookie host's origins with localStorage
  // (scheme and host alike) stand for it with their ports, so the listed origin is the one the site runs on.
  const stored = firefoxStorageOrigins(profile.path);
  const origins = new Set<string>();
  for (const origin of cookieOrigins) {
    const { protocol, hostname } = new URL(origin);
    const sameHost = stored.filter((s) => {
      const u = new URL(s);
      return u.protocol === protocol && u.hostname === hostname;
    });
    for (const o of sameHost.length ? sameHost : [origin]) origins.add(o);
  }
  return [...origins].sort();
}

/** Each site's state; a site the profile holds nothing for is a 404 naming it (before anything is returned). */
export async function readSiteStates(profile: FoundProfile, sites: string[], platform: Platform): Promise<SiteState[]> {
  const origins = [...new Set(sites.map((s) => new URL(s).origin))];
  const hosts = origins.map((o) => new URL(o).hostname);
  let cookies: PlaywrightCookie[];
  let storage: { origin: string; localStorage: { name: string; value: string }[] }[] = [];
  if (profile.browser === 'firefox') {
    cookies = readSqliteCopy(profile.cookiesFile, profile.name, (db) => firefoxCookies(db, hosts));
    storage = firefoxLocalStorage(profile.path, profile.name, origins);
  } else {
    const { rows, metaVersion } = readSqliteCopy(profile.cookiesFile, profile.name, (db) => ({
      rows: chromiumRows(db, hosts),
      metaVersion: chromiumMetaVersion(db),
    }));
    cookies = await chromiumCookies(
      rows,
      new ChromiumDecryptor(platform, chromiumKeys(profile, platform), metaVersion),
    );
    storage = await chromiumLocalStorage(profile.path, profile.name, origins);
  }
  const states = origins.map((origin) => {
    const host = new URL(origin).hostname;
    return {
      origin,
      state: {
        cookies: cookies.filter((c) => cookieMatchesHost(c.domain, host)),
        origins: storage.filter((s) => s.origin === origin),
      },
    };
  });
  const empty = states.find((s) => !s.state.cookies.length && !s.state.origins.length);
  if (empty) throw nothingToImport(empty.origin, profile);
  return states;
}
