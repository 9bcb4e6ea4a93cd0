// Zod schemas of the presigned-upload answers (POST /api/s3/presign-upload, the signed PUT) and of the
// organization's upload list (GET /api/uploads). Pure: zod and the shared pagination only. The presign
// request body stays with the route: its content types are the media table (src/shared/media-types.ts).
import { z } from 'zod';
import { LIMITS, limitParam, offsetParam, PaginationSchema } from './video.schema.js';

export const PresignedUploadSchema = z.object({
  s3_key: z.string().describe('Storage key to use in later requests: uploads/<org_id>/<random>/<name>.<ext>'),
  upload_url: z.string().describe('URL for an HTTP PUT of the file bytes, with Content-Type equal to content_type'),
  content_type: z.string(),
  max_bytes: z.number().int().describe('Largest accepted file for this type'),
});
export type PresignedUpload = z.infer<typeof PresignedUploadSchema>;

/** The answer of the local store's signed PUT (S3 answers its own way). */
export const StoredUploadSchema = z.object({ s3_key: z.string(), size: z.number().int(), content_type: z.string() });
export type StoredUpload = z.infer<typeof StoredUploadSchema>;

/** GET /api/uploads: the organization's stored files (complete uploads only), newest first. */
export const UploadListQuerySchema = z.object({
  limit: limitParam(LIMITS.uploads.default, LIMITS.uploads.max),
  offset: offsetParam,
  kind: z.enum(['image', 'video', 'audio']).optional().describe('Only files of this kind'),
});

export const UploadInfoSchema = z
  .object({
    s3_key: z.string().describe('The storage key to use in generate, createGeneration or characters'),
    file_name: z.string().nullable().describe('The name the file was uploaded with, when known'),
    kind: z.enum(['image', 'video', 'audio']),
    content_type: z.string(),
    size: z.number().int(),
    source: z
      .enum(['presign', 'url', 'data_uri', 'multipart'])
      .describe('presign: PUT to a presigned URL; url, data_uri, multipart: stored by the server from a request'),
    created_at: z.number().describe('Unix ms'),
    url: z
      .string()
      .nullable()
      .describe('Time-limited download URL (storage.urlTtlSec); null when the file cannot be served'),
  })
  .meta({ id: 'Upload' });
export type UploadInfo = z.infer<typeof UploadInfoSchema>;

export const UploadListSchema = z
  .object({ data: z.array(UploadInfoSchema), pagination: PaginationSchema })
  .meta({ id: 'UploadList' });

/** DELETE /api/uploads/:key: the storage key, percent-encoded as one path segment (its slashes as %2F). */
export const UploadKeyParamsSchema = z.object({ key: z.string().min(1).max(1024) });
