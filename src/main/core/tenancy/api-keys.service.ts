import crypto from 'node:crypto';
import { ALL_SCOPES, SCOPES } from '../../../shared/scopes.js';
import type { Db } from '../db/database.js';
import { KeptRows } from '../db/change-stamp.js';
import { AppError } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';

/** `pk_` + 40 base62 characters (~238 bits). */
const KEY_PATTERN = /^pk_[0-9A-Za-z]{40}$/;

export interface ApiKeyInfo {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface AuthContext {
  keyId: string;
  orgId: string;
  scopes: string[];
}

interface KeyRow extends Omit<ApiKeyInfo, 'scopes'> {
  scopes: string;
  hash: Buffer;
}

const hashKey = (key: string) => crypto.hash('sha256', key, 'buffer');

export function validateScopes(scopes: string[]): string[] {
  const unknown = scopes.filter((s) => s !== ALL_SCOPES && !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) {
    throw new AppError(
      400,
      'validation_error',
      `Unknown scope(s): ${unknown.join(', ')}. Known scopes: ${ALL_SCOPES}, ${SCOPES.join(', ')}.`,
    );
  }
  if (scopes.length === 0) throw new AppError(400, 'validation_error', 'A key needs at least one scope.');
  return [...new Set(scopes)];
}

export class ApiKeysService {
  private readonly byHash;
  private readonly touch;
  /** The key rows of recent requests (every request reads one): dropped on any write to the database. */
  private readonly keptRows: KeptRows<KeyRow>;

  constructor(private readonly deps: { db: Db }) {
    this.byHash = deps.db.prepare('SELECT * FROM api_keys WHERE hash = ?');
    this.keptRows = new KeptRows(deps.db);
    this.touch = deps.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  }

  /** Returns the plaintext once; only its hash is stored. */
  create(
    orgId: string,
    opts: { scopes?: string[]; name?: string; expiresAt?: number | null } = {},
  ): { key: string; info: ApiKeyInfo } {
    const scopes = validateScopes(opts.scopes ?? [ALL_SCOPES]);
    const key = `pk_${randomBase62(40)}`;
    const info: ApiKeyInfo = {
      id: newId('key', 12),
      org_id: orgId,
      name: (opts.name ?? '').slice(0, 100),
      prefix: key.slice(0, 7),
      scopes,
      created_at: Date.now(),
      last_used_at: null,
      expires_at: opts.expiresAt ?? null,
      revoked_at: null,
    };
    this.deps.db
      .prepare(
        'INSERT INTO api_keys (id, org_id, name, prefix, hash, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        info.id,
        orgId,
        info.name,
        info.prefix,
        hashKey(key),
        JSON.stringify(scopes),
        info.created_at,
        info.expires_at,
      );
    return { key, info };
  }

  list(orgId?: string): ApiKeyInfo[] {
    const rows = (
      orgId
        ? this.deps.db.prepare('SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at').all(orgId)
        : this.deps.db.prepare('SELECT * FROM api_keys ORDER BY created_at').all()
    ) as KeyRow[];
    return rows.map(toInfo);
  }

  revoke(id: string): boolean {
    const res = this.deps.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(Date.now(), id);
    return res.changes > 0;
  }

  /**
   * Resolves a presented key. Unknown, malformed, revoked and expired keys all give null, so the
   * caller answers them identically. The stored hash is compared in constant time.
   */
  authenticate(presented: string | undefined, now = Date.now()): AuthContext | null {
    // Hash even malformed input so every path does the same work.
    const digest = hashKey(presented ?? '');
    if (!presented || !KEY_PATTERN.test(presented)) return null;
    const row = this.keptRows.get(digest.toString('base64'), () => this.byHash.get(digest) as KeyRow | undefined);
    if (!row || !crypto.timingSafeEqual(row.hash, digest)) return null;
    if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
    // Coarse last-used stamp: at most one write a minute per key keeps the hot path read-only.
    if (row.last_used_at === null || now - row.last_used_at > 60_000) this.touch.run(now, row.id);
    return { keyId: row.id, orgId: row.org_id, scopes: parsedScopes(row.scopes) };
  }
}

/** Scope lists by their stored JSON: a key's request parses it once, not on every request (a handful of distinct lists). */
const scopeLists = new Map<string, readonly string[]>();
function parsedScopes(json: string): string[] {
  let scopes = scopeLists.get(json);
  if (!scopes) {
    if (scopeLists.size >= 256) scopeLists.clear();
    scopes = Object.freeze(JSON.parse(json) as string[]);
    scopeLists.set(json, scopes);
  }
  return scopes as string[];
}

function toInfo(row: KeyRow): ApiKeyInfo {
  const { hash: _hash, scopes, ...rest } = row;
  return { ...rest, scopes: JSON.parse(scopes) as string[] };
}
