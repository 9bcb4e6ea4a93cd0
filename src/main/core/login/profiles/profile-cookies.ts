// Cookie rows of a profile's database (on a copy, see profile-copy.ts) turned into Playwright cookies, for the
// chosen sites only, and the sites a profile holds cookies for. Chromium: `Cookies` (values encrypted, see
// chromium-crypto.ts); Firefox: `cookies.sqlite` (values in the clear).
import type Database from 'better-sqlite3';
import type { StorageState } from '../../../../shared/login.schema.js';
import type { ChromiumDecryptor } from './chromium-crypto.js';

export type PlaywrightCookie = StorageState['cookies'][number];

/** Microseconds between 1601-01-01 (Chromium's epoch) and 1970-01-01. */
const WINDOWS_EPOCH_US = 11_644_473_600_000_000n;

interface ChromiumRow {
  host_key: string;
  name: string;
  value: string;
  encrypted_value: Buffer;
  path: string;
  expires_utc: number | bigint;
  is_secure: number;
  is_httponly: number;
  samesite: number;
  has_expires: number;
  source_scheme?: number;
  source_port?: number;
}

/** Whether a browser would send a cookie of `hostKey` (".example.com": domain cookie; "example.com": host-only). */
export function cookieMatchesHost(hostKey: string, hostname: string): boolean {
  const host = hostname.toLowerCase();
  const key = hostKey.toLowerCase();
  if (!key.startsWith('.')) return key === host;
  return host === key.slice(1) || host.endsWith(key);
}

/** net::CookieSameSite: -1 unspecified (treated as Lax), 0 no restriction, 1 lax, 2 strict. */
function chromiumSameSite(value: number, secure: boolean): PlaywrightCookie['sameSite'] {
  // A browser refuses SameSite=None without Secure: such a cookie is kept as Lax (what it is sent as).
  return value === 0 && secure ? 'None' : value === 2 ? 'Strict' : 'Lax';
}

/** Chromium's microseconds since 1601 → Unix seconds; -1 for a session cookie. */
export function chromiumExpiry(expiresUtc: number | bigint, hasExpires: number): number {
  const us = BigInt(expiresUtc);
  if (!hasExpires || us === 0n) return -1;
  return Number((us - WINDOWS_EPOCH_US) / 1000n) / 1000;
}

export function chromiumMetaVersion(db: Database.Database): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | undefined;
  return Number(row?.value ?? 0);
}

const CHROMIUM_SELECT =
  'SELECT host_key, name, value, encrypted_value, path, expires_utc, is_secure, is_httponly, samesite, has_expires FROM cookies';

/** The rows of the cookies a browser would send to one of `hostnames` (read before decrypting: sync). */
export function chromiumRows(db: Database.Database, hostnames: string[]): ChromiumRow[] {
  const rows = db.prepare(CHROMIUM_SELECT).safeIntegers(true).all() as ChromiumRow[];
  return rows
    .filter((r) => hostnames.some((h) => cookieMatchesHost(r.host_key, h)))
    .map((r) => ({
      ...r,
      is_secure: Number(r.is_secure),
      is_httponly: Number(r.is_httponly),
      samesite: Number(r.samesite),
      has_expires: Number(r.has_expires),
    }));
}

export async function chromiumCookies(rows: ChromiumRow[], decryptor: ChromiumDecryptor): Promise<PlaywrightCookie[]> {
  const now = Date.now() / 1000;
  const cookies: PlaywrightCookie[] = [];
  for (const r of rows) {
    const expires = chromiumExpiry(r.expires_utc, r.has_expires);
    if (expires !== -1 && expires <= now) continue;
    cookies.push({
      name: r.name,
      value: await decryptor.decrypt(r.host_key, r.value, Buffer.from(r.encrypted_value)),
      domain: r.host_key,
      path: r.path || '/',
      expires,
      httpOnly: !!r.is_httponly,
      secure: !!r.is_secure,
      sameSite: chromiumSameSite(r.samesite, !!r.is_secure),
    });
  }
  return cookies;
}

/** The origins a Chromium profile holds cookies for: each host with the scheme and port that set its cookie. */
export function chromiumOrigins(db: Database.Database): string[] {
  const columns = new Set((db.prepare('PRAGMA table_info(cookies)').all() as { name: string }[]).map((c) => c.name));
  const withSource = columns.has('source_scheme') && columns.has('source_port');
  const rows = db
    .prepare(
      withSource
        ? 'SELECT DISTINCT host_key, is_secure, source_scheme, source_port FROM cookies'
        : 'SELECT DISTINCT host_key, is_secure FROM cookies',
    )
    .all() as Pick<ChromiumRow, 'host_key' | 'is_secure' | 'source_scheme' | 'source_port'>[];
  const origins = new Set<string>();
  for (const r of rows) {
    // net::CookieSourceScheme: 1 non-secure, 2 secure, 0 unset.
    const secure = r.source_scheme === 2 || (r.source_scheme !== 1 && !!r.is_secure);
    const scheme = secure ? 'https' : 'http';
    const port = r.source_port && r.source_port > 0 && r.source_port !== (secure ? 443 : 80) ? `:${r.source_port}` : '';
    origins.add(hostOrigin(scheme, r.host_key, port));
  }
  return [...origins].filter(Boolean).sort();
}

function hostOrigin(scheme: string, hostKey: string, port: string): string {
  const host = hostKey.replace(/^\./, '');
  if (!host) return '';
  try {
    return new URL(`${scheme}://${host.includes(':') ? `[${host}]` : host}${port}`).origin;
  } catch {
    return '';
  }
}

interface FirefoxRow {
  host: string;
  name: string;
  value: string;
  path: string;
  expiry: number;
  isSecure: number;
  isHttpOnly: number;
  sameSite: number;
}

export function firefoxCookies(db: Database.Database, hostnames: string[]): PlaywrightCookie[] {
  const rows = db
    .prepare('SELECT host, name, value, path, expiry, isSecure, isHttpOnly, sameSite FROM moz_cookies')
    .all() as FirefoxRow[];
  const now = Date.now() / 1000;
  return rows
    .filter((r) => hostnames.some((h) => cookieMatchesHost(r.host, h)))
    .map((r) => {
      // Firefox keeps seconds, newer versions milliseconds; session cookies are dropped at exit, never stored.
      const expires = r.expiry > 1e11 ? r.expiry / 1000 : r.expiry;
      return {
        name: r.name,
        value: r.value,
        domain: r.host,
        path: r.path || '/',
        expires,
        httpOnly: !!r.isHttpOnly,
        secure: !!r.isSecure,
        // nsICookie: 0 none, 1 lax, 2 strict (256 "unset" in some versions: Lax by default).
        sameSite: r.sameSite === 0 && r.isSecure ? 'None' : r.sameSite === 2 ? 'Strict' : 'Lax',
      } satisfies PlaywrightCookie;
    })
    .filter((c) => c.expires > now);
}

/**
 * The origins a Firefox profile holds cookies for. moz_cookies keeps no port: a cookie is sent to every port of its
 * host, and `schemeMap` (nsICookie: 1 http, 2 https) names the schemes that set it (older profiles: isSecure).
 */
export function firefoxOrigins(db: Database.Database): string[] {
  const columns = new Set(
    (db.prepare('PRAGMA table_info(moz_cookies)').all() as { name: string }[]).map((c) => c.name),
  );
  const rows = db
    .prepare(
      columns.has('schemeMap')
        ? 'SELECT DISTINCT host, isSecure, schemeMap FROM moz_cookies'
        : 'SELECT DISTINCT host, isSecure FROM moz_cookies',
    )
    .all() as (Pick<FirefoxRow, 'host' | 'isSecure'> & { schemeMap?: number })[];
  const origins = new Set<string>();
  for (const r of rows) {
    const map = r.schemeMap ?? 0;
    const schemes = map & 3 ? [map & 1 ? 'http' : '', map & 2 ? 'https' : ''] : [r.isSecure ? 'https' : 'http'];
    for (const scheme of schemes.filter(Boolean)) origins.add(hostOrigin(scheme, r.host, ''));
  }
  return [...origins].filter(Boolean).sort();
}
