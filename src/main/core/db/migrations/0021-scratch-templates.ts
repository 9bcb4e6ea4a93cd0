import type { Migration } from './migration.js';

/**
 * Scratch templates (docs/video-service.md#templates): a preview copy the editor makes of a template before it is saved. It is
 * kept out of the list and deleted by the service once unchanged for a day, so a quit or a crash with the editor
 * open leaves nothing behind for good. The partial index serves that sweep (scratch rows are few; the rest never
 * enter it).
 */
export const m0021: Migration = {
  version: 21,
  name: 'templates: scratch (preview copies, not listed, swept)',
  sql: `
ALTER TABLE templates ADD COLUMN scratch INTEGER NOT NULL DEFAULT 0 CHECK (scratch IN (0, 1));
CREATE INDEX templates_scratch ON templates(updated_at) WHERE scratch = 1;
`,
};
