import type { Db } from './database.js';

/** The `settings` table: small facts about this installation (install id, secrets backend in use). */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  get(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  set(key: string, value: string): void {
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }

  /**
   * Compare-and-set across processes: `value` replaces `expected` (null: no row yet) only if the row still holds it.
   * True when this call changed it.
   */
  replace(key: string, expected: string | null, value: string): boolean {
    const changes =
      expected === null
        ? this.db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, value).changes
        : this.db.prepare('UPDATE settings SET value = ? WHERE key = ? AND value = ?').run(value, key, expected)
            .changes;
    return changes === 1;
  }

  delete(...keys: string[]): void {
    for (const key of keys) this.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
  }
}
