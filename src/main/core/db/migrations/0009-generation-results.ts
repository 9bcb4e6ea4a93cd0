import type { Migration } from './migration.js';

/** Generation results: a thumbnail next to the video, and when retention removed their files. */
export const m0009: Migration = {
  version: 9,
  name: 'generations: thumbnail and retention',
  sql: `
ALTER TABLE generations ADD COLUMN thumbnail_key TEXT;
ALTER TABLE generations ADD COLUMN files_expired_at INTEGER;
CREATE INDEX generations_finished ON generations(finished_at) WHERE finished_at IS NOT NULL AND files_expired_at IS NULL;
`,
};
