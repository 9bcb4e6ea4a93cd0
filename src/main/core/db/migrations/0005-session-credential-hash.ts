import type { Migration } from './migration.js';

export const m0005: Migration = {
  version: 5,
  name: 'login session cache: credential hash',
  // Entries written before this have NULL: never served (a miss), replaced at the next successful login.
  sql: `
-- HMAC-SHA-256 (key derived from the cache key, see session-cache.ts) over the entry's identity and the
-- request's secrets (password, other cred fields, additionalFields); a cached session is served only
-- to a request whose credentials hash the same. Never the password itself.
ALTER TABLE login_sessions ADD COLUMN credential_hash BLOB;
`,
};
