// Zod schemas of the presigned-upload answers (POST /api/s3/presign-upload, the signed PUT) and of the
// organization's upload list (GET /api/uploads), and the presign request (its content types are the media
// table, media-types.ts). Pure: zod and shared files only.
import { z } from 'zod';
import { formatBytes, MAX_BYTES, MEDIA_KINDS, MEDIA_TYPES, SUPPORTED_TYPES } from './media-types.js';
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
  kind: z.enum(MEDIA_KINDS).optional().describe('Only files of this kind'),
});

export const UploadInfoSchema = z
  .object({
    s3_key: z.string().describe('The storage key to use in generate, createGeneration or characters'),
    file_name: z.string().nullable().describe('The name the file was uploaded with, when known'),
    kind: z.enum(MEDIA_KINDS).describe('captions: an SRT or WebVTT file, for the captions variable of a template'),
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
    used_by: z
      .string()
      .nullable()
      .describe(
        "What still uses the file (a character's reference image, a generation being made), or null. Deleting it answers " +
          '409 upload_in_use while this is set.',
      ),
  })
  .meta({ id: 'Upload' });
export type UploadInfo = z.infer<typeof UploadInfoSchema>;

export const UploadListSchema = z
  .object({ data: z.array(UploadInfoSchema), pagination: PaginationSchema })
  .meta({ id: 'UploadList' });

/** DELETE /api/uploads/:key: the storage key, percent-encoded as one path segment (its slashes as %2F). */
export const UploadKeyParamsSchema = z.object({ key: z.string().min(1).max(1024) });

/** What the upload routes accept, in words (their docs and their errors say it). */
export const TYPES_TEXT =
  `Supported: ${SUPPORTED_TYPES.join(', ')} (${SUPPORTED_TYPES.filter((t) => MEDIA_TYPES[t].kind === 'captions').join(', ')}: ` +
  `SRT or WebVTT captions, UTF-8). Limits: ` +
  `${MEDIA_KINDS.map((k) => `${k} ${formatBytes(MAX_BYTES[k])}`).join(', ')} (MB = 1024 * 1024 bytes, KB = 1024 bytes).`;

/** POST /api/s3/presign-upload. */
export const PresignUploadRequestSchema = z.object({
  kind: z.enum(['upload'], {
    error: 'kind must be "upload" (the only kind: generic image, video, audio or captions files)',
  }),
  contentType: z
    .string({ error: 'contentType is required' })
    .trim()
    .toLowerCase()
    .pipe(z.enum(SUPPORTED_TYPES, { error: `unsupported contentType. ${TYPES_TEXT}` }))
    .describe(`MIME type of the file (case-insensitive). ${TYPES_TEXT}`),
  fileName: z
    .string()
    .max(255)
    .optional()
    .describe('Original file name; bookkeeping only (a sanitized form ends the storage key).'),
});

/**
 * The query of a local store URL: what its signature covers. The bounds are generous for what the server signs
 * (a MIME type, digits, a file name, 64 hex digits): they only keep an unsigned giant from reaching the verifier.
 */
export const SignedUrlQuerySchema = z.object({
  ct: z.string().max(255).optional().describe('Signed content type (uploads)'),
  max: z.string().max(20).optional().describe('Signed size limit in bytes (uploads)'),
  exp: z.string().max(20).optional().describe('Expiry, Unix seconds'),
  fn: z.string().max(1024).optional().describe('File name for Content-Disposition (downloads)'),
  sig: z.string().max(128).optional().describe('HMAC-SHA-256 signature (hex)'),
});
