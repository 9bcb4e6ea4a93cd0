import crypto from 'node:crypto';
import type { SessionSummary, StorageExtra, StorageState } from '../../../../shared/login.schema.js';
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';
import { KeptRows } from '../../db/change-stamp.js';
import type { Db } from '../../db/database.js';
import { newId } from '../../ids.js';
import { open, seal } from '../../secrets/aead.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import {
  loadCacheKeys,
  readPayload,
  sameCredentials,
  sessionExpiry,
  type CacheKeys,
  type CachedPayload,
  type CredentialHash,
} from './session-payload.js';
import type { CacheEntry, HitRow, LifecyclePatch, Row } from './session-rows.js';
import { coversInclude } from './storage-state.js';

export { sessionExpiry, type CredentialHash } from './session-payload.js';
export type { CacheEntry, LifecyclePatch } from './session-rows.js';

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

const byKey = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Cached login sessions per (org, site origin, username, login method), AES-256-GCM encrypted at
 * rest with a key kept in the secret store. Rows of one org are never visible to another. An entry
 * is served only to a request whose credentials hash like the ones of the login that made it.
 */
export class SessionCache {
  /** One load per process: concurrent first calls must not each create (and store) a different key. */
  private keys: Promise<CacheKeys> | null = null;

  /** The rows of recent hits (a hit reads one per request): dropped on any write to the database. */
  private readonly hitRows: KeptRows<HitRow>;

  constructor(private readonly deps: { db: Db; secrets: SecretStore; maxAgeSec: number; now?: () => number }) {
    this.hitRows = new KeptRows(deps.db);
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  private cacheKeys(): Promise<CacheKeys> {
    this.keys ??= loadCacheKeys(this.deps.secrets).catch((err: unknown) => {
      this.keys = null; // the secret store may come back (keychain unlocked later): try again next time
      throw err;
    });
    return this.keys;
  }

  private async cacheKey(): Promise<crypto.KeyObject> {
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

  /** Lookup keys by identity, kept for the identities asked for lately: a cache hit need not compute the HMAC again. */
  private readonly lookups = new Map<string, { key: crypto.KeyObject; lookup: Buffer }>();

  private lookupKey(key: crypto.KeyObject, id: CacheIdentity): Buffer {
    const text = JSON.stringify([id.orgId, id.origin, id.username, id.method]);
    const kept = this.lookups.get(text);
    if (kept?.key === key) return kept.lookup;
    const lookup = crypto.createHmac('sha256', key).update(text).digest();
    if (this.lookups.size >= 1024) this.lookups.delete(this.lookups.keys().next().value!);
    this.lookups.set(text, { key, lookup });
    return lookup;
  }

  /**
   * The cached state while it is fresh, was made with the same credentials and captured at least the
   * storage `include` asks for (IndexedDB, sessionStorage), else null (the row is left for `put` to
   * replace: a failed login with other credentials never touches it). The state may hold more than
   * `include` asks for: the caller trims it.
   */
  async get(
    id: CacheIdentity,
    credentials: CredentialHash,
    include: readonly StorageExtra[] = [],
  ): Promise<{ id: string; state: StorageState; sessionIn: StorageExtra[]; credentialId: string | null } | null> {
    const key = await this.cacheKey();
    const lookup = this.lookupKey(key, id);
    // Kept still sealed: every hit opens (and so authenticates) it again.
    const row = this.hitRows.get(
      `${lookup.toString('base64')} ${id.orgId}`,
      () =>
        this.deps.db
          .prepare(
            'SELECT id, org_id, payload, credential_hash, created_at, expires_at, last_used_at, status, credential_id ' +
              'FROM login_sessions WHERE cache_key = ? AND org_id = ?',
          )
          .get(lookup, id.orgId) as HitRow | undefined,
    );
    if (!row || !this.isFresh(row) || !sameCredentials(row.credential_hash, credentials)) return null;
    if (row.status === 'invalid') return null; // the last check found it dead: log in fresh (or POST /refresh)
    let payload: CachedPayload;
    try {
      payload = readPayload(open(key, row.payload, `${row.id}:${row.org_id}`).toString('utf8'));
    } catch {
      return null; // unreadable (key rotated or tampered): treat as a miss, a fresh login replaces it
    }
    if (!coversInclude(payload.include, include)) return null; // a fresh login captures them
    // Coarse last-used stamp (at most one write a minute per entry) keeps cache hits read-only.
    const now = this.now();
    if (row.last_used_at === null || now - row.last_used_at > 60_000) {
      this.deps.db.prepare('UPDATE login_sessions SET last_used_at = ? WHERE id = ?').run(now, row.id);
    }
    return { id: row.id, state: payload.state, sessionIn: payload.sessionIn ?? [], credentialId: row.credential_id };
  }

  private isFresh(row: Pick<Row, 'created_at' | 'expires_at'>): boolean {
    const now = this.now();
    if (row.expires_at !== null && row.expires_at <= now) return false;
    return now - row.created_at < this.deps.maxAgeSec * 1000;
  }

  /**
   * Stores (replacing any entry of the same identity) and returns the entry id. `include`: what was
   * captured; `sessionIn`: the part of it where the session lives; `mode`: the browser's (see CachedPayload).
   */
  async put(
    id: CacheIdentity,
    state: StorageState,
    credentials: CredentialHash,
    include: readonly StorageExtra[] = [],
    sessionIn: readonly StorageExtra[] = [],
    mode?: BrowserMode,
  ): Promise<string> {
    const key = await this.cacheKey();
    const rowId = newId('ses', 16);
    const names = [...new Set(state.cookies.map((c) => c.name))].slice(0, 100);
    const lookup = this.lookupKey(key, id);
    const db = this.deps.db;
    const now = this.now();
    db.transaction(() => {
      // The identity's health-check schedule and saved login outlive the entry they were set on.
      const kept = db
        .prepare(
          'SELECT health_check_interval_sec, credentials_stored, credential_id FROM login_sessions WHERE cache_key = ?',
        )
        .get(lookup) as Pick<Row, 'health_check_interval_sec' | 'credentials_stored' | 'credential_id'> | undefined;
      const interval = kept?.health_check_interval_sec ?? null;
      db.prepare('DELETE FROM login_sessions WHERE cache_key = ?').run(lookup);
      db.prepare(
        `INSERT INTO login_sessions (id, org_id, cache_key, username_enc, origin, login_method, payload, credential_hash, cookie_names, cookie_count, origin_count, created_at, expires_at,
           health_check_interval_sec, next_check_at, credentials_stored, credential_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        rowId,
        id.orgId,
        lookup,
        seal(key, id.username, `${rowId}:user`),
        id.origin,
        id.method,
        seal(
          key,
          JSON.stringify({
            v: 2,
            include: [...include],
            sessionIn: [...sessionIn],
            state,
            ...(mode ? { mode } : {}),
          } satisfies CachedPayload),
          `${rowId}:${id.orgId}`,
        ),
        credentials,
        JSON.stringify(names),
        state.cookies.length,
        state.origins.length,
        now,
        sessionExpiry(state),
        interval,
        interval === null ? null : now + interval * 1000,
        kept?.credentials_stored ?? 0,
        kept?.credential_id ?? null,
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
        fresh: this.isFresh(r) && r.credential_hash !== null && r.status !== 'invalid',
        status: r.status,
        last_checked_at: r.last_checked_at,
        health_check_interval_sec: r.health_check_interval_sec,
        next_check_at: r.next_check_at,
        stored_credentials: r.credential_id !== null,
        credential_id: r.credential_id,
      };
    });
  }

  delete(orgId: string, id: string): boolean {
    return this.deps.db.prepare('DELETE FROM login_sessions WHERE id = ? AND org_id = ?').run(id, orgId).changes > 0;
  }

  // ---- Session lifecycle (validation, refresh, health checks: see lifecycle/) ----

  /** The identity's entry whatever its credentials or age (refresh looks at it), or null. */
  async find(id: CacheIdentity): Promise<CacheEntry | null> {
    const key = await this.cacheKey();
    const row = this.deps.db
      .prepare('SELECT * FROM login_sessions WHERE cache_key = ? AND org_id = ?')
      .get(this.lookupKey(key, id), id.orgId) as Row | undefined;
    return row ? this.toEntry(key, row) : null;
  }

  /** One entry of the organization by id, or null. */
  async entry(orgId: string, id: string): Promise<CacheEntry | null> {
    const row = this.deps.db.prepare('SELECT * FROM login_sessions WHERE id = ? AND org_id = ?').get(id, orgId) as
      Row | undefined;
    return row ? this.toEntry(await this.cacheKey(), row) : null;
  }

  private toEntry(key: crypto.KeyObject, row: Row): CacheEntry {
    const openText = (sealed: Buffer | null, aad: string): string | null => {
      if (!sealed) return null;
      try {
        return open(key, sealed, aad).toString('utf8');
      } catch {
        return null; // key rotated or tampered: the caller treats the entry as unusable
      }
    };
    const text = openText(row.payload, `${row.id}:${row.org_id}`);
    const payload = text === null ? null : readPayload(text);
    return {
      id: row.id,
      orgId: row.org_id,
      origin: row.origin,
      method: row.login_method,
      identityKey: row.cache_key.toString('hex'),
      state: payload?.state ?? null,
      include: payload?.include ?? [],
      ...(payload?.mode ? { mode: payload.mode } : {}),
      checkUrl: openText(row.check_url_enc, `${row.id}:check-url`),
      status: row.status,
      lastCheckedAt: row.last_checked_at,
      healthCheckIntervalSec: row.health_check_interval_sec,
      nextCheckAt: row.next_check_at,
      credentialId: row.credential_id,
    };
  }

  /** Changes an entry's lifecycle fields; false when the entry is gone (replaced or deleted meanwhile). */
  async updateLifecycle(orgId: string, id: string, patch: LifecyclePatch): Promise<boolean> {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (patch.checkUrl !== undefined)
      set('check_url_enc', seal(await this.cacheKey(), patch.checkUrl, `${id}:check-url`));
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.lastCheckedAt !== undefined) set('last_checked_at', patch.lastCheckedAt);
    if (patch.healthCheckIntervalSec !== undefined) {
      const interval = patch.healthCheckIntervalSec;
      set('health_check_interval_sec', interval);
      if (patch.nextCheckAt === undefined)
        set('next_check_at', interval === null ? null : this.now() + interval * 1000);
    }
    if (patch.nextCheckAt !== undefined) set('next_check_at', patch.nextCheckAt);
    if (patch.credentialId !== undefined) set('credential_id', patch.credentialId);
    if (!sets.length) return true;
    const sql = `UPDATE login_sessions SET ${sets.join(', ')} WHERE id = ? AND org_id = ?`;
    return this.deps.db.prepare(sql).run(...values, id, orgId).changes > 0;
  }

  /** Entries created before `createdBefore` whose health check is due at `now`, the longest overdue first. */
  dueForCheck(now: number, limit: number, createdBefore = Infinity): { id: string; orgId: string }[] {
    const rows = this.deps.db
      .prepare(
        'SELECT id, org_id FROM login_sessions WHERE next_check_at IS NOT NULL AND next_check_at <= ? AND created_at < ? ORDER BY next_check_at LIMIT ?',
      )
      .all(now, Number.isFinite(createdBefore) ? createdBefore : Number.MAX_SAFE_INTEGER, limit) as {
      id: string;
      org_id: string;
    }[];
    return rows.map((r) => ({ id: r.id, orgId: r.org_id }));
  }

  /** When the next health check of any entry is due (Unix ms), or null when none is scheduled. */
  nextCheckAt(): number | null {
    const row = this.deps.db
      .prepare('SELECT MIN(next_check_at) AS at FROM login_sessions WHERE next_check_at IS NOT NULL')
      .get() as { at: number | null };
    return row.at;
  }

  /** Entries linked to a saved login (how many sessions it renews). */
  linkedTo(orgId: string, credentialId: string): number {
    return (
      this.deps.db
        .prepare('SELECT COUNT(*) AS n FROM login_sessions WHERE org_id = ? AND credential_id = ?')
        .get(orgId, credentialId) as { n: number }
    ).n;
  }

  /** Entries whose credentials were kept before saved logins existed (vault/adopt-stored-credentials.ts). */
  async legacyStoredCredentials(): Promise<{ entry: CacheEntry; username: string }[]> {
    const rows = this.deps.db
      .prepare('SELECT * FROM login_sessions WHERE credentials_stored = 1 AND credential_id IS NULL')
      .all() as Row[];
    if (!rows.length) return [];
    const key = await this.cacheKey();
    return rows.map((row) => {
      let username = '';
      try {
        username = open(key, row.username_enc, `${row.id}:user`).toString('utf8');
      } catch {
        // unreadable: the saved login gets an empty username, the stored credentials still hold it
      }
      return { entry: this.toEntry(key, row), username };
    });
  }

  /** The legacy flag is cleared once its credentials moved onto a saved login (or could not be read). */
  clearLegacyFlag(id: string): void {
    this.deps.db.prepare('UPDATE login_sessions SET credentials_stored = 0 WHERE id = ?').run(id);
  }
}
