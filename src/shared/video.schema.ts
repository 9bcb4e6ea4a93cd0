// Zod schemas of the video service HTTP API shared by its parts (categories, variable types, renderers, limits,
// pagination), the templates and the pricing table. Generate and generations: video-generations.schema.ts;
// characters: video-characters.schema.ts. Pure: imports nothing but zod and other shared schemas, so the renderer
// can reuse them.
import { z } from 'zod';
import { TemplateProviderSchema } from './provider.schema.js';
import { VARIABLE_ROLES } from './variable-roles.js';

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

const ROLE_DESCRIPTION =
  `What the local renderer does with it: ${VARIABLE_ROLES.join(', ')}. Absent: guessed from the key, label and ` +
  'type (the editor shows the guess). The prompt goes to hosted models only; the local renderer lays out the roles';

export const InputVariableSchema = z
  .object({
    key: z.string(),
    label: z.string(),
    type: z.string().describe('text, image, video, audio or captions'),
    required: z.boolean(),
    placeholder: z.string().optional(),
    description: z.string().optional(),
    default_value: z.string().optional(),
    max_length: z.number().optional(),
    min_length: z.number().optional(),
    slot: z.string().optional(),
    role: z.string().optional().describe(ROLE_DESCRIPTION),
  })
  .meta({ id: 'InputVariable' });

/**
 * How long a scratch template is kept after its last change. Long enough for an editor left open over a working
 * day (each change restarts it), short enough that copies left by a quit or a crash do not pile up.
 */
export const SCRATCH_TEMPLATE_TTL_MS = 24 * 60 * 60_000;

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
    scratch: z
      .boolean()
      .describe(
        `A scratch template (a preview copy): not listed, deleted ${SCRATCH_TEMPLATE_TTL_MS / 3_600_000} h after its last change; see TemplateWrite`,
      ),
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
    default_value: z
      .string()
      .max(4096)
      .optional()
      .describe(
        'Used when a request gives the variable no value. text: the text; captions: SRT or WebVTT text, or the ' +
          'storage key of a captions upload (for captions longer than 4096 characters); image, video, audio: an ' +
          'http(s) URL or a storage key',
      ),
    max_length: z.number().int().min(1).max(100_000).optional(),
    min_length: z.number().int().min(0).max(100_000).optional(),
    slot: z.enum(VARIABLE_SLOTS).optional(),
    role: z.enum(VARIABLE_ROLES).optional().describe(ROLE_DESCRIPTION),
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

/** The definition of a template: what is checked, stored and generated from (the editor's body; built-in files). */
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
  .strict();
export type TemplateWrite = z.infer<typeof TemplateWriteSchema>;
/** PATCH: any subset of the fields (no defaults: absent fields keep their value); the merged template is validated as a whole. */
export const TemplatePatchSchema = z.object(templateFields).partial().strict();

// `scratch` is how long the template lives and whether it is listed, not part of its definition: the request
// bodies carry it next to the definition, and the service keeps it apart (built-in files cannot set it).
const scratchField = z
  .boolean()
  .optional()
  .describe(
    "true: a scratch template, made only to preview a template before it is saved (the editor's live preview). " +
      'GET /api/templates does not list it (nor count it in its pagination) and the service deletes it ' +
      `${SCRATCH_TEMPLATE_TTL_MS / 3_600_000} h after its last change (a sweep at start-up and every 10 minutes); ` +
      "GET /api/templates/:id, quote and generate (drafts, and paid renders after a quote: the editor's test render " +
      'with the provider) take it as any other template of the organization, and its generations keep their record ' +
      'once it is deleted. On PATCH/PUT: absent keeps the template as it is; false makes a scratch template an ' +
      'ordinary one (listed, kept); true is refused (400) for a template that is not scratch. Default false.',
  );

/** The body of POST and PUT /api/templates[/:id]: the definition and whether it is a scratch template. */
export const TemplateWriteBodySchema = TemplateWriteSchema.extend({ scratch: scratchField }).meta({
  id: 'TemplateWrite',
});
/** The body of PATCH /api/templates/:id. */
export const TemplatePatchBodySchema = TemplatePatchSchema.extend({ scratch: scratchField }).meta({
  id: 'TemplatePatch',
});
/** The answer of DELETE /api/templates/:id. */
export const TemplateDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const TemplateIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

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
