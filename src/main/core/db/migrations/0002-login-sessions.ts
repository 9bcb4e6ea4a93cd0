import type { Migration } from './migration.js';

export const m0002: Migration = {
  version: 2,
  name: 'login session cache',
  sql: `
CREATE TABLE login_sessions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- HMAC-SHA-256 over (org, origin, username, method) with the cache key: the lookup key
  cache_key BLOB NOT NULL UNIQUE,
  -- AES-256-GCM ciphertext of the username (shown in listings, never stored in clear)
  username_enc BLOB NOT NULL,
  origin TEXT NOT NULL,
  login_method TEXT NOT NULL,
  -- AES-256-GCM ciphertext of the storageState; key in the keychain
  payload BLOB NOT NULL,
  cookie_names TEXT NOT NULL,
  cookie_count INTEGER NOT NULL,
  origin_count INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX login_sessions_org ON login_sessions(org_id);
`,
};
