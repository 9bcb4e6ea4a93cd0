import type { CredentialUse } from '../../../../shared/credentials.schema.js';
import type { Db } from '../../db/database.js';

/** How many uses of one saved login are kept (older ones are pruned as new ones come). */
export const USES_KEPT = 200;

/** The only owner of the `saved_login_uses` table: the use log of each saved login. */
export class CredentialUsesRepo {
  constructor(private readonly db: Db) {}

  record(credentialId: string, use: CredentialUse): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO saved_login_uses (credential_id, key_id, endpoint, outcome, origin, at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(credentialId, use.keyId, use.endpoint, use.outcome, use.origin, use.at);
      this.db
        .prepare(
          `DELETE FROM saved_login_uses WHERE credential_id = ? AND seq <= (
             SELECT seq FROM saved_login_uses WHERE credential_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
        )
        .run(credentialId, credentialId, USES_KEPT);
    })();
  }

  /** Newest first. */
  list(credentialId: string): CredentialUse[] {
    return this.db
      .prepare(
        'SELECT at, key_id AS keyId, endpoint, outcome, origin FROM saved_login_uses WHERE credential_id = ? ORDER BY seq DESC LIMIT ?',
      )
      .all(credentialId, USES_KEPT) as CredentialUse[];
  }
}
