import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StorageState } from '../../../../src/shared/login.schema.js';
import { openDatabase } from '../../../../src/main/core/db/database.js';
import { isAuthCookie, isCsrfCookie } from '../../../../src/main/core/login/engine/auth-cookies.js';
import { changedAuthCookies, cookieMap } from '../../../../src/main/core/login/engine/outcome-detector.js';
import {
  SessionCache,
  sessionExpiry,
  type CacheIdentity,
} from '../../../../src/main/core/login/sessions/session-cache.js';
import { EncryptedFileSecretStore } from '../../../../src/main/core/secrets/encrypted-file-store.js';
import { tempDir } from '../../../helpers/temp-dir.js';

type StateCookie = StorageState['cookies'][number];

/** A cookie as Playwright reports it; `expires` in Unix seconds, -1 for a session cookie. */
function cookie(name: string, opts: { httpOnly?: boolean; expires?: number } = {}): StateCookie {
  return {
    name,
    value: `${name}-value`,
    domain: 'example.test',
    path: '/',
    expires: opts.expires ?? -1,
    httpOnly: opts.httpOnly ?? false,
    secure: true,
    sameSite: 'Lax',
  };
}

/** Anti-CSRF cookies as real frameworks name them: set for anonymous visitors, before any login. */
const CSRF_COOKIES = [
  'csrftoken', // Django
  'XSRF-TOKEN', // Laravel, Angular, ABP
  '_csrf', // Express csurf
  'gl_csrf', // GitLab-style
  'csrf_session', // both words
  'session_csrf',
  'csrf_token',
  'xsrf_auth_token',
  '.AspNetCore.Antiforgery.VyLW6ORzMgk', // ASP.NET Core (HttpOnly by default)
  '__RequestVerificationToken', // ASP.NET MVC
];

const SESSION_COOKIES = [
  'sessionid', // Django
  'PHPSESSID',
  'JSESSIONID',
  'connect.sid', // Express
  'laravel_session',
  '_gh_sess',
  '_gitlab_session',
  'user_session',
  'wordpress_logged_in_0f1e2d',
  'remember_user_token',
  'sid',
  'SIDCC',
  'lumen_sid',
  'access_token',
  'refresh_token',
  'KEYCLOAK_IDENTITY',
  'auth0',
];

describe('the auth-cookie rule (login/engine/auth-cookies.ts)', () => {
  it('never counts an anti-CSRF cookie, whatever else its name says and even when HttpOnly', () => {
    for (const name of CSRF_COOKIES) {
      expect(isCsrfCookie(name), name).toBe(true);
      expect(isAuthCookie(name), name).toBe(false);
      expect(isAuthCookie(name, true), `${name} (HttpOnly)`).toBe(false);
    }
  });

  it('counts session and auth cookies by name', () => {
    for (const name of SESSION_COOKIES) {
      expect(isCsrfCookie(name), name).toBe(false);
      expect(isAuthCookie(name), name).toBe(true);
    }
  });

  it('counts an HttpOnly cookie of an unknown name only when the caller says HttpOnly counts', () => {
    expect(isAuthCookie('kundenportal_sitzung')).toBe(false);
    expect(isAuthCookie('kundenportal_sitzung', true)).toBe(true);
  });

  it('never counts consent, analytics or preference cookies, even HttpOnly', () => {
    for (const name of ['OptanonConsent', 'cookie_notice_accepted', '_ga', '_gid', 'lang', 'theme', 'flash_msg']) {
      expect(isAuthCookie(name, true), name).toBe(false);
    }
    for (const name of ['_ga_ABC123', '_gat', '_gat_UA1']) expect(isAuthCookie(name, true), name).toBe(false);
  });

  it('matches analytics names whole: a session cookie that merely contains "_ga" still counts', () => {
    expect(isAuthCookie('sso_gateway_session')).toBe(true);
    expect(isAuthCookie('app_gateway', true)).toBe(true);
  });
});

describe('its users agree', () => {
  const LATER = 2_000_000_000; // Unix seconds
  const SOONER = 1_900_000_000;

  it('the outcome detector and the session cache count the same cookies', () => {
    for (const name of [...CSRF_COOKIES, ...SESSION_COOKIES, 'kundenportal_sitzung', 'OptanonConsent']) {
      for (const httpOnly of [false, true]) {
        const c = cookie(name, { httpOnly, expires: SOONER });
        const counts = isAuthCookie(name, httpOnly);
        // Outcome detector: a cookie that is new after the submit.
        expect(changedAuthCookies(cookieMap([]), cookieMap([c])), `${name} ${httpOnly}`).toEqual(counts ? [name] : []);
        // Session cache: next to a session cookie that lasts longer, only a counted cookie's expiry ends the entry.
        const state: StorageState = { cookies: [cookie('sessionid', { expires: LATER }), c], origins: [] };
        expect(sessionExpiry(state), `${name} ${httpOnly}`).toBe((counts ? SOONER : LATER) * 1000);
      }
    }
  });

  it('the outcome detector sees no login in a csrf cookie that appeared or changed', () => {
    const before = cookieMap([cookie('csrftoken')]);
    const rotated = { ...cookie('csrftoken'), value: 'rotated' };
    expect(changedAuthCookies(before, cookieMap([rotated, cookie('XSRF-TOKEN', { httpOnly: true })]))).toEqual([]);
    expect(changedAuthCookies(before, cookieMap([rotated, cookie('sessionid', { httpOnly: true })]))).toEqual([
      'sessionid',
    ]);
  });

  it('the session cache keeps serving a session after its csrf cookie expired', async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    const secrets = new EncryptedFileSecretStore(path.join(dir, 'secrets.enc.json'), 'a-master-key-of-enough-length');
    let now = 1_700_000_000_000;
    const cache = new SessionCache({ db, secrets, maxAgeSec: 24 * 3600, now: () => now });
    const id: CacheIdentity = { orgId: 'o1', origin: 'https://example.test', username: 'alice', method: 'password' };
    const creds = await cache.credentialHash(id, { cred: { password: 'pw-Zp4-long-enough' }, additionalFields: {} });
    // Django after a login: the HttpOnly session cookie and a csrftoken that (here) expires in a minute.
    const csrfExpires = now / 1000 + 60;
    const state: StorageState = {
      cookies: [cookie('sessionid', { httpOnly: true }), cookie('csrftoken', { expires: csrfExpires })],
      origins: [],
    };
    expect(sessionExpiry(state)).toBeNull();
    const entry = await cache.put(id, state, creds);
    now += 2 * 3600_000; // the csrf cookie is long gone; the session cookie has no limit of its own
    expect((await cache.get(id, creds))?.id).toBe(entry);
    expect((await cache.list('o1'))[0]).toMatchObject({ id: entry, fresh: true });

    // A session cookie with an expiry still ends the entry.
    const timed: StorageState = {
      cookies: [cookie('sessionid', { httpOnly: true, expires: now / 1000 + 60 }), cookie('csrftoken')],
      origins: [],
    };
    await cache.put(id, timed, creds);
    now += 120_000;
    expect(await cache.get(id, creds)).toBeNull();
    db.close();
  });
});
