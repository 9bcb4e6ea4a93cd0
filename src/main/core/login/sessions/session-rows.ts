// The rows of table login_sessions as the session cache reads them (session-cache.ts owns the table), and the entry
// and the lifecycle patch the cache makes of one and takes for one.
import type { SessionStatus, StorageExtra, StorageState } from '../../../../shared/login.schema.js';
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';

export interface Row {
  id: string;
  org_id: string;
  cache_key: Buffer;
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
  // Session lifecycle (migration 0012, see lifecycle/).
  check_url_enc: Buffer | null;
  status: SessionStatus;
  last_checked_at: number | null;
  health_check_interval_sec: number | null;
  next_check_at: number | null;
  /** 1 on entries whose credentials `storeCredentials` kept before saved logins existed, until moved onto one. */
  credentials_stored: 0 | 1;
  /** The saved login that renews this session (migration 0014), or null. */
  credential_id: string | null;
}

/** The columns a cache hit reads. */
export type HitRow = Pick<
  Row,
  | 'id'
  | 'org_id'
  | 'payload'
  | 'credential_hash'
  | 'created_at'
  | 'expires_at'
  | 'last_used_at'
  | 'status'
  | 'credential_id'
>;

/** A cache entry with everything the lifecycle needs (lifecycle/session-lifecycle.ts). */
export interface CacheEntry {
  id: string;
  orgId: string;
  origin: string;
  method: string;
  /** Stable for an identity (hex of its lookup key): names its stored credentials, survives replacement. */
  identityKey: string;
  /** null when the payload cannot be opened (cache key rotated or data tampered). */
  state: StorageState | null;
  checkUrl: string | null;
  status: SessionStatus;
  lastCheckedAt: number | null;
  healthCheckIntervalSec: number | null;
  nextCheckAt: number | null;
  /** The saved login a re-login uses (refresh, health checks), or null: the entry cannot be renewed. */
  credentialId: string | null;
  /** The storage the entry was captured with (a re-login captures the same). */
  include: StorageExtra[];
  /** The browser mode the login ran in (a check of the session opens it in the same); undefined: the default. */
  mode?: BrowserMode;
}

/** Lifecycle fields a caller may change on an entry (undefined: left as is). */
export interface LifecyclePatch {
  checkUrl?: string;
  status?: SessionStatus;
  lastCheckedAt?: number;
  /** Setting it (re)schedules the next check an interval from now; null turns checks off. */
  healthCheckIntervalSec?: number | null;
  nextCheckAt?: number | null;
  /** Links the entry to the saved login that renews it; null unlinks. */
  credentialId?: string | null;
}
