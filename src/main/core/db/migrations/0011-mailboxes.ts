import type { Migration } from './migration.js';

/** IMAP mailboxes the otp_email and magic_link logins read codes and links from (core/login/mailboxes). */
export const m0011: Migration = {
  version: 11,
  name: 'mailboxes',
  sql: `
-- The password is not here: it lives in the secret store under mailboxes.password:<id>.
-- addresses is a JSON array of lower-cased patterns (ada@example.com or *@example.com).
CREATE TABLE mailboxes (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  addresses TEXT NOT NULL,
  imap_host TEXT NOT NULL,
  imap_port INTEGER NOT NULL CHECK (imap_port BETWEEN 1 AND 65535),
  imap_secure INTEGER NOT NULL CHECK (imap_secure IN (0, 1)),
  imap_username TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX mailboxes_org ON mailboxes(org_id, created_at);
`,
};
