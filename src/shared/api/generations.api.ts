import { z } from 'zod';
import {
  DRAFTS_PER_MINUTE,
  LIMITS,
  MAX_BATCH_ROWS,
  MAX_VIDEOS_PER_REQUEST,
  TemplateIdParamsSchema,
} from '../video.schema.js';
import {
  GenerateRequestSchema,
  GenerateResponseSchema,
  GenerationIdParamsSchema,
  GenerationListQuerySchema,
  GenerationListSchema,
  GenerationSchema,
  IdempotencyKeySchema,
  QuoteSchema,
} from '../video-generations.schema.js';
import { CreateGenerationRequestSchema } from '../create-generation.schema.js';
import { WebhookDeliveryListSchema, WebhookDeliverySchema, WebhookSecretSchema } from '../webhooks.schema.js';
import { defineApiRoutes } from './api-route.js';

/** The Idempotency-Key header (the route checks it with this schema). */
const IdempotencyHeadersSchema = z.object({ 'idempotency-key': IdempotencyKeySchema }).partial().strict();

const STATES =
  'status: generating (on creation) -> completed (video_url set, a presigned URL valid storage.urlTtlSec) | failed (error set; ' +
  'the charge is refunded; also when deadline_sec passes while it renders: a time-out) | canceled (POST ' +
  '/api/generations/:id/cancel or POST /api/batches/:id/cancel while generating; the charge is refunded) | aborted ' +
  '(deadline_sec passed before the render started; error says so; the charge is refunded in full). ' +
  'renderer names what renders it (the local renderer for drafts); draft, batch_id/batch_index, deadline_at, started_at ' +
  'and webhook_events echo the request. ' +
  'inputs holds the resolved values (storage keys, character ids, text); webhook_url is shown with its query values masked.';

const SIGNING =
  'Callbacks are signed per Standard Webhooks: headers webhook-id (same for every attempt of a delivery), ' +
  'webhook-timestamp (seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>", one per ' +
  'active secret, space-separated. Verify with any Standard Webhooks library and this secret.';

const RETRIES =
  'Each delivery is tried on the schedule webhooks.retryScheduleSec (default at once, 5 s, 5 min, 30 min, 2 h, 5 h, ' +
  '10 h, 14 h, 20 h, 24 h, +-10 % jitter) after a time-out (webhooks.timeoutMs, 15 s), a connection error, 408, 429 ' +
  'or 5xx; Retry-After on 429/503 is honoured when longer (up to 24 h). 410, a redirect (never followed) or another ' +
  '4xx fails it at once.';

const OPTIONS =
  `draft: true makes a free preview with the local renderer (360p, 12 fps; never a hosted provider, 0 credits, at most ` +
  `${DRAFTS_PER_MINUTE} per minute per API key, then 429 rate_limited with Retry-After). deadline_sec: not started by then -> ` +
  'aborted, refunded in full; started and still rendering -> failed (time-out), refunded. webhook_events (needs webhook_url): ' +
  'the callbacks to send, default ["completed","failed"]; also started, progress (at most one every 2 s), aborted (sent ' +
  'anyway when failed is subscribed) and canceled. ' +
  `batch: 1-${MAX_BATCH_ROWS} rows {variables, character_variables?}, one video each, with the top-level variables, ` +
  'character_variables (and multipart files) shared by every row (a row’s own value wins); not with num_videos > 1. All ' +
  'rows are validated before anything is stored (a 400 names the row, batch[i]) and charged in one transaction (one ledger ' +
  'entry whose ref is the batch id); the answer has batch_id and each generation its batch_index. In multipart, batch is a ' +
  'JSON field, webhook_events a JSON array or a comma-separated list, draft true/false.';

const QUOTE =
  'Nothing is charged or stored: no generation, no Idempotency-Key record, no upload kept (multipart files are read and ' +
  'dropped), no media download — a media value is checked for its shape only (an http(s) URL, a data: URI or a storage ' +
  'key), so a URL that cannot be fetched or a key that is not an upload is refused by generate only. Every other problem ' +
  'gets the 400 generate would answer. credits is what generate charges (per_video x num_videos; 0 for a draft); ' +
  'balance_after may be below 0 (generate would answer 402). A draft quote does not count against the draft limit.';

/** The answer of POST /api/batches/:id/cancel. */
export const BatchCancelSchema = z
  .object({
    batch_id: z.string(),
    canceled: z.array(z.string()).describe('Ids of the generations this call canceled (the others had finished)'),
    credits_refunded: z.number().describe('What this call refunded in all'),
  })
  .meta({ id: 'BatchCancel' });

/** JSON bodies of generate may carry media as data URIs: larger than the default JSON limit. */
export const GENERATE_JSON_LIMIT_BYTES = 64 * 1024 * 1024;

/** Generating videos (from templates and from models), the generations, and their webhooks. */
export const GENERATIONS_API = defineApiRoutes({
  generate: {
    method: 'POST',
    path: '/api/templates/:id/generate',
    api: 'video',
    scope: 'templates:read',
    rawBody: true,
    bodyLimit: GENERATE_JSON_LIMIT_BYTES,
    contentTypes: ['application/json', 'multipart/form-data'],
    summary: 'Generate videos from a template (charges credits)',
    description:
      'Rules: an omitted (or empty) text variable takes its default_value; a required variable with neither value nor default is a 400 ' +
      'naming it; text is checked against min_length/max_length (10000 when unset); unknown variable keys are a 400. ' +
      'Image variables take character_variables[key], then variables[key], then default_value; character_variables only on ' +
      'ingredients-to-video templates, and only characters the key’s organization can see (public or its own). Media values: ' +
      'an http(s) URL (downloaded and re-hosted), a base64 data URI (stored), a storage key of an upload, or in multipart a file ' +
      'part in `variables[KEY]`. A captions variable: SRT or WebVTT text, an .srt/.vtt file part in multipart, or the storage ' +
      "key of a captions upload of this organization (its text is read and checked like pasted text; the generation's " +
      'inputs record the key, not the text). multipart fields: `variables[KEY]` (file or text), `character_variables[KEY]`, `webhook_url`, ' +
      '`num_videos`, or JSON objects in the fields `variables` / `character_variables`. ' +
      `num_videos (1-${MAX_VIDEOS_PER_REQUEST}, default 1) generations are created and num_videos x credits_per_video credits are charged ` +
      'atomically. Idempotency-Key header (1-255 visible ASCII characters): the same key and body within 24 h replay the first ' +
      'answer (header Idempotent-Replayed: true) without charging again; the same key with another body is a 409 idempotency_conflict; ' +
      'while the first request runs, 409 idempotency_in_progress. Failed requests do not keep the key. JSON bodies up to 64 MB. ' +
      OPTIONS,
    tags: ['generate'],
    params: TemplateIdParamsSchema,
    body: GenerateRequestSchema,
    headers: IdempotencyHeadersSchema,
    responses: {
      200: {
        description: 'Generations created, credits charged',
        schema: GenerateResponseSchema,
        headers: { 'Idempotent-Replayed': 'true on a replayed answer' },
      },
      400: {
        description:
          'validation_error (missing required variables, unknown keys, bad media, batch[i]: a batch row...) or pricing_error',
      },
      402: { description: 'insufficient_credits' },
      404: { description: 'not_found: no such template' },
      409: { description: 'idempotency_conflict or idempotency_in_progress' },
      429: {
        description: `rate_limited: more than ${DRAFTS_PER_MINUTE} draft renders a minute with this key (Retry-After)`,
      },
      413: { description: 'payload_too_large: a file over its kind’s limit' },
      415: { description: 'unsupported_media_type: send application/json or multipart/form-data' },
      422: { description: 'invalid_template: the stored template configuration is invalid' },
      500: { description: 'generation_error' },
      503: { description: 'secrets_unavailable: a webhook_url is kept sealed and the secret store is not reachable' },
    },
  },

  quoteTemplate: {
    method: 'POST',
    path: '/api/templates/:id/quote',
    api: 'video',
    scope: 'templates:read',
    rawBody: true,
    bodyLimit: GENERATE_JSON_LIMIT_BYTES,
    contentTypes: ['application/json', 'multipart/form-data'],
    summary: 'What generate with this body would charge (charges nothing)',
    description: `The body of POST /api/templates/:id/generate (num_videos, draft, batch...). ${QUOTE}`,
    tags: ['generate'],
    params: TemplateIdParamsSchema,
    body: GenerateRequestSchema,
    responses: {
      200: { description: 'The price and what would make the videos', schema: QuoteSchema },
      400: { description: 'validation_error or pricing_error, as generate would answer' },
      404: { description: 'not_found: no such template' },
      415: { description: 'unsupported_media_type' },
      422: { description: 'invalid_template' },
    },
  },

  quoteGeneration: {
    method: 'POST',
    path: '/api/generations/quote',
    api: 'video',
    scope: 'generations:write',
    summary: 'What Create Generation with this body would charge (charges nothing)',
    description: `The body of POST /api/generations. ${QUOTE}`,
    tags: ['generate'],
    body: CreateGenerationRequestSchema,
    responses: {
      200: { description: 'The price', schema: QuoteSchema },
      400: { description: 'validation_error or pricing_error, as Create Generation would answer' },
    },
  },

  createGeneration: {
    method: 'POST',
    path: '/api/generations',
    api: 'video',
    scope: 'generations:write',
    summary: 'Create Generation: a video from a model, a prompt and uploaded keys (charges credits)',
    description:
      'The model-based counterpart of template generate: priced per modelName (GET /api/pricing) at `resolution` and ' +
      '`duration_sec` (the model’s defaults when absent); every key must be a completed upload of this organization of the ' +
      'right kind. Runs through the same pipeline; the generations’ template_id is `model:<modelName>`. Idempotency-Key, ' +
      'deadline_sec and webhook_events as for generate.',
    tags: ['generate'],
    body: CreateGenerationRequestSchema,
    headers: IdempotencyHeadersSchema,
    responses: {
      200: { description: 'Accepted and charged', schema: GenerateResponseSchema },
      400: {
        description:
          'validation_error (bad body, a key that is not this org’s upload of the right kind) or pricing_error',
      },
      402: { description: 'insufficient_credits' },
      409: { description: 'idempotency_conflict or idempotency_in_progress' },
    },
  },

  listGenerations: {
    method: 'GET',
    path: '/api/generations',
    api: 'video',
    scope: 'generations:read',
    summary: 'List the organization’s generations, newest first',
    description: `Filters: status, template_id, batch_id (the generations of one batch request). limit defaults to ${LIMITS.generations.default}; above ${LIMITS.generations.max} it is clamped. ${STATES}`,
    tags: ['generations'],
    query: GenerationListQuerySchema,
    responses: {
      200: { description: 'A page of generations', schema: GenerationListSchema },
      400: { description: 'validation_error' },
    },
  },

  getGeneration: {
    method: 'GET',
    path: '/api/generations/:id',
    api: 'video',
    scope: 'generations:read',
    summary: 'Get a generation (status polling)',
    description: `Poll every typical latency / 6 seconds, clamped to 10-30 s. ${STATES}`,
    tags: ['generations'],
    params: GenerationIdParamsSchema,
    responses: {
      200: { description: 'The generation', schema: GenerationSchema },
      404: { description: 'not_found: no such generation in this organization' },
    },
  },

  cancelGeneration: {
    method: 'POST',
    path: '/api/generations/:id/cancel',
    api: 'video',
    scope: 'generations:write',
    summary: 'Cancel a generating generation and refund its credits',
    tags: ['generations'],
    params: GenerationIdParamsSchema,
    responses: {
      200: { description: 'The canceled generation (credits_refunded = credits_charged)', schema: GenerationSchema },
      404: { description: 'not_found' },
      409: { description: 'conflict: the generation is not generating (already completed, failed or canceled)' },
    },
  },

  cancelBatch: {
    method: 'POST',
    path: '/api/batches/:id/cancel',
    api: 'video',
    scope: 'generations:write',
    summary: 'Cancel every still-generating generation of a batch and refund each',
    description:
      'The id is the batch_id of a generate answer (any generate request’s generations share one). Generations that ' +
      'finished meanwhile are left as they are; calling it again cancels nothing more.',
    tags: ['generations'],
    params: GenerationIdParamsSchema,
    responses: {
      200: { description: 'What was canceled and refunded', schema: BatchCancelSchema },
      404: { description: 'not_found: no such batch in this organization' },
    },
  },

  deleteGeneration: {
    method: 'DELETE',
    path: '/api/generations/:id',
    api: 'video',
    scope: 'generations:write',
    summary: 'Delete a finished generation and its video and thumbnail files',
    tags: ['generations'],
    params: GenerationIdParamsSchema,
    responses: {
      204: { description: 'Deleted' },
      404: { description: 'not_found' },
      409: { description: 'conflict: still generating (cancel it first)' },
    },
  },

  webhookSecret: {
    method: 'GET',
    path: '/api/webhooks/secret',
    api: 'video',
    scope: 'webhooks:read',
    summary: 'The organization’s webhook signing secret (made on first use)',
    description: SIGNING,
    tags: ['webhooks'],
    responses: { 200: { description: 'The secret', schema: WebhookSecretSchema } },
  },

  rotateWebhookSecret: {
    method: 'POST',
    path: '/api/webhooks/secret/rotate',
    api: 'video',
    scope: 'webhooks:write',
    summary: 'Replace the webhook signing secret; the old one keeps signing for 24 h',
    description:
      'During the 24 h overlap every callback carries two signatures (new, old). A second rotation drops the oldest ' +
      'secret at once.',
    tags: ['webhooks'],
    responses: { 200: { description: 'The new secret', schema: WebhookSecretSchema } },
  },

  webhookDeliveries: {
    method: 'GET',
    path: '/api/generations/:id/webhooks',
    api: 'video',
    scope: 'generations:read',
    summary: 'The webhook delivery log of a generation',
    description: `Every delivery (automatic, replays), oldest first, with each attempt: time, duration, HTTP status, error. ${RETRIES}`,
    tags: ['webhooks'],
    params: GenerationIdParamsSchema,
    responses: {
      200: { description: 'Deliveries and attempts', schema: WebhookDeliveryListSchema },
      404: { description: 'not_found: no such generation in this organization' },
    },
  },

  replayWebhook: {
    method: 'POST',
    path: '/api/generations/:id/webhooks/replay',
    api: 'video',
    scope: 'generations:write',
    summary: 'Send the callback again, as a new delivery',
    description: `A new delivery (new webhook-id) of the generation's current state, with the full retry schedule. ${RETRIES}`,
    tags: ['webhooks'],
    params: GenerationIdParamsSchema,
    responses: {
      202: { description: 'Queued', schema: WebhookDeliverySchema },
      404: { description: 'not_found: no such generation in this organization' },
      409: { description: 'conflict: the generation is not completed or failed, or has no webhook_url' },
    },
  },
});
