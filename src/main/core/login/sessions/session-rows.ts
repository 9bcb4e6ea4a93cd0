// The rows of table login_sessions as the session cache reads them (session-cache.ts owns the table).
import type { SessionStatus } from '../../../../shared/login.schema.js';

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
