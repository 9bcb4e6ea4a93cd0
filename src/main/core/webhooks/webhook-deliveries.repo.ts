import type { WebhookDeliveryStatus, WebhookEventName, WebhookTrigger } from '../../../shared/webhooks.schema.js';
import type { Db } from '../db/database.js';
import type { AttemptVerdict } from './webhook-retry.js';

export interface DeliveryRow {
  id: string;
  generation_id: string;
  org_id: string;
  trigger: WebhookTrigger;
  /** What the callback reports (migration 0018; older rows: their status). */
  event: WebhookEventName;
  /** JSON of the callback body with video_url null (it is signed fresh at each attempt). */
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

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** The webhook tables (migration 0008). Only the webhooks feature uses it. */
export class WebhookDeliveriesRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO webhook_deliveries (id, generation_id, org_id, trigger, event, payload, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES (@id, @generation_id, @org_id, @trigger, @event, @payload, 'pending', 0, @now, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
      automaticOf: db.prepare(
        "SELECT * FROM webhook_deliveries WHERE generation_id = ? AND event = ? AND trigger = 'automatic' ORDER BY created_at DESC, rowid DESC LIMIT 1",
      ),
      ofGeneration: db.prepare(
        'SELECT * FROM webhook_deliveries WHERE generation_id = ? AND org_id = ? ORDER BY created_at, rowid',
      ),
      attemptsOf: db.prepare(
        `SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.generation_id = ? AND d.org_id = ? ORDER BY a.delivery_id, a.attempt`,
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
      pending: db.prepare("SELECT * FROM webhook_deliveries WHERE status = 'pending' ORDER BY next_attempt_at, rowid"),
    };
  }

  /** A new pending delivery, due now. Returns false when the generation already has an automatic one of this event. */
  insert(
    row: {
      id: string;
      generation_id: string;
      org_id: string;
      trigger: WebhookTrigger;
      event: WebhookEventName;
      payload: string;
    },
    now: number,
  ): boolean {
    try {
      this.stmts.insert.run({ ...row, now });
      return true;
    } catch (err) {
      if (row.trigger === 'automatic' && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw err;
    }
  }

  get(id: string): DeliveryRow | undefined {
    return this.stmts.get.get(id) as DeliveryRow | undefined;
  }

  /** The generation's automatic delivery of this event (the latest one, for progress). */
  automaticOf(generationId: string, event: WebhookEventName): DeliveryRow | undefined {
    return this.stmts.automaticOf.get(generationId, event) as DeliveryRow | undefined;
  }

  /** The organization's deliveries of a generation, oldest first, with their attempts. */
  ofGeneration(orgId: string, generationId: string): { deliveries: DeliveryRow[]; attempts: AttemptRow[] } {
    return {
      deliveries: this.stmts.ofGeneration.all(generationId, orgId) as DeliveryRow[],
      attempts: this.stmts.attemptsOf.all(generationId, orgId) as AttemptRow[],
    };
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

  /** pending -> failed without an attempt (the job was canceled, timed out, or the URL is gone). */
  fail(id: string, error: string, now: number): boolean {
    return this.stmts.fail.run({ id, error, now }).changes === 1;
  }

  /** Every pending delivery, soonest due first. */
  pending(): DeliveryRow[] {
    return this.stmts.pending.all() as DeliveryRow[];
  }
}
