import type { Migration } from './migration.js';

/**
 * Whether a mailbox may send its IMAP password without TLS (core/login/mailboxes): plain IMAP to a server
 * that offers no STARTTLS. Off for existing rows: a plain-IMAP mailbox on a host that is not loopback then
 * logs in only over STARTTLS, until it is added again with allowInsecureAuth.
 */
export const m0013: Migration = {
  version: 13,
  name: 'mailbox insecure auth',
  sql: `
ALTER TABLE mailboxes ADD COLUMN imap_allow_insecure_auth INTEGER NOT NULL DEFAULT 0
  CHECK (imap_allow_insecure_auth IN (0, 1));
`,
};
