import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

const columns = (db: Database.Database, table: string) =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

describe('migration 0009 (generations: thumbnail and retention)', () => {
  it('adds thumbnail_key and files_expired_at; existing generations keep their video', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 8);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    db.prepare(
      `INSERT INTO generations (id, org_id, batch_id, template_id, status, inputs, model_config, video_key,
       credits_charged, created_at, updated_at, finished_at) VALUES ('g1', 'o1', 'b', 't', 'completed', '{}', '{}',
       'generations/g1.mp4', 8, 1, 1, 1)`,
    ).run();
    migrate(db, MIGRATIONS, 9);
    expect(columns(db, 'generations')).toEqual(expect.arrayContaining(['thumbnail_key', 'files_expired_at']));
    expect(
      db.prepare("SELECT video_key, thumbnail_key, files_expired_at FROM generations WHERE id = 'g1'").get(),
    ).toEqual({
      video_key: 'generations/g1.mp4',
      thumbnail_key: null,
      files_expired_at: null,
    });
  });
});

describe('migration 0010 (templates: provider)', () => {
  it('adds a nullable provider column; existing templates use the local renderer (null)', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 9);
    db.prepare("INSERT INTO templates (id, title, category) VALUES ('t1', 'T', 'text-to-video')").run();
    migrate(db, MIGRATIONS, 10);
    expect(columns(db, 'templates')).toContain('provider');
    expect(db.prepare("SELECT provider FROM templates WHERE id = 't1'").get()).toEqual({ provider: null });
  });
});
