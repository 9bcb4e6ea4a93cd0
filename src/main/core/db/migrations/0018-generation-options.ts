import type { Migration } from './migration.js';

/**
 * Generation options (docs/video-service.md#quotes-drafts-deadlines-event-filters-and-batches): the `aborted` status (a
 * deadline passed before the render started), drafts, deadlines, when the render started, a batch row's index and
 * the webhook events a generation's receiver wants; webhook deliveries name their event, and a generation gets one
 * automatic delivery per event (any number of `progress` ones).
 *
 * SQLite cannot change a CHECK constraint in place, so `generations` is rebuilt (the documented 12-step way, with
 * foreign keys off: webhook_deliveries keep pointing at the same ids). Run in order, before 0019 adds its column.
 */
export const m0018: Migration = {
  version: 18,
  name: 'generations: aborted status, draft, deadline, started_at, batch_index, webhook_events; delivery events',
  foreignKeysOff: true,
  sql: `
CREATE TABLE generations_new (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  batch_id TEXT NOT NULL,
  template_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('generating', 'completed', 'failed', 'canceled', 'aborted')),
  progress INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  inputs TEXT NOT NULL,
  prompt TEXT,
  model_config TEXT NOT NULL,
  webhook_url TEXT,
  video_key TEXT,
  error TEXT,
  credits_charged INTEGER NOT NULL,
  credits_refunded INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  completed_at INTEGER,
  finished_at INTEGER,
  thumbnail_key TEXT,
  files_expired_at INTEGER,
  -- a free low-resolution preview by the local renderer
  draft INTEGER NOT NULL DEFAULT 0,
  -- deadline_sec after creation: not started by then -> aborted (refunded), started -> failed (time-out)
  deadline_at INTEGER,
  -- when the render job picked it up
  started_at INTEGER,
  -- the row of a batch request it was made from (batch_id is then the batch's id)
  batch_index INTEGER,
  -- JSON array of webhook event names; NULL: the default (completed, failed)
  webhook_events TEXT
);
INSERT INTO generations_new (id, org_id, batch_id, template_id, status, progress, inputs, prompt, model_config,
  webhook_url, video_key, error, credits_charged, credits_refunded, created_at, updated_at, completed_at, finished_at,
  thumbnail_key, files_expired_at)
SELECT id, org_id, batch_id, template_id, status, progress, inputs, prompt, model_config,
  webhook_url, video_key, error, credits_charged, credits_refunded, created_at, updated_at, completed_at, finished_at,
  thumbnail_key, files_expired_at FROM generations;
DROP TABLE generations;
ALTER TABLE generations_new RENAME TO generations;
CREATE INDEX generations_org_created ON generations(org_id, created_at DESC);
CREATE INDEX generations_org_status ON generations(org_id, status);
CREATE INDEX generations_finished ON generations(finished_at) WHERE finished_at IS NOT NULL AND files_expired_at IS NULL;
CREATE INDEX generations_batch ON generations(org_id, batch_id);

ALTER TABLE webhook_deliveries ADD COLUMN event TEXT NOT NULL DEFAULT 'completed';
UPDATE webhook_deliveries SET event = COALESCE(json_extract(payload, '$.status'), 'completed');
DROP INDEX webhook_deliveries_automatic;
-- One automatic delivery per generation and event (started, completed, ...); progress ones are rate-limited instead.
CREATE UNIQUE INDEX webhook_deliveries_automatic_event ON webhook_deliveries(generation_id, event)
  WHERE trigger = 'automatic' AND event != 'progress';
`,
};
