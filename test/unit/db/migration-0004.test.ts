import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0004 (video: templates, characters, generations, jobs, idempotency keys)', () => {
  const setup = () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    expect(migrate(db, MIGRATIONS, 4)).toBe(4);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    return db;
  };
  const columns = (db: Database.Database, table: string) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
  const count = (db: Database.Database, table: string) =>
    (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const generation = (over: Record<string, unknown> = {}) => ({
    id: 'gen_1',
    org_id: 'o1',
    batch_id: 'gbt_1',
    template_id: 't',
    status: 'generating',
    progress: 0,
    inputs: '{}',
    model_config: '{}',
    credits_charged: 8,
    created_at: 1,
    updated_at: 1,
    ...over,
  });
  const insertGeneration = (db: Database.Database, over: Record<string, unknown> = {}) =>
    db
      .prepare(
        `INSERT INTO generations (id, org_id, batch_id, template_id, status, progress, inputs, model_config, credits_charged, created_at, updated_at)
         VALUES (@id, @org_id, @batch_id, @template_id, @status, @progress, @inputs, @model_config, @credits_charged, @created_at, @updated_at)`,
      )
      .run(generation(over));

  it('creates the tables with their columns and indexes', () => {
    const db = setup();
    expect(columns(db, 'templates')).toEqual(
      expect.arrayContaining([
        'id',
        'org_id',
        'category',
        'input_variables',
        'prompt_template',
        'model',
        'resolution',
        'latency_typical_sec',
        'latency_busy_sec',
        'duration_sec',
      ]),
    );
    expect(columns(db, 'characters')).toEqual(
      expect.arrayContaining(['id', 'org_id', 'name', 'name_search', 'reference_image_keys', 'created_at']),
    );
    expect(columns(db, 'generations')).toEqual(
      expect.arrayContaining([
        'id',
        'org_id',
        'batch_id',
        'template_id',
        'status',
        'progress',
        'inputs',
        'prompt',
        'model_config',
        'webhook_url',
        'video_key',
        'error',
        'credits_charged',
        'credits_refunded',
        'completed_at',
        'finished_at',
      ]),
    );
    expect(columns(db, 'jobs')).toEqual(
      expect.arrayContaining(['id', 'kind', 'ref_id', 'status', 'attempts', 'run_after', 'locked_until']),
    );
    expect(columns(db, 'idempotency_keys')).toEqual(
      expect.arrayContaining([
        'org_id',
        'key',
        'request_hash',
        'state',
        'response_status',
        'response_body',
        'created_at',
      ]),
    );
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(indexes).toEqual(
      expect.arrayContaining([
        'templates_org',
        'characters_org',
        'generations_org_created',
        'generations_org_status',
        'jobs_ready',
        'jobs_ref',
        'idempotency_keys_created',
      ]),
    );
  });

  it('checks statuses and progress, keys idempotency records per org, and cascades with the org', () => {
    const db = setup();
    insertGeneration(db);
    expect(() => insertGeneration(db, { id: 'gen_2', status: 'done' })).toThrow(/CHECK/);
    expect(() => insertGeneration(db, { id: 'gen_3', progress: 101 })).toThrow(/CHECK/);
    expect(() => insertGeneration(db, { id: 'gen_4', org_id: 'nope' })).toThrow(/FOREIGN KEY/);
    db.prepare(
      "INSERT INTO jobs (id, kind, ref_id, org_id, status, run_after, created_at, updated_at) VALUES ('j1', 'render_generation', 'gen_1', 'o1', 'queued', 1, 1, 1)",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO jobs (id, kind, ref_id, status, run_after, created_at, updated_at) VALUES ('j2', 'x', 'y', 'lost', 1, 1, 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    const idem = db.prepare(
      "INSERT INTO idempotency_keys (org_id, key, request_hash, state, created_at) VALUES ('o1', 'k', 'h', ?, 1)",
    );
    idem.run('pending');
    expect(() => idem.run('pending')).toThrow(/UNIQUE|PRIMARY/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO idempotency_keys (org_id, key, request_hash, state, created_at) VALUES ('o1', 'k2', 'h', 'maybe', 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.prepare(
      "INSERT INTO templates (id, org_id, title, category) VALUES ('builtin', NULL, 'B', 'text-to-video'), ('mine', 'o1', 'M', 'text-to-video')",
    ).run();
    db.prepare(
      "INSERT INTO characters (id, org_id, name, name_search) VALUES ('chr_pub', NULL, 'P', 'p'), ('chr_own', 'o1', 'O', 'o')",
    ).run();

    db.prepare("DELETE FROM orgs WHERE id = 'o1'").run();
    expect(count(db, 'generations')).toBe(0);
    expect(count(db, 'jobs')).toBe(0);
    expect(count(db, 'idempotency_keys')).toBe(0);
    expect(db.prepare('SELECT id FROM templates').all()).toEqual([{ id: 'builtin' }]);
    expect(db.prepare('SELECT id FROM characters').all()).toEqual([{ id: 'chr_pub' }]);
  });
});
