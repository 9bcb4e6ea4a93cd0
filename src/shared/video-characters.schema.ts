// Zod schemas of the video service's characters (GET/POST/PATCH/DELETE /api/characters).
// Pure like video.schema.ts: the renderer reuses them.
import { z } from 'zod';
import { MAX_BYTES } from './media-types.js';
import { LIMITS, limitParam, offsetParam, PaginationSchema } from './video.schema.js';

/** The longest reference image value: a base64 data URI of the largest image an upload takes, with its header. */
const MAX_REFERENCE_IMAGE_CHARS = Math.ceil(MAX_BYTES.image / 3) * 4 + 100;

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
      .array(z.string().min(1).max(MAX_REFERENCE_IMAGE_CHARS))
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
