import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';

describe('migration 0007 (jobs: lane, runner and timing)', () => {
  it('adds lane (render by default, checked), locked_by and timing to existing jobs', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 6);
    db.prepare(
      "INSERT INTO jobs (id, kind, ref_id, status, attempts, run_after, created_at, updated_at) VALUES ('j1', 'render_generation', 'g1', 'queued', 0, 1, 1, 1)",
    ).run();
    migrate(db, MIGRATIONS, 7);
    const row = db.prepare("SELECT lane, locked_by, started_at, finished_at FROM jobs WHERE id = 'j1'").get();
    expect(row).toEqual({ lane: 'render', locked_by: null, started_at: null, finished_at: null });
    expect(() => db.prepare("UPDATE jobs SET lane = 'gpu' WHERE id = 'j1'").run()).toThrow(/CHECK/);
  });
});
