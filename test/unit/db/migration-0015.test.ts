import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { LoginWebhooksRepo } from '../../../src/main/core/login/webhooks/login-webhooks.repo.js';

describe('migration 0015 (login webhooks)', () => {
  it('keeps one URL per organization and its deliveries, all gone with the organization', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 14);
    expect(migrate(db, MIGRATIONS, 15)).toBe(1);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    const repo = new LoginWebhooksRepo(db);
    repo.putEndpoint('o1', 'sealed:v1:first', 1);
    repo.putEndpoint('o1', 'sealed:v1:second', 2);
    expect(repo.endpoint('o1')).toEqual({ org_id: 'o1', url: 'sealed:v1:second', created_at: 1, updated_at: 2 });
    const delivery = {
      id: 'msg_1',
      org_id: 'o1',
      login_id: 'l1',
      event: 'login.finished' as const,
      payload: 'sealed:v1:x',
    };
    repo.insert(delivery, 10);
    expect(
      repo.recordAttempt(
        { delivery_id: 'msg_1', attempt: 1, started_at: 10, duration_ms: 3, status_code: 200, error: null },
        { status: 'delivered' },
        11,
      ),
    ).toBe(true);
    expect(repo.latest('o1', 10).deliveries[0]).toMatchObject({ status: 'delivered', attempts: 1, finished_at: 11 });
    expect(() =>
      db
        .prepare(
          "INSERT INTO login_webhook_deliveries (id, org_id, login_id, event, payload, status, created_at, updated_at) VALUES ('m2', 'o1', 'l', 'login.step', 'p', 'pending', 1, 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    for (const table of ['login_webhooks', 'login_webhook_deliveries', 'login_webhook_attempts'])
      expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
  });
});
