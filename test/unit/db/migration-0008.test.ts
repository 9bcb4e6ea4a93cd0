import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0008 (webhooks: deliveries and their attempts)', () => {
  const setup = () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 8);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    db.prepare(
      `INSERT INTO generations (id, org_id, batch_id, template_id, status, inputs, model_config, credits_charged, created_at, updated_at)
       VALUES ('gen_1', 'o1', 'b', 't', 'completed', '{}', '{}', 8, 1, 1)`,
    ).run();
    return db;
  };
  const delivery = (db: Database.Database, over: Record<string, unknown> = {}) =>
    db
      .prepare(
        `INSERT INTO webhook_deliveries (id, generation_id, org_id, trigger, payload, status, created_at, updated_at)
         VALUES (@id, @generation_id, @org_id, @trigger, '{}', @status, 1, 1)`,
      )
      .run({ id: 'msg_1', generation_id: 'gen_1', org_id: 'o1', trigger: 'automatic', status: 'pending', ...over });
  const attempt = (db: Database.Database, deliveryId: string, n: number) =>
    db
      .prepare(
        'INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code) VALUES (?, ?, 1, 5, 500)',
      )
      .run(deliveryId, n);
  const count = (db: Database.Database, table: string) =>
    (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

  it('creates both tables with their columns; attempts start at 0 and the delivery has no URL column', () => {
    const db = setup();
    const columns = (table: string) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns('webhook_deliveries')).toEqual([
      'id',
      'generation_id',
      'org_id',
      'trigger',
      'payload',
      'status',
      'attempts',
      'next_attempt_at',
      'last_status_code',
      'error',
      'created_at',
      'updated_at',
      'finished_at',
    ]);
    expect(columns('webhook_attempts')).toEqual([
      'delivery_id',
      'attempt',
      'started_at',
      'duration_ms',
      'status_code',
      'error',
    ]);
    delivery(db);
    expect(db.prepare("SELECT attempts, next_attempt_at FROM webhook_deliveries WHERE id = 'msg_1'").get()).toEqual({
      attempts: 0,
      next_attempt_at: null,
    });
  });

  it('checks trigger, status and attempt numbers; one automatic delivery per generation, any number of replays', () => {
    const db = setup();
    delivery(db);
    expect(() => delivery(db, { id: 'msg_2' })).toThrow(/UNIQUE/);
    delivery(db, { id: 'msg_r1', trigger: 'replay' });
    delivery(db, { id: 'msg_r2', trigger: 'replay' });
    expect(() => delivery(db, { id: 'msg_x', trigger: 'manual' })).toThrow(/CHECK/);
    expect(() => delivery(db, { id: 'msg_y', trigger: 'replay', status: 'sent' })).toThrow(/CHECK/);
    expect(() => delivery(db, { id: 'msg_z', trigger: 'replay', generation_id: 'gen_nope' })).toThrow(/FOREIGN KEY/);
    attempt(db, 'msg_1', 1);
    expect(() => attempt(db, 'msg_1', 1)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => attempt(db, 'msg_1', 0)).toThrow(/CHECK/);
    expect(() => attempt(db, 'msg_nope', 1)).toThrow(/FOREIGN KEY/);
  });

  it('goes with its generation and its organization', () => {
    const db = setup();
    delivery(db);
    attempt(db, 'msg_1', 1);
    db.prepare("DELETE FROM generations WHERE id = 'gen_1'").run();
    expect(count(db, 'webhook_deliveries')).toBe(0);
    expect(count(db, 'webhook_attempts')).toBe(0);

    db.prepare(
      `INSERT INTO generations (id, org_id, batch_id, template_id, status, inputs, model_config, credits_charged, created_at, updated_at)
       VALUES ('gen_2', 'o1', 'b', 't', 'failed', '{}', '{}', 8, 1, 1)`,
    ).run();
    delivery(db, { id: 'msg_3', generation_id: 'gen_2' });
    attempt(db, 'msg_3', 1);
    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    expect(count(db, 'webhook_deliveries')).toBe(0);
    expect(count(db, 'webhook_attempts')).toBe(0);
  });
});
