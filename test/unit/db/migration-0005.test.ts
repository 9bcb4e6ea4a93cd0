import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0005 (login session cache: credential hash)', () => {
  const columns = (db: Database.Database) =>
    db.prepare('PRAGMA table_info(login_sessions)').all() as { name: string; type: string; notnull: number }[];
  const insertEntry = (db: Database.Database, id: string, cacheKey: Buffer) =>
    db
      .prepare(
        `INSERT INTO login_sessions (id, org_id, cache_key, username_enc, origin, login_method, payload, cookie_names, cookie_count, origin_count, created_at)
         VALUES (?, 'o1', ?, x'00', 'http://a', 'password', x'00', '[]', 0, 0, 1)`,
      )
      .run(id, cacheKey);

  it('adds a nullable credential_hash and leaves older entries without one (never served)', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    expect(migrate(db, MIGRATIONS, 4)).toBe(4);
    expect(columns(db).map((c) => c.name)).not.toContain('credential_hash');
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    insertEntry(db, 'ses_old', Buffer.from([1]));

    expect(migrate(db, MIGRATIONS, 5)).toBe(1);
    const col = columns(db).find((c) => c.name === 'credential_hash');
    expect(col).toMatchObject({ type: 'BLOB', notnull: 0 });
    expect(db.prepare("SELECT credential_hash FROM login_sessions WHERE id = 'ses_old'").get()).toEqual({
      credential_hash: null,
    });

    // new entries carry their hash; the lookup key stays unique
    const hash = Buffer.alloc(32, 7);
    insertEntry(db, 'ses_new', Buffer.from([2]));
    db.prepare("UPDATE login_sessions SET credential_hash = ? WHERE id = 'ses_new'").run(hash);
    expect(db.prepare("SELECT credential_hash FROM login_sessions WHERE id = 'ses_new'").get()).toEqual({
      credential_hash: hash,
    });
    expect(() => insertEntry(db, 'ses_dup', Buffer.from([2]))).toThrow(/UNIQUE/);
  });
});
