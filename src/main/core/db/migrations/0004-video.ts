import type { Migration } from './migration.js';

export const m0004: Migration = {
  version: 4,
  name: 'video: templates, characters, generations, jobs, idempotency keys',
  sql: `
-- org_id NULL: a built-in template (seeded from resources/templates, read-only, visible to every org).
CREATE TABLE templates (
  id TEXT PRIMARY KEY,
  org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  description TEXT,
  category TEXT NOT NULL,
  duration_sec REAL,
  latency_typical_sec REAL,
  latency_busy_sec REAL,
  -- JSON array of input variables
  input_variables TEXT NOT NULL DEFAULT '[]',
  prompt_template TEXT,
  model TEXT NOT NULL DEFAULT 'studio-v1',
  resolution TEXT NOT NULL DEFAULT '720p',
  -- listing order of built-ins (org templates sort after them, oldest first)
  position INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER,
  updated_at INTEGER
);
CREATE INDEX templates_org ON templates(org_id, category);

-- org_id NULL: a public character (seeded from resources/characters).
CREATE TABLE characters (
  id TEXT PRIMARY KEY,
  org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- lower-cased name (JavaScript toLowerCase: Unicode-aware) for the case-insensitive search
  name_search TEXT NOT NULL,
  description TEXT,
  -- JSON array of storage keys
  reference_image_keys TEXT NOT NULL DEFAULT '[]',
  position INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER
);
CREATE INDEX characters_org ON characters(org_id);

CREATE TABLE generations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- generations created by one request share a batch id (and one ledger charge)
  batch_id TEXT NOT NULL,
  -- no foreign key: a generation outlives the template it was made from
  template_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('generating', 'completed', 'failed', 'canceled')),
  progress INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  -- JSON: resolved inputs per variable key (storage keys, character ids, text values)
  inputs TEXT NOT NULL,
  prompt TEXT,
  -- JSON: {model, resolution, duration_sec, category} snapshot for the renderer
  model_config TEXT NOT NULL,
  webhook_url TEXT,
  video_key TEXT,
  error TEXT,
  credits_charged INTEGER NOT NULL,
  credits_refunded INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  completed_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX generations_org_created ON generations(org_id, created_at DESC);
CREATE INDEX generations_org_status ON generations(org_id, status);

-- Persistent work queue: a 'render_generation' row per generation, picked up by the renderer.
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'canceled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  payload TEXT,
  run_after INTEGER NOT NULL,
  locked_until INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX jobs_ready ON jobs(status, run_after);
CREATE INDEX jobs_ref ON jobs(ref_id);

-- Idempotency-Key of generate: the first successful answer, replayed for the same key + body.
CREATE TABLE idempotency_keys (
  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
  response_status INTEGER,
  response_body TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
`,
};
