import type { Migration } from './migration.js';

/** A template's `provider` block (JSON): which engine makes its videos. NULL: the local renderer. */
export const m0010: Migration = {
  version: 10,
  name: 'templates: provider',
  sql: `ALTER TABLE templates ADD COLUMN provider TEXT;`,
};
