import type { AppConfig } from '../../config/config.schema.js';
import type { Job, JobContext, JobHandler, JobOutcome } from '../../jobs/job-types.js';
import type { Logger } from '../../logger.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import { judgeAttempt } from '../../webhooks/webhook-retry.js';
import type { WebhookSecrets } from '../../webhooks/webhook-secrets.js';
import { sendWebhook, type SendResult } from '../../webhooks/webhook-sender.js';
import { signWebhook } from '../../webhooks/webhook-signer.js';
import { payloadAad, type LoginWebhookSealer } from './login-webhook-sealer.js';
import type { LoginDeliveryRow, LoginWebhooksRepo } from './login-webhooks.repo.js';

/** A job woken this much before its delivery is due (clock skew of the queue's timer) still runs. */
const EARLY_SLACK_MS = 25;

export interface LoginWebhookHandlerDeps {
  repo: LoginWebhooksRepo;
  sealer: LoginWebhookSealer;
  /** The organization's signing secrets (the same ones generation callbacks are signed with). */
  secrets: WebhookSecrets;
  log: Logger;
  config: AppConfig['webhooks'];
  outbound: OutboundPolicy;
  /** The organization's login webhook URL in clear, read at each attempt; null when it has none now. */
  receiverUrl(orgId: string): Promise<string | null>;
}

/**
 * The `login_webhook_delivery` job: each run is ONE signed POST of one delivery, exactly as generation callbacks
 * (video/webhooks' delivery job): the delivery row holds the attempt number and the next due time; 2xx done;
 * time-out, connection error, 408, 429, 5xx retried on webhooks.retryScheduleSec (judgeAttempt); 410, a redirect or
 * another 4xx fail at once. The body is opened from its sealed form for the attempt and never logged.
 */
export function createLoginWebhookDeliveryHandler(deps: LoginWebhookHandlerDeps): JobHandler {
  const { repo, log } = deps;

  const failWithoutAttempt = (d: LoginDeliveryRow, error: string): JobOutcome => {
    if (repo.fail(d.id, error, Date.now()))
      log.warn({ deliveryId: d.id, loginId: d.login_id, event: d.event, error }, 'login webhook delivery failed');
    return { status: 'failed', error };
  };

  const notPrepared = (error: string): SendResult => ({
    outcome: 'retry',
    statusCode: null,
    durationMs: 0,
    error,
    retryAfterMs: null,
  });

  /** Reads the URL, opens and signs the body, POSTs it. Null when the organization has no URL any more. */
  async function attemptOnce(d: LoginDeliveryRow, signal: AbortSignal): Promise<SendResult | null> {
    let url: string | null;
    let body: string;
    let signature: string;
    const msgTimestamp = Math.floor(Date.now() / 1000);
    try {
      url = await deps.receiverUrl(d.org_id);
      if (!url) return null;
      body = await deps.sealer.open(d.payload, payloadAad(d.id));
      signature = signWebhook(d.id, msgTimestamp, body, await deps.secrets.signing(d.org_id));
    } catch (err) {
      // Cannot be opened now (e.g. the secret store is away): a failed attempt, tried again later.
      log.error({ deliveryId: d.id, err: (err as Error).name }, 'login webhook could not be prepared');
      return notPrepared('could not open or sign the event (secret store unavailable?)');
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
    if (!d) return { status: 'failed', error: 'login webhook delivery not found' };
    if (d.status === 'delivered') return { status: 'done' };
    if (d.status === 'failed') return { status: 'failed', error: d.error ?? 'login webhook delivery failed' };
    const wait = (d.next_attempt_at ?? 0) - Date.now();
    if (wait > EARLY_SLACK_MS) return { status: 'retry', runAfterMs: wait };

    const attempt = d.attempts + 1;
    const startedAt = Date.now();
    const send = await attemptOnce(d, ctx.signal);
    if (!send) return failWithoutAttempt(d, 'the organization has no login webhook URL');
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
    if (!recorded) return { status: 'done' }; // settled elsewhere meanwhile (the URL was removed)
    // Ids, status and timing only: never the URL, the body or a signature.
    const line = {
      deliveryId: d.id,
      loginId: d.login_id,
      event: d.event,
      attempt,
      statusCode: send.statusCode,
      ms: send.durationMs,
      outcome: verdict.status,
      error: send.error,
      ...(send.logDetail ? { detail: send.logDetail } : {}),
    };
    if (verdict.status === 'delivered') log.info(line, 'login webhook delivered');
    else
      log.warn(
        line,
        verdict.status === 'pending' ? 'login webhook attempt failed; will retry' : 'login webhook delivery failed',
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
