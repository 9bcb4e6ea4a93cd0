import type { DeliveryRow } from './webhook-deliveries.repo.js';

/** How one attempt of a delivery ended, as a kind may report it (never the URL or the body). */
export interface AttemptReport {
  attempt: number;
  statusCode: number | null;
  outcome: 'delivered' | 'retrying' | 'failed';
  error: string | null;
}

/**
 * A kind of webhook event: what one feature's deliveries have that another's do not. Storing, attempting, retrying,
 * failing and listing deliveries is the same for every kind (core/webhooks); a kind says only where its receiver is,
 * how its body is made from what it stored, and how its deliveries are named. Generation callbacks
 * (video/webhooks) and login events (login/webhooks) are the two kinds.
 */
export interface WebhookKind {
  /** The deliveries' `kind` column. */
  readonly name: string;
  /**
   * The job kind its deliveries run as. Queued jobs keep it in their rows across restarts, so a kind keeps the one it
   * began with (`webhook_delivery` for generations, `login_webhook_delivery` for logins).
   */
  readonly jobKind: string;
  /** How the log names its deliveries: 'webhook', 'login webhook'. */
  readonly noun: string;
  /** Finished deliveries are dropped after this long (when the organization's next one is made); unset: kept. */
  readonly keepFinishedMs?: number;
  /** The error of a delivery that fails because there is no receiver URL (any more). */
  readonly noReceiver: string;
  /** The attempt's error when the URL (`url`) or the body and signature (`body`) cannot be had now: tried again. */
  readonly unprepared: { readonly url: string; readonly body: string };
  /** Log fields that say what the delivery is about (ids only: never the URL or the body). */
  logFields(d: DeliveryRow): Record<string, unknown>;
  /** The receiver URL in clear, read at each attempt; null when there is none now. */
  receiverUrl(d: DeliveryRow): Promise<string | null>;
  /** The body to POST, made at each attempt from what was stored. */
  body(d: DeliveryRow): Promise<string>;
  /** Told of each attempt and of each failure without one (generations: the bus's webhook.attempt). */
  attempted?(d: DeliveryRow, report: AttemptReport): void;
}
