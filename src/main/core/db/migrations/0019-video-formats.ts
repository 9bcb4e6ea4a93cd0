import type { Migration } from './migration.js';

/**
 * Formats people post (docs/video-service.md#formats-people-post-aspect-ratios-output-files-captions): a template's frame shape, and the storage keys
 * of a generation's extra files (WebM, GIF preview, WebVTT captions) as JSON `{format: key}` next to video_key.
 */
export const m0019: Migration = {
  version: 19,
  name: 'video: aspect ratio of templates, output files of generations',
  sql: `
ALTER TABLE templates ADD COLUMN aspect_ratio TEXT NOT NULL DEFAULT '16:9';
ALTER TABLE generations ADD COLUMN output_keys TEXT;
`,
};
