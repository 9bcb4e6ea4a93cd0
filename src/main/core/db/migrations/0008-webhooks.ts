import type { Migration } from './migration.js';

/** Signed webhook callbacks of generations (core/video/webhooks): one row per delivery, one per attempt. */
export const m0008: Migration = {
  version: 8,
  name: 'webhooks: deliveries and their attempts',
  sql: `
-- id is the Standard Webhooks message id (webhook-id header): the same for every attempt of a
-- delivery; a replay is a new delivery with a new id. payload is the callback body without
-- video_url (a time-limited signed URL, made fresh at each attempt and never stored). The receiver
-- URL is not stored here: it stays sealed with its generation.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  generation_id TEXT NOT NULL REFERENCES generations(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  trigger TEXT NOT NULL CHECK (trigger IN ('automatic', 'replay')),
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_status_code INTEGER,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX webhook_deliveries_generation ON webhook_deliveries(generation_id, created_at);
-- A generation that finishes gets one automatic delivery, however often the pipeline reports it.
CREATE UNIQUE INDEX webhook_deliveries_automatic ON webhook_deliveries(generation_id) WHERE trigger = 'automatic';

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
);
`,
};
