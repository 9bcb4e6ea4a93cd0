import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { trackStatement, trackWrites } from './change-stamp.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export type Db = Database.Database;

/**
 * The data dir's database was migrated by a newer Agent Studio. An older version must not write to it: it would not
 * see what the newer one keeps (saved logins, for one) and the next upgrade would find its writes half-made.
 */
export class NewerDataDirError extends Error {
  readonly code = 'DATA_DIR_NEWER';
  constructor(
    readonly dataSchema: number,
    readonly knownSchema: number,
    readonly writtenBy: string | null,
  ) {
    super(
      `This data dir was last opened by a newer Agent Studio${writtenBy ? ` (${writtenBy})` : ''}: its database ` +
        `schema is ${dataSchema}, and this version knows schemas up to ${knownSchema}. Nothing was changed. ` +
        'Run the newer version, or restore a backup made with this one.',
    );
    this.name = 'NewerDataDirError';
  }
}

/** The settings key naming the Agent Studio version that last opened the database (create-core.ts writes it). */
export const WRITTEN_BY_SETTING = 'app_version';

/**
 * Opens (creating if needed) `<dataDir>/agent-studio.db` in WAL mode and applies pending migrations. Its writes are
 * followed (change-stamp.ts) so services may keep hot rows in memory; `clock` (ms) is the stamp's, for tests.
 */
export function openDatabase(
  dataDir: string,
  migrations: readonly Migration[] = MIGRATIONS,
  opts: { clock?: () => number } = {},
): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(path.join(dataDir, 'agent-studio.db'));
  try {
    db.pragma('busy_timeout = 5000');
    refuseNewerSchema(db, migrations);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations);
  } catch (err) {
    db.close();
    throw err;
  }
  trackWrites(db, opts.clock);
  return reuseStatements(db);
}

/** Distinct SQL texts whose statements are kept (the services use a few dozen; dynamic SQL has few shapes). */
const KEPT_STATEMENTS = 500;

/**
 * `db.prepare(sql)` answers the statement prepared before for the same text: services prepare on every call,
 * and preparing was ~8 % of a cached login's CPU. Safe because statements run synchronously and none is
 * iterated while another call runs it; the one rule: never change a shared statement's mode (`pluck`, `raw`,
 * `expand`, `safeIntegers`) — a caller that needs one prepares a SQL text of its own.
 */
function reuseStatements(db: Db): Db {
  const prepare = db.prepare.bind(db);
  const kept = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let stmt = kept.get(sql);
    if (stmt) return stmt;
    stmt = trackStatement(db, prepare(sql));
    if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
    kept.set(sql, stmt);
    return stmt;
  }) as Db['prepare'];
  return db;
}

/** Throws NewerDataDirError, before anything is written, when the database knows a migration this version lacks. */
function refuseNewerSchema(db: Db, migrations: readonly Migration[]): void {
  const tracked = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!tracked) return;
  const dataSchema = schemaVersion(db);
  const knownSchema = Math.max(0, ...migrations.map((m) => m.version));
  if (dataSchema <= knownSchema) return;
  let writtenBy: string | null = null;
  try {
    const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(WRITTEN_BY_SETTING) as
      { value: string } | undefined;
    writtenBy = row?.value ?? null;
  } catch {
    // a database without settings still is refused; it just cannot name its version
  }
  throw new NewerDataDirError(dataSchema, knownSchema, writtenBy);
}

export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS, upTo = Infinity): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  let count = 0;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version > upTo || applied.has(m.version)) continue;
    // A no-op inside a transaction, so switched around it (a rebuilt table keeps the rows others point at).
    const fkOn = m.foreignKeysOff && (db.pragma('foreign_keys', { simple: true }) as number) === 1;
    if (fkOn) db.pragma('foreign_keys = OFF');
    try {
      migrateOne(db, m);
    } finally {
      if (fkOn) db.pragma('foreign_keys = ON');
    }
    count++;
  }
  return count;
}

function migrateOne(db: Db, m: Migration): void {
  db.transaction(() => {
    db.exec(m.sql);
    if (m.foreignKeysOff && (db.pragma('foreign_key_check') as unknown[]).length) {
      throw new Error(`migration ${m.version} left rows whose foreign keys point nowhere`);
    }
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      m.version,
      m.name,
      Date.now(),
    );
  })();
}

export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}
