import type { WebhookEvent, WebhookEventName } from '../../../../shared/webhooks.schema.js';
import type { DeliveryRow } from '../../webhooks/webhook-deliveries.repo.js';
import type { WebhookKind } from '../../webhooks/webhook-kind.js';
import { WEBHOOK_JOB_KIND, type WebhooksDeps } from './webhook-types.js';

/** The deliveries' kind of generation callbacks; their subject is the generation. */
export const GENERATION_WEBHOOK_KIND = 'generation';

/** The stored body with a fresh video_url: the event name, then the spec's fields in its order, then ours. */
async function bodyOf(d: DeliveryRow, getVideoUrl: WebhooksDeps['getVideoUrl']): Promise<string> {
  const stored = JSON.parse(d.payload) as Partial<WebhookEvent>;
  const videoUrl = stored.status === 'completed' ? await getVideoUrl(d.subject_id) : null;
  const event: WebhookEvent = {
    event: stored.event ?? (d.event as WebhookEventName),
    generation_id: stored.generation_id ?? d.subject_id,
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
 * Generation callbacks as a kind of webhook delivery: the receiver is the generation's own webhook_url (stored sealed
 * with it), the body is the stored one with a video_url signed at each attempt (it expires, so it is never stored),
 * and each attempt is also told on the bus (webhook.attempt), which the desktop shows.
 */
export function generationWebhookKind(
  deps: Pick<WebhooksDeps, 'events' | 'getWebhookUrl' | 'getVideoUrl'>,
): WebhookKind {
  return {
    name: GENERATION_WEBHOOK_KIND,
    jobKind: WEBHOOK_JOB_KIND,
    noun: 'webhook',
    noReceiver: 'the generation has no webhook URL',
    unprepared: {
      url: 'could not read the webhook URL (secret store unavailable?)',
      body: 'could not sign the callback (secret store unavailable?)',
    },
    logFields: (d) => ({ generationId: d.subject_id }),
    receiverUrl: async (d) => deps.getWebhookUrl(d.subject_id),
    body: (d) => bodyOf(d, deps.getVideoUrl),
    attempted: (d, r) =>
      deps.events.emit('webhook.attempt', {
        orgId: d.org_id,
        generationId: d.subject_id,
        deliveryId: d.id,
        attempt: r.attempt,
        statusCode: r.statusCode,
        outcome: r.outcome,
        error: r.error,
      }),
  };
}
