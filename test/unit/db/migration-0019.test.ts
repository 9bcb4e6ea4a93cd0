import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { definitionOf, type TemplateRow } from '../../../src/main/core/video/templates/templates.repo.js';

describe('migration 0019 (aspect ratio of templates, output files of generations)', () => {
  it('gives existing templates 16:9 and generations an empty output_keys', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 18);
    db.prepare(
      "INSERT INTO templates (id, org_id, title, category, input_variables) VALUES ('t1', NULL, 'Old', 'text-to-video', '[]')",
    ).run();
    expect(migrate(db, MIGRATIONS, 19)).toBe(1);
    // Read as stored at version 19 (today's TemplatesRepo also needs the columns of later migrations).
    const row = db.prepare("SELECT * FROM templates WHERE id = 't1'").get() as TemplateRow;
    expect(row.aspect_ratio).toBe('16:9');
    expect(definitionOf(row).aspect_ratio).toBe('16:9');
    const columns = db.prepare('PRAGMA table_info(generations)').all() as { name: string; notnull: number }[];
    expect(columns.find((c) => c.name === 'output_keys')).toMatchObject({ notnull: 0 });
  });
});
