// Zod schemas of what exists only between the desktop window and the main process (no HTTP route):
// app facts, picked files, the login answer's headers the window shows. Pure: imports nothing but zod
// and the shared API schemas. The IPC contract (ipc-contract.ts) refers to them.
import { z } from 'zod';
import { StoredUploadSchema } from './uploads.schema.js';

/**
 * Field kind: the opaque handle of a file the user chose in the OS file picker. The renderer never
 * sees or sends a path; the main process keeps the token -> path map (desktop/picked-files.ts).
 */
export const PickedFileToken = z.string().min(1).max(100).describe('picked-file token');

export const AppInfoSchema = z.object({
  version: z.string(),
  /** Where agents reach the local API, or null when it could not listen (see serverError). */
  serverUrl: z.string().nullable(),
  serverError: z.string().nullable(),
  dataDir: z.string(),
  /** Whether the desktop API key is kept in the secret store (else a per-launch key is used). */
  hasDesktopKey: z.boolean(),
  secretBackend: z.enum(['keychain', 'file']),
  secretStoreError: z.string().nullable(),
  /** Secrets this data dir stored that the secret store lacks (a move to another computer), said with the way out. */
  secretsMissing: z.string().nullable(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const UPLOAD_KINDS = ['image', 'video', 'audio', 'captions', 'any'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const PickedFileSchema = z.object({
  token: PickedFileToken,
  name: z.string(),
  size: z.number().int().min(0),
  content_type: z.string(),
});
export type PickedFile = z.infer<typeof PickedFileSchema>;

/** The stored upload (StoredUpload) plus the picked file's name. */
export const UploadedFileSchema = StoredUploadSchema.extend({ name: z.string() });
export type UploadedFile = z.infer<typeof UploadedFileSchema>;
