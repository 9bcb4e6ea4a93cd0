import type { WebhookAttempt, WebhookDeliveryStatus } from '../../../shared/webhooks.schema.js';
import type { AppConfig } from '../config/config.schema.js';
import type { Db } from '../db/database.js';
import type { JobHandler } from '../jobs/job-types.js';
import type { Logger } from '../logger.js';
import type { OutboundPolicy } from '../net/outbound-policy.js';
import {
  type AttemptRow,
  type DeliveriesWithAttempts,
  type DeliveryRow,
  type NewDelivery,
  WebhookDeliveriesRepo,
} from './webhook-deliveries.repo.js';
import { createWebhookDeliveryHandler } from './webhook-delivery.job.js';
import type { WebhookKind } from './webhook-kind.js';
import type { WebhookSecrets } from './webhook-secrets.js';

/** The part of the job queue deliveries use (core/jobs JobQueue satisfies it; tests drive their own). */
export interface DeliveryJobs {
  /** Synchronous, so it runs inside the transaction that stores the delivery; `kick()` after. */
  enqueue(job: { kind: string; refId: string; orgId: string | null; payload?: Record<string, unknown> }): string;
  kick(): void;
}

export interface WebhookDeliveriesDeps {
  db: Db;
  log: Logger;
  jobs: DeliveryJobs;
  config: AppConfig['webhooks'];
  secrets: WebhookSecrets;
  outbound?: OutboundPolicy;
}

/** What a delivery log shows of every kind's delivery, after what names it (its id, event and subject). */
export interface DeliveryState {
  status: WebhookDeliveryStatus;
  next_attempt_at: number | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
  attempts: WebhookAttempt[];
}

/** A delivery's state as the API shows it (never its body: the log says what happened, the receiver has what was sent). */
export function deliveryState(d: DeliveryRow, attempts: readonly AttemptRow[]): DeliveryState {
  return {
    status: d.status,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
    error: d.status === 'failed' ? d.error : null,
    created_at: d.created_at,
    finished_at: d.finished_at,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.started_at,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
    })),
  };
}

/**
 * The deliveries of one kind of event: stored in the one webhook_deliveries table, each delivered by the one
 * delivery job (createWebhookDeliveryHandler) registered under the kind's job kind. A feature makes one for its kind
 * and adds only what is its own: when an event becomes a delivery, and how its log entries look.
 */
export class WebhookDeliveries {
  private readonly repo: WebhookDeliveriesRepo;

  constructor(
    readonly kind: WebhookKind,
    private readonly deps: WebhookDeliveriesDeps,
  ) {
    this.repo = new WebhookDeliveriesRepo(deps.db);
  }

  /** The job handler to register with the queue under `kind.jobKind`. */
  handler(): JobHandler {
    const { log, config, secrets, outbound } = this.deps;
    return createWebhookDeliveryHandler({ repo: this.repo, kind: this.kind, secrets, log, config, outbound });
  }

  /**
   * Stores a new delivery and queues its job in one transaction (neither is left without the other; it may run
   * inside the caller's own), then wakes the queue. False when a delivery with its once_key exists already.
   */
  queue(row: Omit<NewDelivery, 'kind'>, jobPayload?: Record<string, unknown>): boolean {
    const queued = this.deps.db.transaction(() => {
      if (!this.repo.insert({ ...row, kind: this.kind.name }, Date.now(), this.kind.keepFinishedMs)) return false;
      this.deps.jobs.enqueue({
        kind: this.kind.jobKind,
        refId: row.id,
        orgId: row.org_id,
        ...(jobPayload ? { payload: jobPayload } : {}),
      });
      return true;
    })();
    if (queued) this.deps.jobs.kick();
    return queued;
  }

  get(id: string): DeliveryRow | undefined {
    const d = this.repo.get(id);
    return d?.kind === this.kind.name ? d : undefined;
  }

  /** The subject's latest automatic delivery of this event. */
  latestAutomatic(subjectId: string, event: string): DeliveryRow | undefined {
    return this.repo.latestAutomatic(this.kind.name, subjectId, event);
  }

  /** The organization's deliveries about one subject, oldest first, each with its attempts. */
  ofSubject<V>(orgId: string, subjectId: string, view: (d: DeliveryRow, attempts: AttemptRow[]) => V): V[] {
    return withAttempts(this.repo.ofSubject(this.kind.name, orgId, subjectId), view);
  }

  /** The organization's newest deliveries, newest first, each with its attempts. */
  latestOfOrg<V>(orgId: string, limit: number, view: (d: DeliveryRow, attempts: AttemptRow[]) => V): V[] {
    return withAttempts(this.repo.latestOfOrg(this.kind.name, orgId, limit), view);
  }

  /** Fails the organization's pending deliveries at once; returns their ids (their jobs are the caller's to cancel). */
  failPending(orgId: string, error: string): string[] {
    const now = Date.now();
    return this.repo.pendingOfOrg(this.kind.name, orgId).filter((id) => this.repo.fail(id, error, now));
  }
}

function withAttempts<V>(
  { deliveries, attempts }: DeliveriesWithAttempts,
  view: (d: DeliveryRow, attempts: AttemptRow[]) => V,
): V[] {
  return deliveries.map((d) =>
    view(
      d,
      attempts.filter((a) => a.delivery_id === d.id),
    ),
  );
}
