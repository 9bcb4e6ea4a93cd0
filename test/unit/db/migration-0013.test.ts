import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { MailboxesRepo } from '../../../src/main/core/login/mailboxes/mailboxes.repo.js';

describe('migration 0013 (mailbox insecure auth)', () => {
  it('gives existing mailboxes no leave to log in without TLS, and checks the flag', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 12);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    db.prepare(
      `INSERT INTO mailboxes (id, org_id, name, addresses, imap_host, imap_port, imap_secure, imap_username, created_at)
       VALUES ('mbx_old', 'o1', 'Work', '["ada@example.com"]', 'mail.corp.example', 143, 0, 'ada', 1)`,
    ).run();
    expect(migrate(db, MIGRATIONS, 13)).toBe(1);
    expect(new MailboxesRepo(db).find('mbx_old')?.imap).toEqual({
      host: 'mail.corp.example',
      port: 143,
      secure: false,
      username: 'ada',
      allowInsecureAuth: false,
    });
    const update = (v: number) => () =>
      db.prepare("UPDATE mailboxes SET imap_allow_insecure_auth = ? WHERE id = 'mbx_old'").run(v);
    expect(update(1)).not.toThrow();
    expect(new MailboxesRepo(db).find('mbx_old')?.imap.allowInsecureAuth).toBe(true);
    expect(update(2)).toThrow(/CHECK/);
    const columns = (db.prepare('PRAGMA table_info(mailboxes)').all() as { name: string }[]).map((c) => c.name);
    expect(columns.some((c) => /pass|secret/.test(c))).toBe(false);
  });
});
