import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0003 (uploads)', () => {
  const setup = () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 3);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    return db;
  };
  const insert = (db: Database.Database, over: Record<string, unknown> = {}) =>
    db
      .prepare(
        `INSERT INTO uploads (s3_key, org_id, kind, content_type, max_bytes, status, created_at, expires_at, source)
         VALUES (@s3_key, @org_id, @kind, @content_type, @max_bytes, @status, @created_at, @expires_at, @source)`,
      )
      .run({
        s3_key: 'uploads/o1/r/file.png',
        org_id: 'o1',
        kind: 'image',
        content_type: 'image/png',
        max_bytes: 10,
        status: 'pending',
        created_at: 1,
        expires_at: 2,
        source: 'presign',
        ...over,
      });

  it('creates the uploads table with its columns and indexes', () => {
    const db = setup();
    const cols = (db.prepare('PRAGMA table_info(uploads)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).toEqual(
      expect.arrayContaining([
        's3_key',
        'org_id',
        'kind',
        'content_type',
        'max_bytes',
        'file_name',
        'source',
        'status',
        'size',
        'created_at',
        'expires_at',
        'completed_at',
      ]),
    );
    const indexes = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'uploads'").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(indexes).toEqual(expect.arrayContaining(['uploads_org', 'uploads_pending']));
  });

  it('keys are unique; kind, status and source are checked; rows go with their org', () => {
    const db = setup();
    insert(db);
    expect(() => insert(db)).toThrow(/UNIQUE/);
    expect(() => insert(db, { s3_key: 'k2', kind: 'document' })).toThrow(/CHECK/);
    expect(() => insert(db, { s3_key: 'k3', status: 'done' })).toThrow(/CHECK/);
    expect(() => insert(db, { s3_key: 'k4', source: 'ftp' })).toThrow(/CHECK/);
    expect(() => insert(db, { s3_key: 'k5', org_id: 'nope' })).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    expect((db.prepare('SELECT COUNT(*) AS n FROM uploads').get() as { n: number }).n).toBe(0);
  });
});
