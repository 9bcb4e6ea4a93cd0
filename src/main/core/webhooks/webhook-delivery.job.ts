import type { AppConfig } from '../config/config.schema.js';
import type { Job, JobContext, JobHandler, JobOutcome } from '../jobs/job-types.js';
import type { Logger } from '../logger.js';
import type { OutboundPolicy } from '../net/outbound-policy.js';
import type { DeliveryRow, WebhookDeliveriesRepo } from './webhook-deliveries.repo.js';
import type { AttemptReport, WebhookKind } from './webhook-kind.js';
import { judgeAttempt } from './webhook-retry.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';
import { signWebhook } from './webhook-signer.js';

/** A job woken this much before its delivery is due (clock skew of the queue's timer) still runs. */
const EARLY_SLACK_MS = 25;

export interface DeliveryHandlerDeps {
  repo: WebhookDeliveriesRepo;
  kind: WebhookKind;
  /** The organization's signing secrets (one set for every kind). */
  secrets: WebhookSecrets;
  log: Logger;
  config: AppConfig['webhooks'];
  /** Where receivers may be (core/net); default: the default policy. */
  outbound?: OutboundPolicy;
}

/**
 * The delivery job of one kind (registered under kind.jobKind): each run is ONE signed POST of one delivery. The
 * delivery row (not the job) is the source of truth for the attempt number and the next due time, so a run after a
 * crash or an early wake-up does the right thing. Outcomes: 2xx -> done; time-out, connection error, 408, 429, 5xx ->
 * retry on webhooks.retryScheduleSec (or Retry-After, when longer) until it runs out; 410, a redirect (never
 * followed) or another 4xx -> failed at once. A replay is a new delivery, not a re-run of this one.
 */
export function createWebhookDeliveryHandler(deps: DeliveryHandlerDeps): JobHandler {
  const { repo, kind, log } = deps;

  const report = (d: DeliveryRow, send: SendResult, r: AttemptReport) => {
    kind.attempted?.(d, r);
    // Ids, status and timing only: never the URL, the body or a signature.
    const line = {
      deliveryId: d.id,
      ...kind.logFields(d),
      attempt: r.attempt,
      statusCode: send.statusCode,
      ms: send.durationMs,
      outcome: r.outcome,
      error: send.error,
      ...(send.logDetail ? { detail: send.logDetail } : {}),
    };
    if (r.outcome === 'delivered') log.info(line, `${kind.noun} delivered`);
    else
      log.warn(
        line,
        r.outcome === 'retrying' ? `${kind.noun} attempt failed; will retry` : `${kind.noun} delivery failed`,
      );
  };

  const failWithoutAttempt = (d: DeliveryRow, error: string): JobOutcome => {
    if (repo.fail(d.id, error, Date.now())) {
      kind.attempted?.(d, { attempt: d.attempts, statusCode: null, outcome: 'failed', error });
      log.warn({ deliveryId: d.id, ...kind.logFields(d), error }, `${kind.noun} delivery failed`);
    }
    return { status: 'failed', error };
  };

  const notPrepared = (error: string): SendResult => ({
    outcome: 'retry',
    statusCode: null,
    durationMs: 0,
    error,
    retryAfterMs: null,
  });

  /** Reads the URL, makes and signs the body, POSTs it. Null when there is no receiver URL (any more). */
  async function attemptOnce(d: DeliveryRow, signal: AbortSignal): Promise<SendResult | null> {
    let url: string | null;
    try {
      url = await kind.receiverUrl(d);
    } catch (err) {
      // Cannot be opened now (e.g. the secret store is away): a failed attempt, tried again later.
      log.error({ deliveryId: d.id, err: (err as Error).name }, `${kind.noun} URL could not be read`);
      return notPrepared(kind.unprepared.url);
    }
    if (!url) return null;
    let body: string;
    let signature: string;
    const msgTimestamp = Math.floor(Date.now() / 1000);
    try {
      body = await kind.body(d);
      signature = signWebhook(d.id, msgTimestamp, body, await deps.secrets.signing(d.org_id));
    } catch (err) {
      log.error({ deliveryId: d.id, err: (err as Error).name }, `${kind.noun} could not be prepared`);
      return notPrepared(kind.unprepared.body);
    }
    return sendWebhook({
      url,
      body,
      headers: { 'webhook-id': d.id, 'webhook-timestamp': String(msgTimestamp), 'webhook-signature': signature },
      timeoutMs: deps.config.timeoutMs,
      signal,
      outbound: deps.outbound,
    });
  }

  async function run(job: Job, ctx: JobContext): Promise<JobOutcome> {
    const d = repo.get(job.refId);
    if (!d) return { status: 'failed', error: `${kind.noun} delivery not found` };
    if (d.status === 'delivered') return { status: 'done' };
    if (d.status === 'failed') return { status: 'failed', error: d.error ?? `${kind.noun} delivery failed` };
    const wait = (d.next_attempt_at ?? 0) - Date.now();
    if (wait > EARLY_SLACK_MS) return { status: 'retry', runAfterMs: wait };

    const attempt = d.attempts + 1;
    const startedAt = Date.now();
    const send = await attemptOnce(d, ctx.signal);
    if (!send) return failWithoutAttempt(d, kind.noReceiver);
    // Shut down or canceled mid-attempt: not an attempt; the queue re-runs it or calls onFinal.
    if (ctx.signal.aborted) return { status: 'retry', runAfterMs: 0 };

    const { verdict, outcome } = judgeAttempt(send, attempt, deps.config.retryScheduleSec);
    const recorded = repo.recordAttempt(
      {
        delivery_id: d.id,
        attempt,
        started_at: startedAt,
        duration_ms: send.durationMs,
        status_code: send.statusCode,
        error: send.error,
      },
      verdict,
      Date.now(),
    );
    if (!recorded) return { status: 'done' }; // settled elsewhere meanwhile (canceled, the URL removed)
    report(d, send, {
      attempt,
      statusCode: send.statusCode,
      outcome: verdict.status === 'delivered' ? 'delivered' : verdict.status === 'pending' ? 'retrying' : 'failed',
      error: send.error,
    });
    return outcome;
  }

  return {
    lane: 'io',
    // Above the receiver's time-out, so the queue's own limit (which fails the job for good) never cuts an attempt short.
    timeoutMs: deps.config.timeoutMs + 30_000,
    run,
    onFinal(job, status, error) {
      if (status === 'done') return;
      const d = repo.get(job.refId);
      if (d?.status === 'pending') failWithoutAttempt(d, status === 'canceled' ? 'canceled' : (error ?? 'failed'));
    },
  };
}
