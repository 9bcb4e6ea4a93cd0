import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0015 (login webhooks)', () => {
  it('keeps one URL per organization and its deliveries, all gone with the organization', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 14);
    expect(migrate(db, MIGRATIONS, 15)).toBe(1);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    // In SQL as the code of 0015's time wrote it: today's code reads the deliveries from 0023's table.
    const putEndpoint = db.prepare(
      `INSERT INTO login_webhooks (org_id, url, created_at, updated_at) VALUES (@org_id, @url, @now, @now)
       ON CONFLICT (org_id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
    );
    putEndpoint.run({ org_id: 'o1', url: 'sealed:v1:first', now: 1 });
    putEndpoint.run({ org_id: 'o1', url: 'sealed:v1:second', now: 2 });
    expect(db.prepare("SELECT * FROM login_webhooks WHERE org_id = 'o1'").get()).toEqual({
      org_id: 'o1',
      url: 'sealed:v1:second',
      created_at: 1,
      updated_at: 2,
    });
    const delivery = {
      id: 'msg_1',
      org_id: 'o1',
      login_id: 'l1',
      event: 'login.finished' as const,
      payload: 'sealed:v1:x',
    };
    db.prepare(
      `INSERT INTO login_webhook_deliveries (id, org_id, login_id, event, payload, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES (@id, @org_id, @login_id, @event, @payload, 'pending', 0, 10, 10, 10)`,
    ).run(delivery);
    // An attempt recorded as LoginWebhooksRepo.recordAttempt did: the delivery's new state, then the attempt.
    const recordAttempt = db.transaction(() => {
      const changed = db
        .prepare(
          `UPDATE login_webhook_deliveries SET attempts = 1, status = 'delivered', next_attempt_at = NULL,
             last_status_code = 200, updated_at = 11, finished_at = 11 WHERE id = 'msg_1' AND status = 'pending'`,
        )
        .run().changes;
      if (changed !== 1) return false;
      db.prepare(
        `INSERT INTO login_webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
         VALUES ('msg_1', 1, 10, 3, 200, NULL)`,
      ).run();
      return true;
    });
    expect(recordAttempt()).toBe(true);
    expect(db.prepare("SELECT * FROM login_webhook_deliveries WHERE org_id = 'o1'").get()).toMatchObject({
      status: 'delivered',
      attempts: 1,
      finished_at: 11,
    });
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
