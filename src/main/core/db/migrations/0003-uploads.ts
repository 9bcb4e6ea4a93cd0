import type { Migration } from './migration.js';

export const m0003: Migration = {
  version: 3,
  name: 'uploads: presigned uploads and ingested media',
  sql: `
CREATE TABLE uploads (
  -- the storage key (same name as the API field); unique across orgs, it embeds the org id
  s3_key TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('image', 'video', 'audio')),
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
  completed_at INTEGER
);
CREATE INDEX uploads_org ON uploads(org_id, created_at);
CREATE INDEX uploads_pending ON uploads(status, expires_at);
`,
};
