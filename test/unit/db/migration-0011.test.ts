import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0011 (mailboxes)', () => {
  const setup = () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 11);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    return db;
  };
  const insert = (db: Database.Database, over: Record<string, unknown> = {}) =>
    db
      .prepare(
        `INSERT INTO mailboxes (id, org_id, name, addresses, imap_host, imap_port, imap_secure, imap_username, created_at)
         VALUES (@id, 'o1', 'Work', '["ada@example.com"]', 'imap.example.com', @port, @secure, 'ada', 1)`,
      )
      .run({ id: 'mbx_1', port: 993, secure: 1, ...over });

  it('creates the table without any password column', () => {
    const db = setup();
    const columns = (db.prepare('PRAGMA table_info(mailboxes)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual([
      'id',
      'org_id',
      'name',
      'addresses',
      'imap_host',
      'imap_port',
      'imap_secure',
      'imap_username',
      'created_at',
    ]);
    expect(columns.some((c) => /pass|secret/.test(c))).toBe(false);
  });

  it('checks the port and the secure flag, and goes with its organization', () => {
    const db = setup();
    insert(db);
    expect(() => insert(db, { id: 'mbx_2', port: 0 })).toThrow(/CHECK/);
    expect(() => insert(db, { id: 'mbx_3', port: 65536 })).toThrow(/CHECK/);
    expect(() => insert(db, { id: 'mbx_4', secure: 2 })).toThrow(/CHECK/);
    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    expect((db.prepare('SELECT COUNT(*) AS n FROM mailboxes').get() as { n: number }).n).toBe(0);
  });
});
