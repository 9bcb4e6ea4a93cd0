// Create Generation: the model-based endpoint (POST /api/generations) that takes uploaded storage keys.
import { z } from 'zod';
import { httpUrlString } from './http-url.schema.js';
import { AspectRatioSchema, MAX_VIDEOS_PER_REQUEST, OutputsRequestSchema } from './video.schema.js';
import { DeadlineSecSchema, WebhookEventsSchema } from './video-generations.schema.js';

const storageKey = (field: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(500)
    .refine((v) => !/^[a-z][a-z0-9+.-]*:/i.test(v), {
      message: `${field} must be a storage key (s3_key from POST /api/s3/presign-upload), not a URL`,
    });

export const MAX_INGREDIENT_IMAGES = 4;
export const MAX_REFERENCE_VIDEOS = 3;

export const CreateGenerationRequestSchema = z
  .object({
    prompt: z.string().trim().min(1).max(4000).describe('What the video shows'),
    modelName: z.string().min(1).max(100).describe('A model of the pricing table (GET /api/pricing)'),
    startFrameKey: storageKey('startFrameKey').optional().describe('An uploaded image: the first frame'),
    ingredientImageKeys: z
      .array(storageKey('ingredientImageKeys[]'))
      .max(MAX_INGREDIENT_IMAGES)
      .optional()
      .describe(`Up to ${MAX_INGREDIENT_IMAGES} uploaded images (people, products) to place in the video`),
    sourceVideoKey: storageKey('sourceVideoKey').optional().describe('An uploaded video to transform'),
    referenceVideoKeys: z
      .array(storageKey('referenceVideoKeys[]'))
      .max(MAX_REFERENCE_VIDEOS)
      .optional()
      .describe(`Up to ${MAX_REFERENCE_VIDEOS} uploaded videos as references (style, motion)`),
    audioKey: storageKey('audioKey').optional().describe('An uploaded audio track mixed into the video'),
    captionsKey: storageKey('captionsKey')
      .optional()
      .describe(
        'An uploaded SRT or WebVTT file (kind captions): burned into the video, or delivered as captions.vtt with outputs ["vtt"]',
      ),
    resolution: z.string().min(1).max(20).optional().describe("One of the model's priced resolutions (default 720p)"),
    duration_sec: z
      .number()
      .positive()
      .max(600)
      .optional()
      .describe("Seconds (default: the model's default duration); billed per second"),
    num_videos: z.number().int().min(1).max(MAX_VIDEOS_PER_REQUEST).default(1),
    aspect_ratio: AspectRatioSchema.optional().describe('Frame shape, default 16:9'),
    outputs: OutputsRequestSchema.optional(),
    webhook_url: httpUrlString('webhook_url').optional(),
    deadline_sec: DeadlineSecSchema.optional(),
    webhook_events: WebhookEventsSchema.optional(),
  })
  .strict()
  .meta({
    id: 'CreateGenerationRequest',
    description:
      'Keys are storage keys of this organization’s completed uploads of the right kind (images for startFrameKey and ' +
      'ingredientImageKeys, videos for sourceVideoKey and referenceVideoKeys, audio for audioKey, captions for captionsKey). The kind of video follows ' +
      'from the inputs: sourceVideoKey -> video-to-video, ingredientImageKeys -> ingredients-to-video, startFrameKey -> ' +
      'image-to-video, audioKey alone -> audio-to-video, else text-to-video.',
  });
export type CreateGenerationRequest = z.infer<typeof CreateGenerationRequestSchema>;
