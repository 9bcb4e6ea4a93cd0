import type { Migration } from './migration.js';

/**
 * Saved logins (core/login/vault): a site's login kept once, used by agents by id or label. Only metadata
 * is here; the secrets (password, TOTP secret, additional field values, notes) live in the secret store.
 * A cached session links to the saved login it can be renewed with (credential_id); the credentials that
 * `storeCredentials` kept before this migration are moved onto saved logins when the core starts
 * (vault/adopt-stored-credentials.ts), which then clears credentials_stored.
 */
export const m0014: Migration = {
  version: 14,
  name: 'saved logins',
  sql: `
CREATE TABLE saved_logins (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  label TEXT NOT NULL COLLATE NOCASE,
  login_url TEXT NOT NULL,
  origins TEXT NOT NULL,
  login_method TEXT NOT NULL,
  username TEXT NOT NULL,
  -- which secrets the secret store holds for it (a JSON list of names, never a value)
  secrets TEXT NOT NULL,
  additional_field_names TEXT NOT NULL,
  mailbox_id TEXT,
  phone TEXT,
  -- "all", or a JSON list of API key ids
  share_with TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('api', 'import', 'stored_credentials')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_used_at INTEGER,
  UNIQUE (org_id, label)
);
CREATE TABLE saved_login_uses (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  credential_id TEXT NOT NULL REFERENCES saved_logins(id) ON DELETE CASCADE,
  key_id TEXT,
  endpoint TEXT NOT NULL,
  outcome TEXT NOT NULL,
  origin TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX saved_login_uses_by_login ON saved_login_uses(credential_id, seq);
ALTER TABLE login_sessions ADD COLUMN credential_id TEXT REFERENCES saved_logins(id) ON DELETE SET NULL;
`,
};
