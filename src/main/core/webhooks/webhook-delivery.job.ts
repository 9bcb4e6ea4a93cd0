import type { WebhookEvent } from '../../../shared/webhooks.schema.js';
import type { Job, JobContext, JobHandler, JobOutcome } from '../jobs/job-types.js';
import { judgeAttempt } from './webhook-retry.js';
import type { DeliveryRow, WebhookDeliveriesRepo } from './webhook-deliveries.repo.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';
import { signWebhook } from './webhook-signer.js';
import type { WebhooksDeps } from '../video/webhooks/webhook-types.js';

/** A job woken this much before its delivery is due (clock skew of the queue's timer) still runs. */
const EARLY_SLACK_MS = 25;

type HandlerDeps = Pick<WebhooksDeps, 'log' | 'config' | 'events' | 'getWebhookUrl' | 'getVideoUrl' | 'outbound'> & {
  repo: WebhookDeliveriesRepo;
  secrets: WebhookSecrets;
};

/** The stored body with a fresh video_url: the event name, then the spec's fields in its order, then ours. */
async function bodyOf(d: DeliveryRow, deps: HandlerDeps): Promise<string> {
  const stored = JSON.parse(d.payload) as Partial<WebhookEvent>;
  const videoUrl = stored.status === 'completed' ? await deps.getVideoUrl(d.generation_id) : null;
  const event: WebhookEvent = {
    event: stored.event ?? d.event,
    generation_id: stored.generation_id ?? d.generation_id,
    status: stored.status ?? 'failed',
    template_id: stored.template_id ?? '',
    video_url: videoUrl ?? null,
    error: stored.error ?? null,
    ...(stored.progress !== undefined ? { progress: stored.progress } : {}),
    // Deliveries stored before these fields existed: not a draft, their own batch.
    draft: stored.draft ?? false,
    batch_id: stored.batch_id ?? '',
    batch_index: stored.batch_index ?? null,
  };
  return JSON.stringify(event);
}

/**
 * The `webhook_delivery` job: each run is ONE signed POST of one delivery. The delivery row (not the
 * job) is the source of truth for the attempt number and the next due time, so a run after a crash
 * or an early wake-up does the right thing. Outcomes: 2xx -> done; time-out, connection error, 408,
 * 429, 5xx -> retry on the schedule (or Retry-After, when longer) until it runs out; 410, a redirect
 * (never followed) or another 4xx -> failed at once. POST …/replay makes a new delivery.
 */
export function createWebhookDeliveryHandler(deps: HandlerDeps): JobHandler {
  const { repo, log, events } = deps;

  const report = (d: DeliveryRow, attempt: number, send: SendResult, outcome: 'delivered' | 'retrying' | 'failed') => {
    events.emit('webhook.attempt', {
      orgId: d.org_id,
      generationId: d.generation_id,
      deliveryId: d.id,
      attempt,
      statusCode: send.statusCode,
      outcome,
      error: send.error,
    });
    // Ids, status and timing only: never the URL, the body or a signature.
    const line = {
      deliveryId: d.id,
      generationId: d.generation_id,
      attempt,
      statusCode: send.statusCode,
      ms: send.durationMs,
      outcome,
      error: send.error,
      ...(send.logDetail ? { detail: send.logDetail } : {}),
    };
    if (outcome === 'delivered') log.info(line, 'webhook delivered');
    else log.warn(line, outcome === 'retrying' ? 'webhook attempt failed; will retry' : 'webhook delivery failed');
  };

  const failWithoutAttempt = (d: DeliveryRow, error: string): JobOutcome => {
    if (repo.fail(d.id, error, Date.now())) {
      events.emit('webhook.attempt', {
        orgId: d.org_id,
        generationId: d.generation_id,
        deliveryId: d.id,
        attempt: d.attempts,
        statusCode: null,
        outcome: 'failed',
        error,
      });
      log.warn({ deliveryId: d.id, generationId: d.generation_id, error }, 'webhook delivery failed');
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

  /** Reads the URL, builds and signs the body, POSTs it. Null when the generation has no URL (any more). */
  async function attemptOnce(d: DeliveryRow, signal: AbortSignal): Promise<SendResult | null> {
    let url: string | null;
    try {
      url = await deps.getWebhookUrl(d.generation_id);
    } catch (err) {
      // Cannot be opened now (e.g. the secret store is away): a failed attempt, tried again later.
      log.error({ deliveryId: d.id, err: (err as Error).name }, 'webhook URL could not be read');
      return notPrepared('could not read the webhook URL (secret store unavailable?)');
    }
    if (!url) return null;
    let body: string;
    let signature: string;
    const msgTimestamp = Math.floor(Date.now() / 1000);
    try {
      body = await bodyOf(d, deps);
      signature = signWebhook(d.id, msgTimestamp, body, await deps.secrets.signing(d.org_id));
    } catch (err) {
      log.error({ deliveryId: d.id, err: (err as Error).name }, 'webhook could not be prepared');
      return notPrepared('could not sign the callback (secret store unavailable?)');
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
    if (!d) return { status: 'failed', error: 'webhook delivery not found' };
    if (d.status === 'delivered') return { status: 'done' };
    if (d.status === 'failed') return { status: 'failed', error: d.error ?? 'webhook delivery failed' };
    const wait = (d.next_attempt_at ?? 0) - Date.now();
    if (wait > EARLY_SLACK_MS) return { status: 'retry', runAfterMs: wait };

    const attempt = d.attempts + 1;
    const startedAt = Date.now();
    const send = await attemptOnce(d, ctx.signal);
    if (!send) return failWithoutAttempt(d, 'the generation has no webhook URL');
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
    if (!recorded) return { status: 'done' }; // settled elsewhere meanwhile (canceled)
    report(
      d,
      attempt,
      send,
      verdict.status === 'delivered' ? 'delivered' : verdict.status === 'pending' ? 'retrying' : 'failed',
    );
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
