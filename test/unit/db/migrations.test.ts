import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('migrations', () => {
  it('are numbered 1..n without gaps and apply once', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(migrate(db)).toBe(0);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
  });

  it('openDatabase uses WAL in the data dir', () => {
    const db = openDatabase(tempDir());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('0001 creates orgs, api_keys, an append-only credit ledger and settings', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 1);
    expect(tables(db)).toEqual(expect.arrayContaining(['orgs', 'api_keys', 'credit_ledger', 'settings']));
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    expect(() => db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o2', 'acme', 1)").run()).toThrow(
      /UNIQUE/,
    );
    db.prepare("INSERT INTO credit_ledger (org_id, amount, kind, created_at) VALUES ('o1', 10, 'grant', 1)").run();
    expect(() => db.prepare('UPDATE credit_ledger SET amount = 1000').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM credit_ledger').run()).toThrow(/append-only/);
    expect(() =>
      db.prepare("INSERT INTO credit_ledger (org_id, amount, kind, created_at) VALUES ('o1', 1, 'gift', 1)").run(),
    ).toThrow(/CHECK/);
  });

  it('0002 creates the login session cache keyed by a unique lookup hash', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, 2);
    expect(tables(db)).toContain('login_sessions');
    const cols = (db.prepare('PRAGMA table_info(login_sessions)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).toEqual(expect.arrayContaining(['cache_key', 'username_enc', 'payload', 'expires_at']));
    expect(cols).not.toContain('username');
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    const insert = db.prepare(
      "INSERT INTO login_sessions (id, org_id, cache_key, username_enc, origin, login_method, payload, cookie_names, cookie_count, origin_count, created_at) VALUES (?, 'o1', x'01', x'00', 'http://a', 'password', x'00', '[]', 0, 0, 1)",
    );
    insert.run('s1');
    expect(() => insert.run('s2')).toThrow(/UNIQUE/);
  });
});
