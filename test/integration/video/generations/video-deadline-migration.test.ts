// Migration 0018 rebuilds `generations` to allow the `aborted` status (a CHECK constraint cannot change in place):
// rows and the webhook deliveries that point at them survive, foreign keys are back on and still cascade.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../../src/main/core/db/migrations/index.js';

describe('migration 0018 (generation options)', () => {
  it('keeps generations and their deliveries, names delivery events, and allows aborted', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 17);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    db.prepare(
      `INSERT INTO generations (id, org_id, batch_id, template_id, status, inputs, model_config, credits_charged,
         credits_refunded, created_at, updated_at, thumbnail_key)
       VALUES ('gen_1', 'o1', 'gbt_1', 't', 'failed', '{"a":1}', '{}', 8, 8, 1, 2, 'thumb.jpg')`,
    ).run();
    db.prepare(
      `INSERT INTO webhook_deliveries (id, generation_id, org_id, trigger, payload, status, created_at, updated_at)
       VALUES ('msg_1', 'gen_1', 'o1', 'automatic', '{"status":"failed"}', 'delivered', 1, 1)`,
    ).run();

    // Up to 0022: 0023 moved the deliveries into one table for every kind of event (test/unit/db/migration-0023).
    migrate(db, MIGRATIONS, 22);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT * FROM generations').get()).toMatchObject({
      id: 'gen_1',
      status: 'failed',
      inputs: '{"a":1}',
      credits_refunded: 8,
      thumbnail_key: 'thumb.jpg',
      draft: 0,
      deadline_at: null,
      started_at: null,
      batch_index: null,
      webhook_events: null,
    });
    expect(db.prepare('SELECT id, event FROM webhook_deliveries').all()).toEqual([{ id: 'msg_1', event: 'failed' }]);
    db.prepare("UPDATE generations SET status = 'aborted' WHERE id = 'gen_1'").run();
    expect(() => db.prepare("UPDATE generations SET status = 'lost' WHERE id = 'gen_1'").run()).toThrow(/CHECK/);
    // One automatic delivery per generation and event; any number of progress ones.
    const insert = db.prepare(
      `INSERT INTO webhook_deliveries (id, generation_id, org_id, trigger, event, payload, status, created_at, updated_at)
       VALUES (?, 'gen_1', 'o1', 'automatic', ?, '{}', 'pending', 1, 1)`,
    );
    insert.run('msg_2', 'progress');
    insert.run('msg_3', 'progress');
    expect(() => insert.run('msg_4', 'failed')).toThrow(/UNIQUE/);
    // The deliveries still belong to the generation.
    db.prepare("DELETE FROM generations WHERE id = 'gen_1'").run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get()).toEqual({ n: 0 });
  });
});
