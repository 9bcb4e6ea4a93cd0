// Zod schemas of the video service's generate routes (single, batch, quote) and of the generations they make.
// Pure like video.schema.ts: the renderer reuses them.
import { z } from 'zod';
import { httpUrlString } from './http-url.schema.js';
import { WEBHOOK_EVENT_NAMES } from './webhooks.schema.js';
import {
  VARIABLE_TYPES,
  AspectRatioSchema,
  OutputsRequestSchema,
  GENERATION_STATUSES,
  MAX_VIDEOS_PER_REQUEST,
  MAX_BATCH_ROWS,
  MAX_DEADLINE_SEC,
  DRAFTS_PER_MINUTE,
  RendererSchema,
  LIMITS,
  limitParam,
  offsetParam,
  PaginationSchema,
} from './video.schema.js';

// ---------------------------------------------------------------- generate

/** deadline_sec of generate and Create Generation. */
export const DeadlineSecSchema = z
  .number()
  .int('deadline_sec must be a whole number of seconds')
  .min(1)
  .max(MAX_DEADLINE_SEC)
  .describe(
    'Seconds from now: a generation whose render has not started by then ends `aborted` and is refunded in full; one ' +
      'that started and is still rendering then ends `failed` (time-out) and is refunded as any failure',
  );
/** webhook_events of generate and Create Generation. */
export const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_NAMES))
  .min(1)
  .max(WEBHOOK_EVENT_NAMES.length)
  .refine((a) => new Set(a).size === a.length, { message: 'webhook_events must not repeat an event' })
  .describe(
    'Callbacks the webhook_url gets, default ["completed","failed"]: started (the render began), progress (at most ' +
      'one every 2 s), completed, failed, aborted (also sent when failed is subscribed), canceled. Needs webhook_url',
  );

/**
 * The Idempotency-Key of generate and Create Generation: the header's value in the route table (so the OpenAPI
 * document shows the pattern), the rule the server checks it with, and the MCP tools' idempotency_key argument.
 */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1-255 visible ASCII characters')
  .describe('The same key and body within 24 h replay the first answer without charging again');

/** One row of a batch generate request: one video. */
export const GenerateBatchRowSchema = z
  .object({
    variables: z
      .record(z.string(), z.string())
      .default({})
      .describe('This row’s values (they win over top-level ones)'),
    character_variables: z.record(z.string(), z.string()).default({}),
  })
  .strict()
  .meta({ id: 'GenerateBatchRow' });
export type GenerateBatchRow = z.infer<typeof GenerateBatchRowSchema>;

export const GenerateRequestSchema = z
  .object({
    variables: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        'Variable key -> value (required unless batch is given; with batch: values shared by every row). Text: the ' +
          'text. Image/video/audio: an http(s) URL (re-hosted), a storage key, or a base64 data URI. Captions: SRT or ' +
          'WebVTT text, or the storage key of a captions upload (kind captions) of this organization',
      ),
    character_variables: z
      .record(z.string(), z.string())
      .default({})
      .describe('Image variable key -> character id (ingredients-to-video templates only)'),
    webhook_url: httpUrlString('webhook_url').optional(),
    num_videos: z
      .number()
      .int()
      .min(1)
      .max(MAX_VIDEOS_PER_REQUEST)
      .default(1)
      .describe(`Videos to make, 1-${MAX_VIDEOS_PER_REQUEST}; charged num_videos x credits_per_video`),
    aspect_ratio: AspectRatioSchema.optional().describe("Frame shape; default: the template's aspect_ratio"),
    outputs: OutputsRequestSchema.optional(),
    draft: z
      .boolean()
      .optional()
      .describe(
        `A free preview: the local renderer at 360p and 12 fps (never a hosted provider), 0 credits, at most ${DRAFTS_PER_MINUTE} per minute per API key`,
      ),
    deadline_sec: DeadlineSecSchema.optional(),
    webhook_events: WebhookEventsSchema.optional(),
    batch: z
      .array(GenerateBatchRowSchema)
      .min(1)
      .max(MAX_BATCH_ROWS)
      .optional()
      .describe(
        `1-${MAX_BATCH_ROWS} rows, one video each (not with num_videos > 1): validated all-or-nothing (a 400 names the ` +
          'row, batch[i]), charged in one transaction; the answer’s batch_id lists and cancels them together',
      ),
  })
  .strict()
  .meta({
    id: 'GenerateRequest',
    description:
      'multipart/form-data: a file or text in the field `variables[KEY]`, a character id in `character_variables[KEY]`, ' +
      'plus the fields `webhook_url` and `num_videos` (and `aspect_ratio`; `outputs` as a JSON array or `mp4,webm`; a captions ' +
      'variable may be an .srt/.vtt file part); the fields `variables` and `character_variables` may also carry a JSON object.',
  });
export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;

export const GenerateResponseSchema = z
  .object({
    generations: z.array(
      z.object({
        generation_id: z.string(),
        status: z.literal('generating'),
        batch_index: z.number().optional().describe('With batch: the row it was made from'),
      }),
    ),
    template_id: z.string(),
    credits_charged: z.number(),
    latency_estimate_sec: z.object({ typical: z.number(), busy: z.number() }).nullable(),
    batch_id: z
      .string()
      .optional()
      .describe(
        'With batch: the id on every generation of it (GET /api/generations?batch_id=, POST /api/batches/:id/cancel)',
      ),
    draft: z.literal(true).optional().describe('Present on draft requests'),
  })
  .meta({ id: 'GenerateResponse' });

/** The answer of the quote routes: what generate / Create Generation with the same body would charge. */
export const QuoteSchema = z
  .object({
    credits: z.number().describe('What generate would charge now: per_video x num_videos (0 for a draft)'),
    per_video: z.number(),
    num_videos: z.number().describe('num_videos, or the number of batch rows'),
    provider: z.string().describe('The renderer: local, fal, replicate or comfyui'),
    model: z.string().describe('The pricing model'),
    resolution: z.string(),
    duration_sec: z.number().describe('The billed duration'),
    latency_estimate_sec: z.object({ typical: z.number(), busy: z.number() }).nullable(),
    balance_after: z.number().describe('The balance after such a charge; below 0, generate would answer 402'),
    draft: z.boolean(),
    renderer: RendererSchema,
  })
  .meta({ id: 'Quote' });
export type Quote = z.infer<typeof QuoteSchema>;
export type GenerateResponse = z.infer<typeof GenerateResponseSchema>;

// ---------------------------------------------------------------- generations

export const ResolvedInputSchema = z
  .object({
    type: z.enum(VARIABLE_TYPES),
    source: z
      .string()
      .describe(
        'text: request | default | empty. captions: request | default (the text, in value) | storage_key (a captions ' +
          'upload: storage_key, content_type and size; its text is read from the file). media: url | data_uri | ' +
          'storage_key | upload | default | character',
      ),
    value: z.string().optional().describe('Text variables, and captions given as text'),
    storage_key: z.string().optional(),
    content_type: z.string().optional(),
    size: z.number().optional(),
    character_id: z.string().optional(),
    slot: z.string().optional(),
    role: z
      .string()
      .optional()
      .describe("The variable's layout role for the local renderer (its own, or the guess from its key and type)"),
  })
  .meta({ id: 'ResolvedInput' });
export type ResolvedInput = z.infer<typeof ResolvedInputSchema>;

export const GenerationSchema = z
  .object({
    id: z.string(),
    generation_id: z.string().describe('Same as id'),
    status: z.enum(GENERATION_STATUSES),
    template_id: z.string(),
    batch_id: z.string().describe('Generations made by the same request share it'),
    batch_index: z.number().nullable().describe('The row of a batch request it was made from; null otherwise'),
    draft: z.boolean().describe('A free draft render (local renderer, 360p, 12 fps)'),
    renderer: RendererSchema,
    deadline_at: z
      .number()
      .nullable()
      .describe('From deadline_sec: not started by then -> aborted (refunded); still rendering -> failed'),
    started_at: z.number().nullable().describe('When the render began; null while queued'),
    webhook_events: z.array(z.enum(WEBHOOK_EVENT_NAMES)).describe('The callbacks webhook_url gets'),
    inputs: z
      .record(z.string(), ResolvedInputSchema)
      .describe('Resolved values per variable key (storage keys, character ids; never data URIs)'),
    prompt: z.string().nullable().describe('prompt_template with the {{key}} tokens replaced by the text values'),
    model: z.string(),
    resolution: z.string(),
    aspect_ratio: AspectRatioSchema,
    duration_sec: z.number(),
    progress: z.number().describe('0-100'),
    video_url: z
      .string()
      .nullable()
      .describe('Time-limited download URL (HTTP Range supported), when completed and not yet removed by retention'),
    video_url_expires_at: z.number().nullable(),
    thumbnail_url: z.string().nullable().describe('Time-limited URL of a JPEG frame of the video, when completed'),
    outputs: z
      .object({
        mp4: z.string().nullable(),
        webm: z.string().nullable().optional(),
        gif: z.string().nullable().optional(),
        vtt: z.string().nullable().optional(),
      })
      .describe(
        'Time-limited URLs of each requested output (mp4 is video_url), null until completed; only requested formats appear',
      ),
    queue_position: z
      .number()
      .nullable()
      .describe('While waiting to render: 1 = next. null once rendering started or finished'),
    files_expired_at: z
      .number()
      .nullable()
      .describe('When retention (generation.retentionDays) removed the video and thumbnail files'),
    error: z.string().nullable().describe('Failure message, when failed; why, when aborted'),
    webhook_url: z.string().nullable().describe('Query-string values are masked'),
    credits_charged: z.number(),
    credits_refunded: z.number(),
    created_at: z.number(),
    updated_at: z.number(),
    completed_at: z.number().nullable().describe('When it completed (status completed only)'),
    finished_at: z.number().nullable().describe('When it reached completed, failed, canceled or aborted'),
  })
  .meta({ id: 'Generation' });
export type Generation = z.infer<typeof GenerationSchema>;

export const GenerationListQuerySchema = z.object({
  limit: limitParam(LIMITS.generations.default, LIMITS.generations.max),
  offset: offsetParam,
  status: z.enum(GENERATION_STATUSES).optional(),
  template_id: z.string().min(1).max(200).optional(),
  batch_id: z.string().min(1).max(200).optional(),
  draft: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      "true: only drafts (the local renderer's free previews, e.g. the template editor's); false: none of them. " +
        'Without it, both.',
    ),
});
export const GenerationListSchema = z
  .object({ data: z.array(GenerationSchema), pagination: PaginationSchema })
  .meta({ id: 'GenerationList' });
export const GenerationIdParamsSchema = z.object({ id: z.string().min(1).max(200) });
