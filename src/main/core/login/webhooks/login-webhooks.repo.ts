import type { LoginWebhookEventType } from '../../../../shared/login-webhooks.schema.js';
import type { WebhookDeliveryStatus } from '../../../../shared/webhooks.schema.js';
import type { Db } from '../../db/database.js';
import type { AttemptVerdict } from '../../webhooks/webhook-retry.js';

export interface EndpointRow {
  org_id: string;
  /** Sealed (LoginWebhookSealer). */
  url: string;
  created_at: number;
  updated_at: number;
}

export interface LoginDeliveryRow {
  id: string;
  org_id: string;
  login_id: string;
  event: LoginWebhookEventType;
  /** The body, sealed (which logins ran, for which sites). */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface LoginAttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** Finished deliveries are kept this long for the log, then dropped when the organization's next one is made. */
export const KEEP_FINISHED_MS = 30 * 24 * 3600_000;

/** The login webhook tables (migration 0015). Only login/webhooks uses it. */
export class LoginWebhooksRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      endpoint: db.prepare('SELECT * FROM login_webhooks WHERE org_id = ?'),
      hasEndpoint: db.prepare('SELECT 1 FROM login_webhooks WHERE org_id = ?'),
      putEndpoint: db.prepare(
        `INSERT INTO login_webhooks (org_id, url, created_at, updated_at) VALUES (@org_id, @url, @now, @now)
         ON CONFLICT (org_id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
      ),
      deleteEndpoint: db.prepare('DELETE FROM login_webhooks WHERE org_id = ?'),
      insert: db.prepare(
        `INSERT INTO login_webhook_deliveries (id, org_id, login_id, event, payload, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES (@id, @org_id, @login_id, @event, @payload, 'pending', 0, @now, @now, @now)`,
      ),
      prune: db.prepare(
        'DELETE FROM login_webhook_deliveries WHERE org_id = ? AND finished_at IS NOT NULL AND finished_at < ?',
      ),
      get: db.prepare('SELECT * FROM login_webhook_deliveries WHERE id = ?'),
      latest: db.prepare(
        'SELECT * FROM login_webhook_deliveries WHERE org_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
      ),
      pendingOf: db.prepare("SELECT id FROM login_webhook_deliveries WHERE org_id = ? AND status = 'pending'"),
      insertAttempt: db.prepare(
        `INSERT INTO login_webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
         VALUES (@delivery_id, @attempt, @started_at, @duration_ms, @status_code, @error)`,
      ),
      afterAttempt: db.prepare(
        `UPDATE login_webhook_deliveries SET attempts = @attempt, status = @status, next_attempt_at = @next_attempt_at,
           last_status_code = @status_code, error = @error, updated_at = @now, finished_at = @finished_at
         WHERE id = @id AND status = 'pending'`,
      ),
      fail: db.prepare(
        `UPDATE login_webhook_deliveries SET status = 'failed', error = @error, next_attempt_at = NULL, updated_at = @now, finished_at = @now
         WHERE id = @id AND status = 'pending'`,
      ),
    };
  }

  endpoint(orgId: string): EndpointRow | undefined {
    return this.stmts.endpoint.get(orgId) as EndpointRow | undefined;
  }

  /** Whether the organization has a login webhook (no secret store needed: events without one cost nothing). */
  hasEndpoint(orgId: string): boolean {
    return this.stmts.hasEndpoint.get(orgId) !== undefined;
  }

  putEndpoint(orgId: string, sealedUrl: string, now: number): void {
    this.stmts.putEndpoint.run({ org_id: orgId, url: sealedUrl, now });
  }

  deleteEndpoint(orgId: string): boolean {
    return this.stmts.deleteEndpoint.run(orgId).changes === 1;
  }

  /** A new pending delivery, due now; the organization's finished deliveries past their keeping time go. */
  insert(row: Pick<LoginDeliveryRow, 'id' | 'org_id' | 'login_id' | 'event' | 'payload'>, now: number): void {
    this.stmts.prune.run(row.org_id, now - KEEP_FINISHED_MS);
    this.stmts.insert.run({ ...row, now });
  }

  get(id: string): LoginDeliveryRow | undefined {
    return this.stmts.get.get(id) as LoginDeliveryRow | undefined;
  }

  /** The organization's newest deliveries with their attempts. */
  latest(orgId: string, limit: number): { deliveries: LoginDeliveryRow[]; attempts: LoginAttemptRow[] } {
    const deliveries = this.stmts.latest.all(orgId, limit) as LoginDeliveryRow[];
    if (!deliveries.length) return { deliveries, attempts: [] };
    const attempts = this.db
      .prepare(
        `SELECT * FROM login_webhook_attempts WHERE delivery_id IN (${deliveries.map(() => '?').join(', ')})
         ORDER BY delivery_id, attempt`,
      )
      .all(...deliveries.map((d) => d.id)) as LoginAttemptRow[];
    return { deliveries, attempts };
  }

  /** Ids of the organization's pending deliveries. */
  pendingOf(orgId: string): string[] {
    return (this.stmts.pendingOf.all(orgId) as { id: string }[]).map((r) => r.id);
  }

  /** Records an attempt and the delivery's new state in one transaction; false if it was no longer pending. */
  recordAttempt(attempt: LoginAttemptRow, verdict: AttemptVerdict, now: number): boolean {
    return this.db.transaction(() => {
      const changed = this.stmts.afterAttempt.run({
        id: attempt.delivery_id,
        attempt: attempt.attempt,
        status: verdict.status,
        next_attempt_at: verdict.status === 'pending' ? verdict.nextAttemptAt : null,
        status_code: attempt.status_code,
        error: verdict.status === 'failed' ? verdict.error : verdict.status === 'pending' ? attempt.error : null,
        now,
        finished_at: verdict.status === 'pending' ? null : now,
      }).changes;
      if (changed !== 1) return false;
      this.stmts.insertAttempt.run(attempt);
      return true;
    })();
  }

  /** pending -> failed without an attempt (the URL was removed, the job was canceled or timed out). */
  fail(id: string, error: string, now: number): boolean {
    return this.stmts.fail.run({ id, error, now }).changes === 1;
  }
}
