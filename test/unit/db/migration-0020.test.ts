import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { UploadsRepo } from '../../../src/main/core/video/uploads/uploads.repo.js';

describe('migration 0020 (uploads: kind captions)', () => {
  const insert = (db: Database.Database, key: string, kind: string, type: string) =>
    db
      .prepare(
        `INSERT INTO uploads (s3_key, org_id, kind, content_type, max_bytes, status, size, created_at, source, put_claim,
           verified_etag) VALUES (?, 'o1', ?, ?, 100, 'complete', 42, 1, 'presign', NULL, '"etag"')`,
      )
      .run(key, kind, type);

  it('keeps every upload and column, and then takes captions files', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 19);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    insert(db, 'uploads/o1/a/old.png', 'image', 'image/png');
    expect(() => insert(db, 'uploads/o1/b/subs.vtt', 'captions', 'text/vtt')).toThrow(/CHECK/);
    const before = db.prepare('SELECT * FROM uploads').all();

    expect(migrate(db, MIGRATIONS, 20)).toBe(1);
    expect(db.prepare('SELECT * FROM uploads').all()).toEqual(before);
    insert(db, 'uploads/o1/b/subs.vtt', 'captions', 'text/vtt');
    expect(() => insert(db, 'uploads/o1/c/x.bin', 'document', 'application/pdf')).toThrow(/CHECK/);
    const repo = new UploadsRepo(db);
    expect(repo.getForOrg('o1', 'uploads/o1/b/subs.vtt')).toMatchObject({ kind: 'captions', verified_etag: '"etag"' });
    expect(repo.listComplete('o1', { kind: 'captions', limit: 10, offset: 0 }).map((r) => r.s3_key)).toEqual([
      'uploads/o1/b/subs.vtt',
    ]);
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(indexes).toEqual(expect.arrayContaining(['uploads_org', 'uploads_pending', 'uploads_claimed']));
    // The organization's deletion still takes its uploads along (the foreign key survived the rebuild).
    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM uploads').get()).toEqual({ n: 0 });
  });
});
