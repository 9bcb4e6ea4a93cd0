import crypto from 'node:crypto';
import got from 'got';
import { startHarness, startReceiver, storeResult, type ReceivedHook } from '../test/helpers/webhooks-harness.js';
import { percentile, round } from './lib/stats.js';

const DELIVERIES = 200;
const WARM_UP = 10;

const summary = (ms: number[]) => ({
  p50_ms: round(percentile(ms, 50)),
  p95_ms: round(percentile(ms, 95)),
  p99_ms: round(percentile(ms, 99)),
  max_ms: round(Math.max(...ms)),
});

/**
 * Webhook delivery latency after completion, to a receiver on 127.0.0.1: from the moment a generation
 * is marked completed (GenerationsService.complete + enqueueFor, as the pipeline does) until the
 * receiver has the request, and until the delivery is recorded as delivered, through the real
 * persistent job queue (SQLite job row, pick-up, secret from the keychain, presigned video_url,
 * signing, got POST). Baseline: the same signed POST sent directly with got, in the same run.
 * Deliveries run one after another. Target: p50 <= 50 ms.
 */
export async function runWebhooksBench(): Promise<Record<string, unknown>> {
  const arrivals = new Map<string, number>();
  let onArrival: ((hook: ReceivedHook) => void) | null = null;
  const receiver = await startReceiver((_n, hook) => {
    arrivals.set(hook.headers['webhook-id'], performance.now());
    onArrival?.(hook);
    return { status: 200 };
  });
  const h = await startHarness({ jobQueue: true, webhooks: { retryScheduleSec: [0, 1, 5] } });
  try {
    h.core.credits.grant(h.orgId, 20 * (DELIVERIES + WARM_UP));
    const gens = h.core.video.generations;
    const ids: { id: string; result: { videoKey: string; thumbnailKey: string } }[] = [];
    for (let i = 0; i < DELIVERIES + WARM_UP; i++) {
      const id = await h.generation(receiver.url);
      ids.push({ id, result: await storeResult(h.core, id) });
    }
    const delivered = new Map<string, number>();
    let onDelivered: ((deliveryId: string) => void) | null = null;
    h.core.log.level = 'warn'; // one info line per delivery would be part of what is measured otherwise
    const off = h.events.on('webhook.attempt', (e) => {
      if (e.outcome !== 'delivered') return;
      delivered.set(e.deliveryId, performance.now());
      onDelivered?.(e.deliveryId);
    });

    const toReceiver: number[] = [];
    const toRecorded: number[] = [];
    for (const [i, { id, result }] of ids.entries()) {
      const t0 = performance.now();
      if (!gens.complete(id, result)) throw new Error('could not complete');
      const deliveryId = h.webhooks.enqueueFor(id);
      if (!deliveryId) throw new Error('no delivery queued');
      await new Promise<void>((resolve) => {
        if (delivered.has(deliveryId)) return resolve();
        onDelivered = (d) => d === deliveryId && resolve();
      });
      if (i < WARM_UP) continue;
      toReceiver.push(arrivals.get(deliveryId)! - t0);
      toRecorded.push(delivered.get(deliveryId)! - t0);
    }
    off();

    // Baseline: sign and POST directly (no queue, no database, no keychain read).
    const secret = crypto.randomBytes(24);
    const direct: number[] = [];
    for (let i = 0; i < DELIVERIES + WARM_UP; i++) {
      const body = JSON.stringify({
        generation_id: `gen_${i}`,
        status: 'completed',
        template_id: 't',
        video_url: null,
        error: null,
      });
      const msgId = `msg_direct_${i}`;
      const ts = Math.floor(Date.now() / 1000);
      const t0 = performance.now();
      const sig = crypto.createHmac('sha256', secret).update(`${msgId}.${ts}.${body}`).digest('base64');
      await new Promise<void>((resolve, reject) => {
        onArrival = (hook) => hook.headers['webhook-id'] === msgId && resolve();
        got
          .post(receiver.url, {
            body,
            headers: {
              'content-type': 'application/json',
              'webhook-id': msgId,
              'webhook-timestamp': String(ts),
              'webhook-signature': `v1,${sig}`,
            },
            followRedirect: false,
            retry: { limit: 0 },
            throwHttpErrors: false,
          })
          .catch(reject);
      });
      if (i >= WARM_UP) direct.push(performance.now() - t0);
    }
    onArrival = null;

    const p50 = percentile(toReceiver, 50);
    return {
      deliveries: DELIVERIES,
      completion_to_receiver: summary(toReceiver),
      completion_to_recorded_delivered: summary(toRecorded),
      direct_got_post_baseline: summary(direct),
      target_p50_ms: 50,
      pass: p50 <= 50,
    };
  } finally {
    await h.close();
    await receiver.close();
  }
}
