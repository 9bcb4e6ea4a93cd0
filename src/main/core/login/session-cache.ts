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

interface Row {
  id: string;
  org_id: string;
  origin: string;
  login_method: string;
  username_enc: Buffer;
  payload: Buffer;
  cookie_names: string;
  cookie_count: number;
  origin_count: number;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

const AUTH_COOKIE = /(sess|sid|auth|token|jwt|login|logged|remember|user|account|identity|^_?id$|csrf)/i;

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
 * rest with a key kept in the secret store. Rows of one org are never visible to another.
 */
export class SessionCache {
  private key: Buffer | null = null;

  constructor(private readonly deps: { db: Db; secrets: SecretStore; maxAgeSec: number; now?: () => number }) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  private async cacheKey(): Promise<Buffer> {
    if (this.key) return this.key;
    let stored = await this.deps.secrets.get('session-cache-key');
    if (!stored) {
      stored = crypto.randomBytes(32).toString('base64');
      await this.deps.secrets.set('session-cache-key', stored);
    }
    this.key = Buffer.from(stored, 'base64');
    return this.key;
  }

  private lookupKey(key: Buffer, id: CacheIdentity): Buffer {
    return crypto
      .createHmac('sha256', key)
      .update(JSON.stringify([id.orgId, id.origin, id.username, id.method]))
      .digest();
  }

  /** The cached state while it is fresh, else null (and a stale row is left for `put` to replace). */
  async get(id: CacheIdentity): Promise<{ id: string; state: StorageState } | null> {
    const key = await this.cacheKey();
    const row = this.deps.db
      .prepare('SELECT * FROM login_sessions WHERE cache_key = ? AND org_id = ?')
      .get(this.lookupKey(key, id), id.orgId) as Row | undefined;
    if (!row || !this.isFresh(row)) return null;
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
  async put(id: CacheIdentity, state: StorageState): Promise<string> {
    const key = await this.cacheKey();
    const rowId = newId('ses', 16);
    const names = [...new Set(state.cookies.map((c) => c.name))].slice(0, 100);
    const lookup = this.lookupKey(key, id);
    const db = this.deps.db;
    db.transaction(() => {
      db.prepare('DELETE FROM login_sessions WHERE cache_key = ?').run(lookup);
      db.prepare(
        `INSERT INTO login_sessions (id, org_id, cache_key, username_enc, origin, login_method, payload, cookie_names, cookie_count, origin_count, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        rowId,
        id.orgId,
        lookup,
        seal(key, id.username, `${rowId}:user`),
        id.origin,
        id.method,
        seal(key, JSON.stringify(state), `${rowId}:${id.orgId}`),
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
        fresh: this.isFresh(r),
      };
    });
  }

  delete(orgId: string, id: string): boolean {
    return this.deps.db.prepare('DELETE FROM login_sessions WHERE id = ? AND org_id = ?').run(id, orgId).changes > 0;
  }
}
