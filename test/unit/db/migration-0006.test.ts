import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { UploadsRepo } from '../../../src/main/core/video/uploads/uploads.repo.js';

describe('migration 0006 (uploads: single-use PUT claims, verified ETag)', () => {
  const setup = (upTo: number) => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, upTo);
    db.prepare("INSERT OR IGNORE INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    return db;
  };
  const insert = (db: Database.Database, key: string) =>
    db
      .prepare(
        `INSERT INTO uploads (s3_key, org_id, kind, content_type, max_bytes, status, created_at, expires_at, source)
         VALUES (?, 'o1', 'image', 'image/png', 100, 'pending', 1, 2, 'presign')`,
      )
      .run(key);

  it('adds the claim and ETag columns to existing rows, empty', () => {
    const db = setup(5);
    insert(db, 'uploads/o1/old/file.png');
    expect(migrate(db, MIGRATIONS, 6)).toBe(1);
    const cols = (db.prepare('PRAGMA table_info(uploads)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).toEqual(expect.arrayContaining(['put_claim', 'put_claimed_at', 'verified_etag']));
    expect(db.prepare('SELECT put_claim, put_claimed_at, verified_etag FROM uploads').get()).toEqual({
      put_claim: null,
      put_claimed_at: null,
      verified_etag: null,
    });
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(indexes).toContain('uploads_claimed');
  });

  it('lets exactly one PUT claim a pending upload, gives the claim back on failure, and none after completion', () => {
    const db = setup(6);
    const repo = new UploadsRepo(db);
    insert(db, 'k');
    expect(repo.claimPut('k', '1:a')).toBe('claimed');
    expect(repo.claimPut('k', '1:b')).toBe('in_progress');
    repo.releasePut('k', '1:b'); // not b's claim: nothing changes
    expect(repo.claimPut('k', '1:c')).toBe('in_progress');
    repo.releasePut('k', '1:a');
    expect(repo.claimPut('k', '1:c')).toBe('claimed');
    expect(repo.completePut('k', '1:a', 10, 'image/gif')).toBe(false);
    expect(repo.completePut('k', '1:c', 10, 'image/gif')).toBe(true);
    expect(repo.get('k')).toMatchObject({ status: 'complete', size: 10, content_type: 'image/gif', put_claim: null });
    expect(repo.claimPut('k', '1:d')).toBe('complete');
    expect(repo.claimPut('missing', '1:e')).toBe('missing');
  });

  it('keeps claimed uploads out of the expiry sweep and lists them for the start-up release', () => {
    const db = setup(6);
    const repo = new UploadsRepo(db);
    insert(db, 'busy');
    insert(db, 'idle');
    repo.claimPut('busy', '42:x');
    expect(repo.expiredPending(10).map((r) => r.s3_key)).toEqual(['idle']);
    expect(repo.claimedPending()).toEqual([{ s3_key: 'busy', put_claim: '42:x', put_claimed_at: expect.any(Number) }]);
  });
});
