import type { Db } from '../db/database.js';
import type { MediaKind } from './media-types.js';

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
}

/** The `uploads` table (migration 0003): every stored media object an org may reference by key. */
export class UploadsRepo {
  constructor(private readonly db: Db) {}

  insert(row: Omit<UploadRow, 'completed_at'> & { completed_at?: number | null }): void {
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

  markComplete(key: string, size: number, contentType?: string): void {
    this.db
      .prepare(
        "UPDATE uploads SET status = 'complete', size = ?, completed_at = ?, content_type = COALESCE(?, content_type) WHERE s3_key = ?",
      )
      .run(size, Date.now(), contentType ?? null, key);
  }

  listForOrg(orgId: string, limit = 50, offset = 0): UploadRow[] {
    return this.db
      .prepare('SELECT * FROM uploads WHERE org_id = ? ORDER BY created_at DESC LIMIT ? OFFSET ?')
      .all(orgId, limit, offset) as UploadRow[];
  }

  /** Pending rows whose URL expired before `beforeMs` (never uploaded). */
  expiredPending(beforeMs: number, limit = 500): UploadRow[] {
    return this.db
      .prepare("SELECT * FROM uploads WHERE status = 'pending' AND expires_at < ? LIMIT ?")
      .all(beforeMs, limit) as UploadRow[];
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM uploads WHERE s3_key = ?').run(key);
  }
}
