import type { Db } from '../../db/database.js';

/** A finished answer is replayed for this long; later the key can be used again. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;
/** A claim whose request never finished (crash) is taken over after this long. */
export const IDEMPOTENCY_PENDING_TTL_MS = 10 * 60 * 1000;

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

interface Row {
  request_hash: string;
  state: 'pending' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

/** Idempotency-Key records per (org, key): a pending claim while the request runs, then its answer. */
export class IdempotencyRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      prune: db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?'),
      get: db.prepare(
        'SELECT request_hash, state, response_status, response_body, created_at FROM idempotency_keys WHERE org_id = ? AND key = ?',
      ),
      insert: db.prepare(
        "INSERT INTO idempotency_keys (org_id, key, request_hash, state, created_at) VALUES (?, ?, ?, 'pending', ?)",
      ),
      retake: db.prepare(
        "UPDATE idempotency_keys SET request_hash = ?, state = 'pending', created_at = ?, response_status = NULL, response_body = NULL WHERE org_id = ? AND key = ?",
      ),
      complete: db.prepare(
        "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ? WHERE org_id = ? AND key = ?",
      ),
      release: db.prepare("DELETE FROM idempotency_keys WHERE org_id = ? AND key = ? AND state = 'pending'"),
    };
  }

  /** Atomically claims the key, or says why not (replay of the stored answer, other body, still running). */
  claim(orgId: string, key: string, hash: string, now = Date.now()): Claim {
    return this.db
      .transaction((): Claim => {
        this.stmts.prune.run(now - IDEMPOTENCY_RETENTION_MS);
        const row = this.stmts.get.get(orgId, key) as Row | undefined;
        if (!row) {
          this.stmts.insert.run(orgId, key, hash, now);
          return { kind: 'claimed' };
        }
        if (row.state === 'pending' && row.created_at < now - IDEMPOTENCY_PENDING_TTL_MS) {
          this.stmts.retake.run(hash, now, orgId, key);
          return { kind: 'claimed' };
        }
        if (row.request_hash !== hash) return { kind: 'conflict' };
        if (row.state === 'pending') return { kind: 'in_progress' };
        return {
          kind: 'replay',
          status: row.response_status ?? 200,
          body: JSON.parse(row.response_body ?? 'null') as unknown,
        };
      })
      .immediate();
  }

  /** Stores the answer (call inside the transaction that commits the work). */
  complete(orgId: string, key: string, status: number, body: unknown): void {
    this.stmts.complete.run(status, JSON.stringify(body), orgId, key);
  }

  /** The request failed: the key may be used again (errors are not replayed). */
  release(orgId: string, key: string): void {
    this.stmts.release.run(orgId, key);
  }
}
