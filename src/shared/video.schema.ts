// Zod schemas of the video service HTTP API (templates, characters, generate, generations).
// Pure: imports nothing but zod, so the renderer can reuse them. Presigned-upload schemas live in
// the uploads section (written alongside).
import { z } from 'zod';
import { httpUrlString } from './http-url.schema.js';
import { TemplateProviderSchema } from './provider.schema.js';
import { WEBHOOK_EVENT_NAMES } from './webhooks.schema.js';

/** What a template makes; only `ingredients-to-video` templates accept `character_variables`. */
export const TEMPLATE_CATEGORIES = [
  'text-to-video',
  'image-to-video',
  'ingredients-to-video',
  'video-to-video',
  'audio-to-video',
] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
/** `captions`: SRT or WebVTT text, burned into the video at its cue times (or a sidecar .vtt with outputs "vtt"). */
export const VARIABLE_TYPES = ['text', 'image', 'video', 'audio', 'captions'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];
/** Where a media variable goes in the model call (start frame, ingredient image, source video...). */
export const VARIABLE_SLOTS = [
  'start_frame',
  'end_frame',
  'ingredient',
  'source_video',
  'reference_video',
  'audio',
] as const;
export type VariableSlot = (typeof VARIABLE_SLOTS)[number];
/** Frame shapes: landscape, portrait (stories, reels, shorts), square and 4:5 (feed posts). */
export const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:5'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export const AspectRatioSchema = z
  .enum(ASPECT_RATIOS)
  .describe('Frame shape; the resolution names the short side (720p 9:16 = 720x1280, 720p 4:5 = 720x900)');
/** Files a generation can deliver: the MP4 always; WebM (VP9/Opus), an animated GIF preview, WebVTT captions. */
export const OUTPUT_FORMATS = ['mp4', 'webm', 'gif', 'vtt'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export const OutputsRequestSchema = z
  .array(z.enum(OUTPUT_FORMATS))
  .min(1)
  .max(OUTPUT_FORMATS.length)
  .refine((a) => new Set(a).size === a.length, { message: 'outputs must not repeat a format' })
  .describe(
    'Files to make, default ["mp4"] (the MP4 is always made): webm (VP9/Opus), gif (an animated preview: the first 10 s at 10 fps, at most 480 px on its long side), vtt (the captions variable as a WebVTT sidecar)',
  );
/**
 * `canceled` (POST /api/generations/:id/cancel) and `aborted` (deadline_sec passed before the render started) are
 * ours; the spec names the other three.
 */
export const GENERATION_STATUSES = ['generating', 'completed', 'failed', 'canceled', 'aborted'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];
export const MAX_VIDEOS_PER_REQUEST = 4;
/** Rows of one batch generate request (one video each). */
export const MAX_BATCH_ROWS = 100;
/** Longest deadline_sec: a week. */
export const MAX_DEADLINE_SEC = 7 * 86_400;
/** Draft renders an API key may start per minute (free, so limited on their own). */
export const DRAFTS_PER_MINUTE = 30;
/** What the local renderer is, in the words a person reads before spending credits. */
export const LOCAL_RENDERER_LABEL =
  'Local draft (offline motion graphics: title cards, pan and zoom, cards, waveforms)';

/** Which engine makes (or made) the videos: the local ffmpeg renderer, or a hosted provider and its model. */
export const RendererSchema = z
  .object({
    kind: z.enum(['local', 'hosted']).describe('local: the offline ffmpeg renderer; hosted: an AI model provider'),
    name: z.string().describe('local, fal, replicate or comfyui'),
    model: z.string().nullable().describe('The provider’s model (fal endpoint, Replicate model); null for ComfyUI'),
    label: z.string().describe('What to show a person'),
  })
  .meta({ id: 'Renderer' });
export type Renderer = z.infer<typeof RendererSchema>;

export const LIMITS = {
  templates: { default: 50, max: 100 },
  characters: { default: 24, max: 60 },
  generations: { default: 50, max: 100 },
  uploads: { default: 50, max: 100 },
} as const;

/** `limit` over the maximum is clamped (the answer's pagination.limit says what was used); below 1 is a 400. */
export const limitParam = (def: number, max: number) =>
  z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .default(def)
    .transform((n) => Math.min(n, max))
    .describe(`Page size, default ${def}; values above ${max} are clamped to ${max}`);
export const offsetParam = z.coerce
  .number()
  .int('offset must be a whole number')
  .min(0, 'offset must be 0 or more')
  .default(0);

export const PaginationSchema = z
  .object({
    offset: z.number(),
    limit: z.number().describe('The page size used (after clamping)'),
    has_more: z.boolean(),
  })
  .meta({ id: 'Pagination' });

// ---------------------------------------------------------------- templates

export const LatencyEstimateSchema = z
  .object({ typical: z.number().positive(), busy: z.number().positive() })
  .strict()
  .meta({ id: 'LatencyEstimate', description: 'Seconds' });

export const InputVariableSchema = z
  .object({
    key: z.string(),
    label: z.string(),
    type: z.string().describe('text, image, video or audio'),
    required: z.boolean(),
    placeholder: z.string().optional(),
    description: z.string().optional(),
    default_value: z.string().optional(),
    max_length: z.number().optional(),
    min_length: z.number().optional(),
    slot: z.string().optional(),
  })
  .meta({ id: 'InputVariable' });

export const TemplateSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    category: z.string().describe(TEMPLATE_CATEGORIES.join(', ')),
    duration_sec: z
      .number()
      .nullable()
      .describe("Seconds; when the template sets none, the model's default duration (the one billed)"),
    latency_estimate_sec: z.object({ typical: z.number(), busy: z.number() }).nullable(),
    input_variables: z.array(InputVariableSchema),
    prompt_template: z.string().nullable(),
    model: z.string().describe('Model of the pricing table'),
    resolution: z.string(),
    aspect_ratio: AspectRatioSchema,
    provider: TemplateProviderSchema.nullable().describe(
      'Which engine makes the videos; null: the local ffmpeg renderer',
    ),
    credits_per_video: z
      .number()
      .nullable()
      .describe('Price of one video; null when no pricing applies (generate answers 400 pricing_error)'),
    renderer: RendererSchema.describe('Which engine renders it (drafts: always the local renderer)'),
    builtin: z.boolean().describe('Built-in templates are read-only (403 on PATCH/PUT/DELETE)'),
    created_at: z.number().nullable(),
    updated_at: z.number().nullable(),
  })
  .meta({ id: 'Template' });
export type Template = z.infer<typeof TemplateSchema>;

export const TemplateListQuerySchema = z.object({
  limit: limitParam(LIMITS.templates.default, LIMITS.templates.max),
  offset: offsetParam,
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
});
export const TemplateListSchema = z
  .object({ data: z.array(TemplateSchema), pagination: PaginationSchema })
  .meta({ id: 'TemplateList' });

export const InputVariableWriteSchema = z
  .object({
    key: z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
        'key must be 1-64 letters, digits or underscores, not starting with a digit',
      ),
    label: z.string().trim().min(1).max(200),
    type: z.enum(VARIABLE_TYPES),
    required: z.boolean().default(false),
    placeholder: z.string().max(500).optional(),
    description: z.string().max(2000).optional(),
    default_value: z.string().max(4096).optional(),
    max_length: z.number().int().min(1).max(100_000).optional(),
    min_length: z.number().int().min(0).max(100_000).optional(),
    slot: z.enum(VARIABLE_SLOTS).optional(),
  })
  .strict()
  .meta({ id: 'InputVariableWrite' });

const templateFields = {
  title: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable(),
  category: z.enum(TEMPLATE_CATEGORIES),
  duration_sec: z.number().positive().max(600).nullable(),
  latency_estimate_sec: LatencyEstimateSchema.nullable(),
  input_variables: z.array(InputVariableWriteSchema).max(32),
  prompt_template: z.string().max(10_000).nullable(),
  model: z.string().min(1).max(100),
  resolution: z.string().min(1).max(20),
  aspect_ratio: AspectRatioSchema,
  provider: TemplateProviderSchema.nullable(),
};

export const TemplateWriteSchema = z
  .object({
    ...templateFields,
    description: templateFields.description.default(null),
    duration_sec: templateFields.duration_sec.default(null),
    latency_estimate_sec: templateFields.latency_estimate_sec.default(null),
    prompt_template: templateFields.prompt_template.default(null),
    model: templateFields.model.default('studio-v1'),
    resolution: templateFields.resolution.default('720p'),
    aspect_ratio: templateFields.aspect_ratio.default('16:9'),
    provider: templateFields.provider.default(null),
  })
  .strict()
  .meta({ id: 'TemplateWrite' });
export type TemplateWrite = z.infer<typeof TemplateWriteSchema>;
/** PATCH: any subset of the fields (no defaults: absent fields keep their value); the merged template is validated as a whole. */
export const TemplatePatchSchema = z.object(templateFields).partial().strict().meta({ id: 'TemplatePatch' });
/** The answer of DELETE /api/templates/:id. */
export const TemplateDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const TemplateIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

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
          'text. Image/video/audio: an http(s) URL (re-hosted), a storage key, or a base64 data URI',
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
      .describe('text: request | default | empty. media: url | data_uri | storage_key | upload | default | character'),
    value: z.string().optional().describe('Text variables only'),
    storage_key: z.string().optional(),
    content_type: z.string().optional(),
    size: z.number().optional(),
    character_id: z.string().optional(),
    slot: z.string().optional(),
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
});
export const GenerationListSchema = z
  .object({ data: z.array(GenerationSchema), pagination: PaginationSchema })
  .meta({ id: 'GenerationList' });
export const GenerationIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

// ---------------------------------------------------------------- characters

export const CharacterSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    created_at: z.number().nullable().describe('Unix ms; null for the built-in public characters'),
    visibility: z.enum(['public', 'private']),
    reference_image_keys: z.array(z.string()),
    reference_image_urls: z
      .array(z.string().nullable())
      .describe(
        'Time-limited download URLs of the reference images (storage.urlTtlSec), in the order of reference_image_keys; null for a file that cannot be served',
      ),
  })
  .meta({ id: 'Character' });
export type Character = z.infer<typeof CharacterSchema>;

export const CharacterListQuerySchema = z.object({
  q: z.string().trim().min(2, 'q must be at least 2 characters').max(100).optional(),
  limit: limitParam(LIMITS.characters.default, LIMITS.characters.max),
  offset: offsetParam,
});
export const CharacterListSchema = z
  .object({ data: z.array(CharacterSchema), pagination: PaginationSchema })
  .meta({ id: 'CharacterList' });

export const CharacterCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().max(2000).nullable().default(null),
    reference_image_keys: z
      .array(z.string().min(1))
      .min(1)
      .max(4)
      .describe('1-4 reference images: storage keys of uploads (an http(s) URL or data URI is re-hosted first)'),
  })
  .strict()
  .meta({ id: 'CharacterCreate' });
export type CharacterCreate = z.infer<typeof CharacterCreateSchema>;
/** PATCH /api/characters/:id: any subset of the create fields; reference_image_keys replaces the whole list. */
export const CharacterPatchSchema = z
  .object({
    name: CharacterCreateSchema.shape.name,
    description: z.string().max(2000).nullable(),
    reference_image_keys: CharacterCreateSchema.shape.reference_image_keys,
  })
  .partial()
  .strict()
  .meta({ id: 'CharacterPatch' });
export type CharacterPatch = z.infer<typeof CharacterPatchSchema>;
export const CharacterIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

// ---------------------------------------------------------------- pricing

export const PricingSchema = z
  .object({
    default_model: z.string(),
    default_resolution: z.string(),
    models: z.record(
      z.string(),
      z.object({
        default_duration_sec: z.number(),
        max_duration_sec: z.number(),
        credits_per_second: z.record(z.string(), z.number()),
      }),
    ),
    formula: z.string(),
  })
  .meta({ id: 'Pricing' });

/** How a template's price is computed from the pricing table (GET /api/pricing says it too). */
export const PRICING_FORMULA = 'credits_per_video = max(1, ceil(duration_sec * credits_per_second[model][resolution]))';
