import type { Migration } from './migration.js';

/**
 * The use log of imports from the person's own browser profiles (core/login/profiles): who imported which site's
 * session from which profile, how, and what the session check found. No cookie, no value, no path of the person's
 * files: the profile by its id and browser only.
 */
export const m0016: Migration = {
  version: 16,
  name: 'browser profile imports: the use log',
  sql: `
CREATE TABLE browser_profile_imports (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  key_id TEXT,
  via TEXT NOT NULL CHECK (via IN ('api', 'cli', 'mcp', 'desktop')),
  profile_id TEXT NOT NULL,
  browser TEXT NOT NULL,
  origin TEXT NOT NULL,
  outcome TEXT NOT NULL,
  session_id TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX browser_profile_imports_org ON browser_profile_imports(org_id, seq);
`,
};
