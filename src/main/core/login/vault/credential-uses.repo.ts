import type { CredentialUse } from '../../../../shared/credentials.schema.js';
import type { Db } from '../../db/database.js';

/** How many uses of one saved login are kept (older ones are pruned as new ones come). */
export const USES_KEPT = 200;
/** Pruning runs every this many uses (a use is on the hot path of a cached login: one insert, usually). */
const PRUNE_EVERY = 50;

/** The only owner of the `saved_login_uses` table: the use log of each saved login. */
export class CredentialUsesRepo {
  private readonly insert;
  private readonly prune;
  private readonly newest;

  constructor(db: Db) {
    this.insert = db.prepare(
      'INSERT INTO saved_login_uses (credential_id, key_id, endpoint, outcome, origin, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.prune = db.prepare(
      `DELETE FROM saved_login_uses WHERE credential_id = ? AND seq <= (
         SELECT seq FROM saved_login_uses WHERE credential_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
    );
    this.newest = db.prepare(
      'SELECT at, key_id AS keyId, endpoint, outcome, origin FROM saved_login_uses WHERE credential_id = ? ORDER BY seq DESC LIMIT ?',
    );
  }

  record(credentialId: string, use: CredentialUse): void {
    const { lastInsertRowid } = this.insert.run(credentialId, use.keyId, use.endpoint, use.outcome, use.origin, use.at);
    if (Number(lastInsertRowid) % PRUNE_EVERY === 0) this.prune.run(credentialId, credentialId, USES_KEPT);
  }

  /** Newest first, at most USES_KEPT. */
  list(credentialId: string): CredentialUse[] {
    return this.newest.all(credentialId, USES_KEPT) as CredentialUse[];
  }
}
