// The session cache's pure parts: its keys (loaded once from the secret store), the encrypted payload's
// shape, and when a cached state stops being usable. The table itself is session-cache.ts's alone.
import crypto from 'node:crypto';
import type { StorageExtra, StorageState } from '../../../../shared/login.schema.js';
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';
import { readOrCreateKey, SecretsMissingError, type SecretStore } from '../../secrets/secret-store.js';
import { isAuthCookie } from '../engine/auth-cookies.js';

/** Keyed hash of an identity's credentials (see `SessionCache.credentialHash`). */
export type CredentialHash = Buffer & { readonly __credentialHash: true };

/**
 * As KeyObjects, made once: a raw Buffer key is turned into one on every cipher or HMAC call (~30 µs each on
 * Node 24, three per cache hit), a KeyObject is used as it is.
 */
export interface CacheKeys {
  /** AES-256-GCM key of the payloads, and the HMAC key of the lookup key (the stored secret itself). */
  cache: crypto.KeyObject;
  /** HMAC key of the credential hashes, derived from the same secret. */
  credential: crypto.KeyObject;
}

/** The cache key (create-once in the secret store) and the credential-hash key derived from it. */
export async function loadCacheKeys(secrets: SecretStore): Promise<CacheKeys> {
  // Create-once across processes: the server and the CLI must never each keep a different key.
  const cache = await readOrCreateKey(secrets, 'session-cache-key').catch((err: unknown) => {
    if (err instanceof SecretsMissingError)
      throw new SecretsMissingError('The key that seals the cached sessions', err.details);
    throw err;
  });
  // A subkey derived with HKDF rather than a second keychain secret: the hashes are worthless without
  // the entries they guard, so they share one secret's lifetime (rotating or losing the cache key
  // voids both at once), there is no state where one secret exists without the other, and the
  // keychain is read once. HKDF makes the subkey independent of the AES/lookup uses of the secret.
  const credential = Buffer.from(
    crypto.hkdfSync('sha256', cache, Buffer.alloc(0), 'agent-studio session-cache credential-hash v1', 32),
  );
  return { cache: crypto.createSecretKey(cache), credential: crypto.createSecretKey(credential) };
}

/**
 * What the encrypted payload holds: the state and the storage it was captured with (`include`).
 * Entries written before `include` existed hold the bare state: captured with nothing extra.
 */
export interface CachedPayload {
  v: 2;
  include: StorageExtra[];
  /** Where the session itself lives beyond cookies and localStorage: returned whatever a request includes. */
  sessionIn?: StorageExtra[];
  /** The state, with what the login browser presented (`browser`) since entries have it (older ones: none). */
  state: StorageState;
  /** The browser mode that made it (a session check opens it in the same); absent: the default, or an older entry. */
  mode?: BrowserMode;
}

export function readPayload(json: string): CachedPayload {
  const parsed = JSON.parse(json) as CachedPayload | StorageState;
  return 'v' in parsed && parsed.v === 2 ? parsed : { v: 2, include: [], state: parsed as StorageState };
}

/** Constant-time: how much of a stored hash matches must not show in the response time. */
export function sameCredentials(stored: Buffer | null, given: CredentialHash): boolean {
  return stored !== null && stored.length === given.length && crypto.timingSafeEqual(stored, given);
}

/**
 * When the session stops being usable: the earliest expiry among the cookies that may hold it
 * (./auth-cookies.ts: an auth-like name or HttpOnly, never an anti-CSRF cookie, whose expiry does
 * not end a session), or among all cookies when none may. Session cookies (-1) have no time limit
 * of their own. Unix ms or null.
 */
export function sessionExpiry(state: StorageState): number | null {
  const auth = state.cookies.filter((c) => isAuthCookie(c.name, c.httpOnly));
  const relevant = auth.length ? auth : state.cookies;
  const times = relevant.filter((c) => c.expires > 0).map((c) => c.expires * 1000);
  return times.length ? Math.min(...times) : null;
}
