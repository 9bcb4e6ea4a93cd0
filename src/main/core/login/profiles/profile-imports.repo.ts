import type { Db } from '../../db/database.js';

/** How an import was started. */
export type ImportVia = 'api' | 'cli' | 'mcp' | 'desktop';

export interface ProfileImportUse {
  keyId: string | null;
  via: ImportVia;
  profileId: string;
  browser: string;
  origin: string;
  /** valid / invalid / unchecked (the check could not reach the site), or the error code that refused the import. */
  outcome: string;
  sessionId: string | null;
  at: number;
}

/** The only owner of the `browser_profile_imports` table: the use log of imports from the person's browsers. */
export class ProfileImportsRepo {
  constructor(private readonly db: Db) {}

  record(orgId: string, use: ProfileImportUse): void {
    this.db
      .prepare(
        `INSERT INTO browser_profile_imports (org_id, key_id, via, profile_id, browser, origin, outcome, session_id, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(orgId, use.keyId, use.via, use.profileId, use.browser, use.origin, use.outcome, use.sessionId, use.at);
  }

  /** Newest first. */
  list(orgId: string, limit = 200): ProfileImportUse[] {
    return this.db
      .prepare(
        `SELECT key_id AS keyId, via, profile_id AS profileId, browser, origin, outcome, session_id AS sessionId, at
         FROM browser_profile_imports WHERE org_id = ? ORDER BY seq DESC LIMIT ?`,
      )
      .all(orgId, limit) as ProfileImportUse[];
  }
}
