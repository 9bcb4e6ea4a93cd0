import type { Migration } from './migration.js';

/** The job queue (core/jobs): a lane per job for concurrency limits, who runs it, and when it ran. */
export const m0007: Migration = {
  version: 7,
  name: 'jobs: lane, runner and timing',
  sql: `
ALTER TABLE jobs ADD COLUMN lane TEXT NOT NULL DEFAULT 'render' CHECK (lane IN ('render', 'io'));
ALTER TABLE jobs ADD COLUMN locked_by TEXT;
ALTER TABLE jobs ADD COLUMN started_at INTEGER;
ALTER TABLE jobs ADD COLUMN finished_at INTEGER;
CREATE INDEX jobs_lane_queue ON jobs(lane, status, run_after, created_at);
`,
};
