// Zod schemas of the presigned-upload answers (POST /api/s3/presign-upload, the signed PUT).
// Pure: imports nothing but zod. The request body stays with the route: its content types are the
// core's media table (video/uploads/media-types.ts).
import { z } from 'zod';

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
