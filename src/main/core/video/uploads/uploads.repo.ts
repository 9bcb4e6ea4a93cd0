import type { Db } from '../../db/database.js';
import type { MediaKind } from '../../../../shared/media-types.js';

export type UploadSource = 'presign' | 'url' | 'data_uri' | 'multipart';

export interface UploadRow {
  s3_key: string;
  org_id: string;
  kind: MediaKind;
  content_type: string;
  max_bytes: number;
  file_name: string | null;
  source: UploadSource;
  status: 'pending' | 'complete';
  size: number | null;
  created_at: number;
  expires_at: number | null;
  completed_at: number | null;
  /** `<pid>:<nonce>` of the PUT that is receiving the bytes (migration 0006); null when none is. */
  put_claim: string | null;
  put_claimed_at: number | null;
  /** S3: the ETag of the bytes checked at first use; another ETag means the object was replaced. */
  verified_etag: string | null;
}

/** Why a presigned PUT may not start. */
export type PutClaimResult = 'claimed' | 'in_progress' | 'complete' | 'missing';

/** The `uploads` table (migrations 0003, 0006): every stored media object an org may reference by key. */
export class UploadsRepo {
  constructor(private readonly db: Db) {}

  insert(
    row: Omit<UploadRow, 'completed_at' | 'put_claim' | 'put_claimed_at' | 'verified_etag'> & {
      completed_at?: number | null;
    },
  ): void {
    this.db
      .prepare(
        `INSERT INTO uploads (s3_key, org_id, kind, content_type, max_bytes, file_name, source, status, size, created_at, expires_at, completed_at)
         VALUES (@s3_key, @org_id, @kind, @content_type, @max_bytes, @file_name, @source, @status, @size, @created_at, @expires_at, @completed_at)`,
      )
      .run({ completed_at: null, ...row });
  }

  get(key: string): UploadRow | undefined {
    return this.db.prepare('SELECT * FROM uploads WHERE s3_key = ?').get(key) as UploadRow | undefined;
  }

  /** The row only if it belongs to the org (other orgs' keys look exactly like missing ones). */
  getForOrg(orgId: string, key: string): UploadRow | undefined {
    return this.db.prepare('SELECT * FROM uploads WHERE s3_key = ? AND org_id = ?').get(key, orgId) as
      UploadRow | undefined;
  }

  markComplete(key: string, size: number, contentType?: string, verifiedEtag?: string): void {
    this.db
      .prepare(
        `UPDATE uploads SET status = 'complete', size = ?, completed_at = ?, content_type = COALESCE(?, content_type),
           verified_etag = COALESCE(?, verified_etag), put_claim = NULL WHERE s3_key = ?`,
      )
      .run(size, Date.now(), contentType ?? null, verifiedEtag ?? null, key);
  }

  /**
   * Takes the one PUT a presigned upload allows, before any body byte is read. A single conditional
   * UPDATE, so of any number of concurrent PUTs (in any process on this database) exactly one wins.
   */
  claimPut(key: string, claim: string): PutClaimResult {
    const taken = this.db
      .prepare(
        "UPDATE uploads SET put_claim = ?, put_claimed_at = ? WHERE s3_key = ? AND status = 'pending' AND put_claim IS NULL",
      )
      .run(claim, Date.now(), key);
    if (taken.changes === 1) return 'claimed';
    const row = this.get(key);
    if (!row) return 'missing';
    return row.status === 'complete' ? 'complete' : 'in_progress';
  }

  /** Gives a failed PUT's claim back (only that PUT's own claim) so the client may try again. */
  releasePut(key: string, claim: string): void {
    this.db
      .prepare('UPDATE uploads SET put_claim = NULL, put_claimed_at = NULL WHERE s3_key = ? AND put_claim = ?')
      .run(key, claim);
  }

  /** The claimed upload becomes complete with its real size and type; false if the claim was lost meanwhile. */
  completePut(key: string, claim: string, size: number, contentType: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE uploads SET status = 'complete', size = ?, content_type = ?, completed_at = ?, put_claim = NULL
           WHERE s3_key = ? AND put_claim = ? AND status = 'pending'`,
        )
        .run(size, contentType, Date.now(), key, claim).changes === 1
    );
  }

  /** Pending uploads some PUT has claimed (a killed process leaves its claims behind). */
  claimedPending(limit = 1000): Pick<UploadRow, 's3_key' | 'put_claim' | 'put_claimed_at'>[] {
    return this.db
      .prepare(
        "SELECT s3_key, put_claim, put_claimed_at FROM uploads WHERE status = 'pending' AND put_claim IS NOT NULL LIMIT ?",
      )
      .all(limit) as Pick<UploadRow, 's3_key' | 'put_claim' | 'put_claimed_at'>[];
  }

  /** The org's stored files (complete only), newest first; `kind` narrows to images, videos or audio. */
  listComplete(orgId: string, opts: { kind?: MediaKind; limit: number; offset: number }): UploadRow[] {
    return this.db
      .prepare(
        `SELECT * FROM uploads WHERE org_id = @orgId AND status = 'complete' AND (@kind IS NULL OR kind = @kind)
         ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ orgId, kind: opts.kind ?? null, limit: opts.limit, offset: opts.offset }) as UploadRow[];
  }

  listForOrg(orgId: string, limit = 50, offset = 0): UploadRow[] {
    return this.db
      .prepare('SELECT * FROM uploads WHERE org_id = ? ORDER BY created_at DESC LIMIT ? OFFSET ?')
      .all(orgId, limit, offset) as UploadRow[];
  }

  /** Pending rows whose URL expired before `beforeMs` (never uploaded), except those a PUT is still receiving. */
  expiredPending(beforeMs: number, limit = 500): UploadRow[] {
    return this.db
      .prepare("SELECT * FROM uploads WHERE status = 'pending' AND put_claim IS NULL AND expires_at < ? LIMIT ?")
      .all(beforeMs, limit) as UploadRow[];
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM uploads WHERE s3_key = ?').run(key);
  }
}
