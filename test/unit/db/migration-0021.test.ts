import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/main/core/db/database.js';
import { MIGRATIONS } from '../../../src/main/core/db/migrations/index.js';
import { TemplatesRepo } from '../../../src/main/core/video/templates/templates.repo.js';

describe('migration 0021 (scratch templates)', () => {
  it('keeps every template, listed and not scratch; then scratch rows are left out of the list and swept by age', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS, 20);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o1', 'Acme', 1)").run();
    const insert = db.prepare(
      `INSERT INTO templates (id, org_id, title, category, input_variables, created_at, updated_at)
       VALUES (?, ?, ?, 'text-to-video', '[]', ?, ?)`,
    );
    insert.run('builtin-one', null, 'Built-in', null, null);
    insert.run('tpl_old', 'o1', 'Saved long ago', 1, 1);
    const before = db.prepare('SELECT * FROM templates ORDER BY id').all();

    expect(migrate(db, MIGRATIONS, 21)).toBe(1);
    expect(db.prepare('SELECT * FROM templates ORDER BY id').all()).toEqual(
      before.map((row) => ({ ...(row as object), scratch: 0 })),
    );
    const repo = new TemplatesRepo(db);
    const listed = () => repo.list('o1', { limit: 10, offset: 0 }).map((r) => r.id);
    expect(listed()).toEqual(['builtin-one', 'tpl_old']);

    insert.run('tpl_scratch', 'o1', 'Draft (preview)', 5, 5);
    db.prepare("UPDATE templates SET scratch = 1 WHERE id = 'tpl_scratch'").run();
    expect(() => db.prepare("UPDATE templates SET scratch = 2 WHERE id = 'tpl_old'").run()).toThrow(/CHECK/);
    expect(listed()).toEqual(['builtin-one', 'tpl_old']);
    expect(repo.get('o1', 'tpl_scratch')).toMatchObject({ scratch: 1 });
    // Only scratch rows changed before the cutoff go: the old saved template stays whatever its age.
    expect(repo.deleteStaleScratch(5)).toBe(0);
    expect(repo.deleteStaleScratch(6)).toBe(1);
    expect(db.prepare('SELECT id FROM templates ORDER BY id').pluck().all()).toEqual(['builtin-one', 'tpl_old']);
    const plan = db.prepare('EXPLAIN QUERY PLAN DELETE FROM templates WHERE scratch = 1 AND updated_at < 1').all() as {
      detail: string;
    }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('templates_scratch');
  });
});
