import type { Migration } from './migration.js';

/**
 * One table of webhook deliveries (and one of their attempts) for every kind of event (core/webhooks): the generation
 * callbacks of 0008 (+ 0018's event) and the login events of 0015 were two copies of one mechanism. Every row moves
 * over as it is (id, status, attempts, times, payload); a login's sealed payload stays bound to its delivery id, which
 * is kept. The old tables go. login_webhooks (the login URL setting) stays: it is not a delivery.
 */
export const m0023: Migration = {
  version: 23,
  name: 'webhook deliveries: one table for generation and login events',
  // A table rebuild: the new attempts point at the new deliveries only once the old tables are gone and renamed.
  foreignKeysOff: true,
  sql: `
-- id is the Standard Webhooks message id (webhook-id header). kind says whose event it is ('generation', 'login';
-- no CHECK, so a new kind needs no rebuild) and subject_id what it is about (the generation, the login). once_key is
-- set on a delivery made at most once (a generation's automatic one of each event but progress: "<generation>:<event>").
-- payload is what the kind builds its body from (a generation's without video_url; a login's sealed). The receiver
-- URL is never here: each kind reads its own at each attempt.
CREATE TABLE webhook_deliveries_new (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  subject_id TEXT NOT NULL,
  event TEXT NOT NULL,
  trigger TEXT NOT NULL CHECK (trigger IN ('automatic', 'replay')),
  once_key TEXT,
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

CREATE TABLE webhook_attempts_new (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries_new(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
);

-- In rowid order, kind by kind: a log ordered by (created_at, rowid) keeps its order.
INSERT INTO webhook_deliveries_new (id, kind, org_id, subject_id, event, trigger, once_key, payload, status, attempts,
  next_attempt_at, last_status_code, error, created_at, updated_at, finished_at)
SELECT id, 'generation', org_id, generation_id, event, trigger,
  CASE WHEN trigger = 'automatic' AND event != 'progress' THEN generation_id || ':' || event END,
  payload, status, attempts, next_attempt_at, last_status_code, error, created_at, updated_at, finished_at
FROM webhook_deliveries ORDER BY rowid;

INSERT INTO webhook_deliveries_new (id, kind, org_id, subject_id, event, trigger, once_key, payload, status, attempts,
  next_attempt_at, last_status_code, error, created_at, updated_at, finished_at)
SELECT id, 'login', org_id, login_id, event, 'automatic', NULL,
  payload, status, attempts, next_attempt_at, last_status_code, error, created_at, updated_at, finished_at
FROM login_webhook_deliveries ORDER BY rowid;

INSERT INTO webhook_attempts_new (delivery_id, attempt, started_at, duration_ms, status_code, error)
SELECT delivery_id, attempt, started_at, duration_ms, status_code, error FROM webhook_attempts;
INSERT INTO webhook_attempts_new (delivery_id, attempt, started_at, duration_ms, status_code, error)
SELECT delivery_id, attempt, started_at, duration_ms, status_code, error FROM login_webhook_attempts;

DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE login_webhook_attempts;
DROP TABLE login_webhook_deliveries;
-- Renaming also renames the attempts' reference to the deliveries.
ALTER TABLE webhook_deliveries_new RENAME TO webhook_deliveries;
ALTER TABLE webhook_attempts_new RENAME TO webhook_attempts;

CREATE INDEX webhook_deliveries_subject ON webhook_deliveries(kind, subject_id, created_at);
CREATE INDEX webhook_deliveries_org ON webhook_deliveries(org_id, kind, created_at);
CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries(once_key) WHERE once_key IS NOT NULL;

-- A generation's deliveries still go with it, as 0008's foreign key made them (a subject_id may name a login, which
-- has no table, so it cannot be a foreign key). A migration that rebuilds generations drops this and must make it again.
CREATE TRIGGER webhook_deliveries_of_generation AFTER DELETE ON generations
BEGIN
  DELETE FROM webhook_deliveries WHERE kind = 'generation' AND subject_id = OLD.id;
END;
`,
};
