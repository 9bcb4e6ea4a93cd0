import type Database from 'better-sqlite3';

/**
 * How long a commit of another process (the CLI revoking a key, another app on the same data dir) may go unseen by
 * rows kept in memory. Reading `PRAGMA data_version` costs about what the row read it would save, so it is read at
 * most this often; writes through this process's own connection are seen at once.
 */
export const OTHER_PROCESS_WRITES_SEEN_WITHIN_MS = 50;

/**
 * A number that changes whenever a row of the database may have changed, so a service can keep the rows of its hot
 * path in memory (the API key of every request, the session of a cache hit: their SQLite reads were ~15 % of a
 * cached login's CPU) and never answer from a row older than that. Every write through this connection changes it
 * at once (statements that are not read-only, `exec`, `pragma`: wrapped by `trackWrites`); commits of other
 * connections through PRAGMA data_version, read at most every OTHER_PROCESS_WRITES_SEEN_WITHIN_MS.
 */
export class ChangeStamp {
  private writes = 0;
  private version = 0;
  private checkedAt = -Infinity;
  private readonly dataVersion: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly clock: () => number = performance.now.bind(performance),
  ) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** Called after every write of this connection. */
  wrote(): void {
    this.writes++;
  }

  /** The current stamp: equal to an earlier one only if no write was seen in between. */
  current(): number {
    const now = this.clock();
    if (now - this.checkedAt >= OTHER_PROCESS_WRITES_SEEN_WITHIN_MS) {
      this.checkedAt = now;
      const version = this.dataVersion.get() as number;
      if (version !== this.version) {
        this.version = version;
        this.writes++;
      }
    }
    return this.writes;
  }
}

const stamps = new WeakMap<Database.Database, ChangeStamp>();

/** The stamp of a database opened by openDatabase; undefined for any other (a caller then keeps nothing). */
export function changeStamp(db: Database.Database): ChangeStamp | undefined {
  return stamps.get(db);
}

/** Starts following `db`'s writes: its write statements, exec and pragma tell the stamp (`clock`: ms, for tests). */
export function trackWrites(db: Database.Database, clock?: () => number): void {
  const stamp = new ChangeStamp(db, clock);
  stamps.set(db, stamp);
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    try {
      return exec(sql);
    } finally {
      stamp.wrote();
    }
  };
  const pragma = db.pragma.bind(db);
  db.pragma = ((source: string, options?: Database.PragmaOptions) => {
    try {
      return pragma(source, options);
    } finally {
      stamp.wrote();
    }
  }) as Database.Database['pragma'];
}

/** Wraps a prepared statement that writes so each run tells the stamp (read-only statements are left as they are). */
export function trackStatement(db: Database.Database, stmt: Database.Statement): Database.Statement {
  const stamp = stamps.get(db);
  if (!stamp || stmt.readonly) return stmt;
  const wrapped = stmt as unknown as Record<string, unknown>;
  for (const method of ['run', 'get', 'all'] as const) {
    const original = (stmt[method] as (...args: unknown[]) => unknown).bind(stmt);
    wrapped[method] = (...args: unknown[]) => {
      try {
        return original(...args);
      } finally {
        stamp.wrote();
      }
    };
  }
  // A write with RETURNING, read row by row: it writes as it is iterated.
  const iterate = stmt.iterate.bind(stmt);
  wrapped.iterate = function* (...args: unknown[]) {
    try {
      yield* iterate(...args);
    } finally {
      stamp.wrote();
    }
  };
  return stmt;
}

/**
 * Rows of a service's hot path kept in memory while the database's stamp holds: any write through this process, or
 * another process's commit (seen within OTHER_PROCESS_WRITES_SEEN_WITHIN_MS), drops them all. A row read inside a
 * transaction is not kept (the transaction may still roll back). Callers must not change a row they are given.
 */
export class KeptRows<Row> {
  private readonly rows = new Map<string, Row>();
  private stamp = -1;

  constructor(
    private readonly db: Database.Database,
    private readonly max = 1024,
  ) {}

  /** The row kept under `key`, else `read()`'s (kept when there is one). */
  get(key: string, read: () => Row | undefined): Row | undefined {
    const stamp = changeStamp(this.db)?.current();
    if (stamp === undefined) return read();
    if (stamp !== this.stamp) {
      this.rows.clear();
      this.stamp = stamp;
    }
    const kept = this.rows.get(key);
    if (kept !== undefined) return kept;
    const row = read();
    if (row !== undefined && !this.db.inTransaction) {
      if (this.rows.size >= this.max) this.rows.delete(this.rows.keys().next().value!);
      this.rows.set(key, row);
    }
    return row;
  }
}
