import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0012 (login session lifecycle)', () => {
  const insertEntry = (db: Database.Database, id: string, cacheKey: number) =>
    db
      .prepare(
        `INSERT INTO login_sessions (id, org_id, cache_key, username_enc, origin, login_method, payload, cookie_names, cookie_count, origin_count, created_at)
         VALUES (?, 'o1', ?, x'00', 'http://a', 'password', x'00', '[]', 0, 0, 1)`,
      )
      .run(id, Buffer.from([cacheKey]));
  const row = (db: Database.Database, id: string) =>
    db
      .prepare(
        'SELECT check_url_enc, status, last_checked_at, health_check_interval_sec, next_check_at, credentials_stored FROM login_sessions WHERE id = ?',
      )
      .get(id);

  it('gives existing entries an unchecked status, no schedule and no stored credentials', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 11);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    insertEntry(db, 'ses_old', 1);
    expect(migrate(db, MIGRATIONS, 12)).toBe(1);
    expect(row(db, 'ses_old')).toEqual({
      check_url_enc: null,
      status: 'unchecked',
      last_checked_at: null,
      health_check_interval_sec: null,
      next_check_at: null,
      credentials_stored: 0,
    });
    const columns = (db.prepare('PRAGMA table_info(login_sessions)').all() as { name: string }[]).map((c) => c.name);
    // a flag only: the credentials themselves are never in the database
    expect(columns.filter((c) => /cred|pass|secret/.test(c))).toEqual(['credential_hash', 'credentials_stored']);
  });

  it('checks status, interval and flag values', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 12);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    insertEntry(db, 'ses_1', 1);
    const update = (sql: string) => () => db.prepare(`UPDATE login_sessions SET ${sql} WHERE id = 'ses_1'`).run();
    for (const ok of ["status = 'valid'", "status = 'invalid'", "status = 'renewed'", 'health_check_interval_sec = 60'])
      expect(update(ok)).not.toThrow();
    for (const bad of ["status = 'expired'", 'health_check_interval_sec = 59', 'credentials_stored = 2'])
      expect(update(bad), bad).toThrow(/CHECK/);
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT id FROM login_sessions WHERE next_check_at IS NOT NULL AND next_check_at <= 5',
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/login_sessions_next_check/);
  });
});
