import crypto from 'node:crypto';
import type { SessionSummary, StorageState } from '../../../shared/login.schema.js';
import type { Db } from '../db/database.js';
import { newId } from '../ids.js';
import { open, seal } from '../secrets/aead.js';
import type { SecretStore } from '../secrets/secret-store.js';

export interface CacheIdentity {
  orgId: string;
  origin: string;
  username: string;
  method: string;
}

/** What a request proves the user with, besides the username. Only ever hashed, never stored. */
export interface CredentialSecrets {
  /** The request's `cred`; every field but `username` counts (today `password`). */
  cred: Record<string, string>;
  additionalFields: Record<string, string>;
}

/** Keyed hash of an identity's credentials (see `SessionCache.credentialHash`). */
export type CredentialHash = Buffer & { readonly __credentialHash: true };

interface CacheKeys {
  /** AES-256-GCM key of the payloads, and the HMAC key of the lookup key (the stored secret itself). */
  cache: Buffer;
  /** HMAC key of the credential hashes, derived from the same secret. */
  credential: Buffer;
}

const byKey = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

interface Row {
  id: string;
  org_id: string;
  origin: string;
  login_method: string;
  username_enc: Buffer;
  payload: Buffer;
  /** null for entries written before migration 0005: never served. */
  credential_hash: Buffer | null;
  cookie_names: string;
  cookie_count: number;
  origin_count: number;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

const AUTH_COOKIE = /(sess|sid|auth|token|jwt|login|logged|remember|user|account|identity|^_?id$|csrf)/i;

/** Constant-time: how much of a stored hash matches must not show in the response time. */
function sameCredentials(stored: Buffer | null, given: CredentialHash): boolean {
  return stored !== null && stored.length === given.length && crypto.timingSafeEqual(stored, given);
}

/**
 * When the session stops being usable: the earliest expiry among auth-looking cookies (all cookies
 * when none looks like auth). Session cookies (-1) have no time limit of their own. Unix ms or null.
 */
export function sessionExpiry(state: StorageState): number | null {
  const auth = state.cookies.filter((c) => AUTH_COOKIE.test(c.name) || c.httpOnly);
  const relevant = auth.length ? auth : state.cookies;
  const times = relevant.filter((c) => c.expires > 0).map((c) => c.expires * 1000);
  return times.length ? Math.min(...times) : null;
}

/**
 * Cached login sessions per (org, site origin, username, login method), AES-256-GCM encrypted at
 * rest with a key kept in the secret store. Rows of one org are never visible to another. An entry
 * is served only to a request whose credentials hash like the ones of the login that made it.
 */
export class SessionCache {
  /** One load per process: concurrent first calls must not each create (and store) a different key. */
  private keys: Promise<CacheKeys> | null = null;

  constructor(private readonly deps: { db: Db; secrets: SecretStore; maxAgeSec: number; now?: () => number }) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  private cacheKeys(): Promise<CacheKeys> {
    this.keys ??= this.loadKeys().catch((err: unknown) => {
      this.keys = null; // the secret store may come back (keychain unlocked later): try again next time
      throw err;
    });
    return this.keys;
  }

  private async loadKeys(): Promise<CacheKeys> {
    let stored = await this.deps.secrets.get('session-cache-key');
    if (!stored) {
      stored = crypto.randomBytes(32).toString('base64');
      await this.deps.secrets.set('session-cache-key', stored);
    }
    const cache = Buffer.from(stored, 'base64');
    // A subkey derived with HKDF rather than a second keychain secret: the hashes are worthless without
    // the entries they guard, so they share one secret's lifetime (rotating or losing the cache key
    // voids both at once), there is no state where one secret exists without the other, and the
    // keychain is read once. HKDF makes the subkey independent of the AES/lookup uses of the secret.
    const credential = Buffer.from(
      crypto.hkdfSync('sha256', cache, Buffer.alloc(0), 'agent-studio session-cache credential-hash v1', 32),
    );
    return { cache, credential };
  }

  private async cacheKey(): Promise<Buffer> {
    return (await this.cacheKeys()).cache;
  }

  /**
   * HMAC-SHA-256 over the identity and the request's secrets (password, other cred fields,
   * additionalFields; keys sorted so field order does not matter). The identity is included so equal
   * passwords of two entries never hash alike (someone reading the database learns nothing from it).
   */
  async credentialHash(id: CacheIdentity, secrets: CredentialSecrets): Promise<CredentialHash> {
    const { credential } = await this.cacheKeys();
    const cred = Object.entries(secrets.cred)
      .filter(([k]) => k !== 'username')
      .sort(byKey);
    const fields = Object.entries(secrets.additionalFields).sort(byKey);
    const canonical = JSON.stringify(['v1', id.orgId, id.origin, id.username, id.method, cred, fields]);
    return crypto.createHmac('sha256', credential).update(canonical).digest() as CredentialHash;
  }

  private lookupKey(key: Buffer, id: CacheIdentity): Buffer {
    return crypto
      .createHmac('sha256', key)
      .update(JSON.stringify([id.orgId, id.origin, id.username, id.method]))
      .digest();
  }

  /**
   * The cached state while it is fresh and was made with the same credentials, else null (the row is
   * left for `put` to replace: a failed login with other credentials never touches it).
   */
  async get(id: CacheIdentity, credentials: CredentialHash): Promise<{ id: string; state: StorageState } | null> {
    const key = await this.cacheKey();
    const row = this.deps.db
      .prepare('SELECT * FROM login_sessions WHERE cache_key = ? AND org_id = ?')
      .get(this.lookupKey(key, id), id.orgId) as Row | undefined;
    if (!row || !this.isFresh(row) || !sameCredentials(row.credential_hash, credentials)) return null;
    let state: StorageState;
    try {
      state = JSON.parse(open(key, row.payload, `${row.id}:${row.org_id}`).toString('utf8')) as StorageState;
    } catch {
      return null; // unreadable (key rotated or tampered): treat as a miss, a fresh login replaces it
    }
    // Coarse last-used stamp (at most one write a minute per entry) keeps cache hits read-only.
    const now = this.now();
    if (row.last_used_at === null || now - row.last_used_at > 60_000) {
      this.deps.db.prepare('UPDATE login_sessions SET last_used_at = ? WHERE id = ?').run(now, row.id);
    }
    return { id: row.id, state };
  }

  private isFresh(row: Pick<Row, 'created_at' | 'expires_at'>): boolean {
    const now = this.now();
    if (row.expires_at !== null && row.expires_at <= now) return false;
    return now - row.created_at < this.deps.maxAgeSec * 1000;
  }

  /** Stores (replacing any entry of the same identity) and returns the entry id. */
  async put(id: CacheIdentity, state: StorageState, credentials: CredentialHash): Promise<string> {
    const key = await this.cacheKey();
    const rowId = newId('ses', 16);
    const names = [...new Set(state.cookies.map((c) => c.name))].slice(0, 100);
    const lookup = this.lookupKey(key, id);
    const db = this.deps.db;
    db.transaction(() => {
      db.prepare('DELETE FROM login_sessions WHERE cache_key = ?').run(lookup);
      db.prepare(
        `INSERT INTO login_sessions (id, org_id, cache_key, username_enc, origin, login_method, payload, credential_hash, cookie_names, cookie_count, origin_count, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        rowId,
        id.orgId,
        lookup,
        seal(key, id.username, `${rowId}:user`),
        id.origin,
        id.method,
        seal(key, JSON.stringify(state), `${rowId}:${id.orgId}`),
        credentials,
        JSON.stringify(names),
        state.cookies.length,
        state.origins.length,
        this.now(),
        sessionExpiry(state),
      );
    })();
    return rowId;
  }

  async list(orgId: string): Promise<SessionSummary[]> {
    const rows = this.deps.db
      .prepare('SELECT * FROM login_sessions WHERE org_id = ? ORDER BY created_at DESC')
      .all(orgId) as Row[];
    if (!rows.length) return [];
    const key = await this.cacheKey();
    return rows.map((r) => {
      let username = '';
      try {
        username = open(key, r.username_enc, `${r.id}:user`).toString('utf8');
      } catch {
        username = '(unreadable)';
      }
      const maxAgeEnd = r.created_at + this.deps.maxAgeSec * 1000;
      return {
        id: r.id,
        origin: r.origin,
        username,
        login_method: r.login_method,
        created_at: r.created_at,
        expires_at: Math.min(r.expires_at ?? Infinity, maxAgeEnd),
        last_used_at: r.last_used_at,
        cookie_count: r.cookie_count,
        origin_count: r.origin_count,
        cookie_names: JSON.parse(r.cookie_names) as string[],
        // an entry without a credential hash (older than migration 0005) is never served
        fresh: this.isFresh(r) && r.credential_hash !== null,
      };
    });
  }

  delete(orgId: string, id: string): boolean {
    return this.deps.db.prepare('DELETE FROM login_sessions WHERE id = ? AND org_id = ?').run(id, orgId).changes > 0;
  }
}
