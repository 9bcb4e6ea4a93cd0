import type { WebhookDeliveryStatus, WebhookTrigger } from '../../../shared/webhooks.schema.js';
import type { Db } from '../db/database.js';
import type { AttemptVerdict } from './webhook-retry.js';

/** One delivery of any kind of event (migration 0023 made one table of the generation and login ones). */
export interface DeliveryRow {
  /** The Standard Webhooks message id (webhook-id header): the same for every attempt of the delivery. */
  id: string;
  /** Whose event it is (WebhookKind.name): 'generation' or 'login'. */
  kind: string;
  org_id: string;
  /** What the event is about: a generation's id, a login's id. */
  subject_id: string;
  /** The event's name within its kind ('completed', 'login.finished', ...). */
  event: string;
  trigger: WebhookTrigger;
  /** Set on a delivery that is made at most once (a generation's automatic `completed`); unique when set. */
  once_key: string | null;
  /** What the kind stored to build the body from (its WebhookKind.body reads it). */
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

export type NewDelivery = Pick<
  DeliveryRow,
  'id' | 'kind' | 'org_id' | 'subject_id' | 'event' | 'trigger' | 'once_key' | 'payload'
>;

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** Deliveries with their attempts, as the delivery logs read them. */
export interface DeliveriesWithAttempts {
  deliveries: DeliveryRow[];
  attempts: AttemptRow[];
}

/** The webhook delivery tables (migration 0023), for every kind of event. Only core/webhooks uses it. */
export class WebhookDeliveriesRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO webhook_deliveries (id, kind, org_id, subject_id, event, trigger, once_key, payload, status, attempts,
           next_attempt_at, created_at, updated_at)
         VALUES (@id, @kind, @org_id, @subject_id, @event, @trigger, @once_key, @payload, 'pending', 0, @now, @now, @now)`,
      ),
      prune: db.prepare(
        'DELETE FROM webhook_deliveries WHERE org_id = ? AND kind = ? AND finished_at IS NOT NULL AND finished_at < ?',
      ),
      get: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
      latestAutomatic: db.prepare(
        `SELECT * FROM webhook_deliveries WHERE kind = ? AND subject_id = ? AND event = ? AND trigger = 'automatic'
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      ),
      ofSubject: db.prepare(
        'SELECT * FROM webhook_deliveries WHERE kind = ? AND subject_id = ? AND org_id = ? ORDER BY created_at, rowid',
      ),
      attemptsOfSubject: db.prepare(
        `SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.kind = ? AND d.subject_id = ? AND d.org_id = ? ORDER BY a.delivery_id, a.attempt`,
      ),
      latestOfOrg: db.prepare(
        'SELECT * FROM webhook_deliveries WHERE org_id = ? AND kind = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
      ),
      pendingOfOrg: db.prepare(
        "SELECT id FROM webhook_deliveries WHERE org_id = ? AND kind = ? AND status = 'pending'",
      ),
      insertAttempt: db.prepare(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
         VALUES (@delivery_id, @attempt, @started_at, @duration_ms, @status_code, @error)`,
      ),
      afterAttempt: db.prepare(
        `UPDATE webhook_deliveries SET attempts = @attempt, status = @status, next_attempt_at = @next_attempt_at,
           last_status_code = @status_code, error = @error, updated_at = @now, finished_at = @finished_at
         WHERE id = @id AND status = 'pending'`,
      ),
      fail: db.prepare(
        `UPDATE webhook_deliveries SET status = 'failed', error = @error, next_attempt_at = NULL, updated_at = @now, finished_at = @now
         WHERE id = @id AND status = 'pending'`,
      ),
    };
  }

  /**
   * A new pending delivery, due now. Returns false when one with its once_key exists already. With keepFinishedMs,
   * the organization's finished deliveries of this kind older than that go first (kinds whose deliveries belong to
   * nothing else that goes away, as a login's, would otherwise grow without end).
   */
  insert(row: NewDelivery, now: number, keepFinishedMs?: number): boolean {
    if (keepFinishedMs !== undefined) this.stmts.prune.run(row.org_id, row.kind, now - keepFinishedMs);
    try {
      this.stmts.insert.run({ ...row, now });
      return true;
    } catch (err) {
      if (row.once_key !== null && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw err;
    }
  }

  get(id: string): DeliveryRow | undefined {
    return this.stmts.get.get(id) as DeliveryRow | undefined;
  }

  /** The subject's latest automatic delivery of this event (for once-only events and for thinning out progress). */
  latestAutomatic(kind: string, subjectId: string, event: string): DeliveryRow | undefined {
    return this.stmts.latestAutomatic.get(kind, subjectId, event) as DeliveryRow | undefined;
  }

  /** The organization's deliveries about one subject, oldest first, with their attempts. */
  ofSubject(kind: string, orgId: string, subjectId: string): DeliveriesWithAttempts {
    return {
      deliveries: this.stmts.ofSubject.all(kind, subjectId, orgId) as DeliveryRow[],
      attempts: this.stmts.attemptsOfSubject.all(kind, subjectId, orgId) as AttemptRow[],
    };
  }

  /** The organization's newest deliveries of a kind, newest first, with their attempts. */
  latestOfOrg(kind: string, orgId: string, limit: number): DeliveriesWithAttempts {
    const deliveries = this.stmts.latestOfOrg.all(orgId, kind, limit) as DeliveryRow[];
    if (!deliveries.length) return { deliveries, attempts: [] };
    const attempts = this.db
      .prepare(
        `SELECT * FROM webhook_attempts WHERE delivery_id IN (${deliveries.map(() => '?').join(', ')})
         ORDER BY delivery_id, attempt`,
      )
      .all(...deliveries.map((d) => d.id)) as AttemptRow[];
    return { deliveries, attempts };
  }

  /** Ids of the organization's pending deliveries of a kind. */
  pendingOfOrg(kind: string, orgId: string): string[] {
    return (this.stmts.pendingOfOrg.all(orgId, kind) as { id: string }[]).map((r) => r.id);
  }

  /** Records an attempt and the delivery's new state in one transaction; false if it was no longer pending. */
  recordAttempt(attempt: AttemptRow, verdict: AttemptVerdict, now: number): boolean {
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

  /** pending -> failed without an attempt (the job was canceled or timed out, the URL is gone or was removed). */
  fail(id: string, error: string, now: number): boolean {
    return this.stmts.fail.run({ id, error, now }).changes === 1;
  }
}
