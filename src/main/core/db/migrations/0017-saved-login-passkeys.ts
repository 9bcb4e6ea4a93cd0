import type { Migration } from './migration.js';

/**
 * Passkeys of saved logins (docs/own-browsers-and-passkeys.md#passkeys): their metadata (RP ID, credential id, when made) as JSON on the
 * saved login's row. The passkeys themselves, private keys included, are in the secret store with its other secrets.
 */
export const m0017: Migration = {
  version: 17,
  name: 'saved logins: passkey metadata',
  sql: `ALTER TABLE saved_logins ADD COLUMN passkeys TEXT NOT NULL DEFAULT '[]';`,
};
