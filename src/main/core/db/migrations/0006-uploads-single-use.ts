import type { Migration } from './migration.js';

export const m0006: Migration = {
  version: 6,
  name: 'uploads: single-use presigned PUTs, ETag of checked S3 objects',
  sql: `
-- '<pid>:<nonce>' of the PUT receiving the bytes; set by one conditional UPDATE before the body is read,
-- cleared when the PUT fails (the client may retry) or completes; a dead process's claim is released at start
ALTER TABLE uploads ADD COLUMN put_claim TEXT;
ALTER TABLE uploads ADD COLUMN put_claimed_at INTEGER;
-- S3 only: the ETag of the object checked at first use (a presigned S3 PUT can be repeated until it expires)
ALTER TABLE uploads ADD COLUMN verified_etag TEXT;
CREATE INDEX uploads_claimed ON uploads(put_claim) WHERE put_claim IS NOT NULL;
`,
};
