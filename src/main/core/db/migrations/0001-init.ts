import type { Migration } from './migration.js';

export const m0001: Migration = {
  version: 1,
  name: 'init: orgs, api keys, credit ledger, settings',
  sql: `
CREATE TABLE orgs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  -- first characters of the key, shown in listings so a user can tell keys apart
  prefix TEXT NOT NULL,
  -- SHA-256 of the whole key; the plaintext is never stored here
  hash BLOB NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  expires_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_keys_org ON api_keys(org_id);

-- Append-only: the balance is the sum of amounts. Charges are negative, grants and refunds positive.
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'charge', 'refund')),
  ref TEXT,
  note TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX credit_ledger_org ON credit_ledger(org_id);
CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END;
CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END;

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
};
