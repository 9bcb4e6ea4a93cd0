import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { SavedLoginsRepo } from '../../../src/main/core/login/vault/saved-logins.repo.js';

describe('migration 0024 (a saved login’s login browser)', () => {
  it('leaves existing saved logins without a browser of their own, and keeps a mode a saved login is given', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 23);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    db.prepare(
      `INSERT INTO saved_logins (id, org_id, label, login_url, origins, login_method, username, secrets,
         additional_field_names, share_with, source, created_at, updated_at)
       VALUES ('cred_old', 'o1', 'Bank', 'https://bank.example/login', '["https://bank.example"]', 'password', 'ada',
         '["password"]', '[]', '"all"', 'api', 1, 1)`,
    ).run();
    expect(migrate(db, MIGRATIONS, 24)).toBe(1);
    const repo = new SavedLoginsRepo(db);
    const old = repo.find('o1', 'cred_old')!;
    expect(old.browser).toBeNull();
    expect(repo.update({ ...old, browser: { mode: 'headed' }, updated_at: 2 })).toBe(true);
    expect(repo.find('o1', 'Bank')?.browser).toEqual({ mode: 'headed' });
    expect(() => db.prepare("UPDATE saved_logins SET browser_mode = 'visible' WHERE id = 'cred_old'").run()).toThrow(
      /CHECK/,
    );
  });
});
