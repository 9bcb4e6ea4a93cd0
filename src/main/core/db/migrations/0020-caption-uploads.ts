import type { Migration } from './migration.js';

/**
 * Captions uploads (docs/video-service.md#uploads): an SRT or WebVTT file is a stored upload of kind `captions`, for a template's
 * captions variable. SQLite cannot change a CHECK constraint in place, so `uploads` is rebuilt (the documented 12-step
 * way; no table references it) with every column and index it had after 0006.
 */
export const m0020: Migration = {
  version: 20,
  name: 'uploads: kind captions (SRT / WebVTT files)',
  foreignKeysOff: true,
  sql: `
CREATE TABLE uploads_new (
  -- the storage key (same name as the API field); unique across orgs, it embeds the org id
  s3_key TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'video', 'audio', 'captions')),
  content_type TEXT NOT NULL,
  max_bytes INTEGER NOT NULL,
  -- the caller's original file name, bookkeeping only
  file_name TEXT,
  -- presign: PUT to a presigned URL; url / data_uri / multipart: ingested by the server
  source TEXT NOT NULL DEFAULT 'presign' CHECK (source IN ('presign', 'url', 'data_uri', 'multipart')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'complete')),
  size INTEGER,
  created_at INTEGER NOT NULL,
  -- when the presigned URL stops working (ms); null for server-side ingests
  expires_at INTEGER,
  completed_at INTEGER,
  -- '<pid>:<nonce>' of the PUT receiving the bytes (0006)
  put_claim TEXT,
  put_claimed_at INTEGER,
  -- S3 only: the ETag of the object checked at first use (0006)
  verified_etag TEXT
);
INSERT INTO uploads_new (s3_key, org_id, kind, content_type, max_bytes, file_name, source, status, size, created_at,
  expires_at, completed_at, put_claim, put_claimed_at, verified_etag)
SELECT s3_key, org_id, kind, content_type, max_bytes, file_name, source, status, size, created_at,
  expires_at, completed_at, put_claim, put_claimed_at, verified_etag FROM uploads;
DROP TABLE uploads;
ALTER TABLE uploads_new RENAME TO uploads;
CREATE INDEX uploads_org ON uploads(org_id, created_at);
CREATE INDEX uploads_pending ON uploads(status, expires_at);
CREATE INDEX uploads_claimed ON uploads(put_claim) WHERE put_claim IS NOT NULL;
`,
};
