// Zod schemas of the video service's signed webhooks: the callback body the receiver gets, the
// per-organization signing secret, and the delivery log. Pure: imports nothing but zod.
import { z } from 'zod';

/** Standard Webhooks message id prefix (`webhook-id` header); one id per delivery, stable across retries. */
export const WEBHOOK_ID_PREFIX = 'msg';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_TRIGGERS = ['automatic', 'replay'] as const;
export type WebhookTrigger = (typeof WEBHOOK_TRIGGERS)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * What a generation's receiver can be told (`webhook_events` on generate): `started` (the render began),
 * `progress` (at most one every 2 s), and the ends `completed`, `failed`, `aborted` (its deadline passed before it
 * started) and `canceled` (POST …/cancel).
 */
export const WEBHOOK_EVENT_NAMES = ['started', 'progress', 'completed', 'failed', 'aborted', 'canceled'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];
/** Sent when webhook_events is not given. An aborted generation is also sent whenever `failed` is subscribed. */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventName[] = ['completed', 'failed'];
/** The least time between two `progress` callbacks of one generation. */
export const PROGRESS_WEBHOOK_INTERVAL_MS = 2000;

/** The callback body (spec "Events"), POSTed as JSON to the generation's webhook_url. */
export const WebhookEventSchema = z
  .object({
    event: z.enum(WEBHOOK_EVENT_NAMES).describe('What happened; the same as status for the ends'),
    generation_id: z.string(),
    status: z
      .enum(['generating', 'completed', 'failed', 'aborted', 'canceled'])
      .describe('The generation’s status when the event happened (generating for started and progress)'),
    template_id: z.string(),
    video_url: z
      .string()
      .nullable()
      .describe('Presigned URL of the video on completion (signed at each attempt, so it is fresh); null on failure'),
    error: z.string().nullable().describe('Null on completion; the failure message on failure'),
    progress: z.number().optional().describe('0-100, on started and progress events'),
    draft: z.boolean().describe('A free draft render (draft: true on generate)'),
    batch_id: z.string().describe('The generation’s batch id (one per generate request)'),
    batch_index: z.number().nullable().describe('Its row in a batch request; null otherwise'),
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export const WebhookSecretSchema = z
  .object({
    secret: z.string().describe('whsec_ + base64 of 24 random bytes; verify callbacks with it (Standard Webhooks)'),
    created_at: z.number().describe('When this secret was made (ms since the epoch)'),
    previous_secret_expires_at: z
      .number()
      .nullable()
      .describe('After a rotation, the previous secret also signs callbacks until then (24 h)'),
  })
  .meta({ id: 'WebhookSecret' });
export type WebhookSecret = z.infer<typeof WebhookSecretSchema>;

export const WebhookAttemptSchema = z
  .object({
    attempt: z.number().describe('1 for the first try'),
    started_at: z.number(),
    duration_ms: z.number(),
    status_code: z.number().nullable().describe('The receiver’s HTTP status; null when no answer came'),
    error: z.string().nullable().describe('Why the attempt failed (time-out, connection error, HTTP status)'),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

/** A delivery's id, as every kind of delivery log shows it (generation callbacks, login events). */
export const WebhookDeliveryIdSchema = z
  .string()
  .describe('The webhook-id header: the same for every attempt of this delivery');

/** A delivery's state, as every kind of delivery log shows it after what names the delivery (one delivery mechanism). */
export const WEBHOOK_DELIVERY_STATE_FIELDS = {
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  next_attempt_at: z.number().nullable().describe('When the next attempt is due, while pending'),
  error: z.string().nullable().describe('Why it failed for good, when failed'),
  created_at: z.number(),
  finished_at: z.number().nullable(),
  attempts: z.array(WebhookAttemptSchema),
};

export const WebhookDeliverySchema = z
  .object({
    id: WebhookDeliveryIdSchema,
    generation_id: z.string(),
    trigger: z.enum(WEBHOOK_TRIGGERS).describe('automatic (the generation finished) or replay (POST …/replay)'),
    event: z.enum(WEBHOOK_EVENT_NAMES).describe('The event the callback reports'),
    ...WEBHOOK_DELIVERY_STATE_FIELDS,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z
  .object({ data: z.array(WebhookDeliverySchema).describe('Oldest first') })
  .meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
