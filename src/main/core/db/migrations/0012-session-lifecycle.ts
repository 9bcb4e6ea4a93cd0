import type { Migration } from './migration.js';

/**
 * Session lifecycle (core/login/lifecycle): where a cached session is checked, what the last check
 * found, the optional health-check schedule, and whether the organization keeps the credentials to
 * renew it. The credentials themselves are never here: they live in the secret store.
 */
export const m0012: Migration = {
  version: 12,
  name: 'login session lifecycle',
  sql: `
-- AES-256-GCM ciphertext (cache key) of the page a check opens: the login's final URL or the caller's
-- checkUrl. Encrypted because a URL can carry a token in its query. NULL for older entries.
ALTER TABLE login_sessions ADD COLUMN check_url_enc BLOB;
-- unchecked: made by a login, never checked; valid / invalid: what the last check found;
-- renewed: made by a re-login with stored credentials (POST /refresh or a health check).
ALTER TABLE login_sessions ADD COLUMN status TEXT NOT NULL DEFAULT 'unchecked'
  CHECK (status IN ('unchecked', 'valid', 'invalid', 'renewed'));
ALTER TABLE login_sessions ADD COLUMN last_checked_at INTEGER;
ALTER TABLE login_sessions ADD COLUMN health_check_interval_sec INTEGER
  CHECK (health_check_interval_sec IS NULL OR health_check_interval_sec >= 60);
-- When the background health check looks at the entry next; NULL: never.
ALTER TABLE login_sessions ADD COLUMN next_check_at INTEGER;
-- 1 while the secret store holds credentials for this entry's identity (a flag, never the secret).
ALTER TABLE login_sessions ADD COLUMN credentials_stored INTEGER NOT NULL DEFAULT 0
  CHECK (credentials_stored IN (0, 1));
CREATE INDEX login_sessions_next_check ON login_sessions(next_check_at) WHERE next_check_at IS NOT NULL;
`,
};
