import type { Migration } from './migration.js';

/**
 * The names (never the values) of the secrets this installation stored (secrets/secret-inventory.ts). A data dir
 * moved to a computer whose keychain lacks them, or restored without them, says which are missing instead of
 * starting as if it never had them, and a secret made on first use (the webhook signing secret, the session-cache
 * key, the URL-signing key) is not made again in place of one that is missing.
 */
export const m0022: Migration = {
  version: 22,
  name: 'secret inventory: the names of the secrets this installation stored',
  sql: `
CREATE TABLE secret_inventory (
  account TEXT PRIMARY KEY,
  recorded_at INTEGER NOT NULL
) WITHOUT ROWID;
`,
};
