import type { Migration } from './migration.js';

/**
 * Login webhooks (core/login/webhooks): an organization's login webhook URL, and the signed deliveries of its
 * login.needs_person and login.finished events with their attempts. Tables of their own, apart from the generation
 * callbacks of 0008: those belong to a generation (and go with it), these to the organization.
 */
export const m0015: Migration = {
  version: 15,
  name: 'login webhooks: the URL per organization, deliveries and their attempts',
  sql: `
-- url is AES-256-GCM sealed (it may carry a token in its query), bound to the organization.
CREATE TABLE login_webhooks (
  org_id TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- id is the Standard Webhooks message id (webhook-id header), the same for every attempt. payload is the body,
-- sealed: a needs_person body holds the takeover link (its token opens the live page). The receiver URL is read
-- from login_webhooks at each attempt.
CREATE TABLE login_webhook_deliveries (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  login_id TEXT NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('login.needs_person', 'login.finished')),
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
CREATE INDEX login_webhook_deliveries_org ON login_webhook_deliveries(org_id, created_at);

CREATE TABLE login_webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES login_webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
);
`,
};
