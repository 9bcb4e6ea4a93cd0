// The results, exports and media part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts,
// the one table): routes the session detail, the uploads list and the character editor use, and the
// channels only the main process answers (save dialogs, the file manager, files dropped or pasted into
// the window). Pure: zod and the shared schemas.
import { z } from 'zod';
import { PickedFileSchema } from './desktop.schema.js';
import type { Channel } from './ipc-contract.js';
import { SessionIdParamsSchema, SessionValidationSchema } from './login.schema.js';
import { UploadKeyParamsSchema, UploadListQuerySchema, UploadListSchema } from './uploads.schema.js';
import {
  CharacterIdParamsSchema,
  CharacterPatchSchema,
  CharacterSchema,
  GenerationIdParamsSchema,
} from './video.schema.js';

const json = <S extends z.ZodType>(schema: S) => ({ kind: 'json', schema }) as const;

/** A caller-chosen login id: sent as X-Login-Id with POST /api/login, it names the login's steps and its cancel. */
export const LoginIdSchema = z.string().regex(/^[\w.-]{1,64}$/, 'a login id is 1-64 letters, digits, _ . or -');
/** The request headers of POST /api/login the window sends (the server ignores an id it does not accept). */
export const LoginRequestHeadersSchema = z.object({ 'x-login-id': LoginIdSchema }).partial().strict();
/** POST /api/login/:id/cancel (the route's own params: 1-64 characters). */
export const LoginCancelParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Image types the window may paste from the clipboard (a screenshot, a copied picture). */
export const PASTED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** 20 MB (the image upload limit), base64-encoded. */
const PASTED_MAX_BASE64 = Math.ceil((20 * 1024 * 1024) / 3) * 4;

/** What a save dialog did: the file's name (never its folder) when saved, null when the person cancelled. */
export const SavedFileSchema = z.object({ saved: z.boolean(), name: z.string().nullable() });
export type SavedFile = z.infer<typeof SavedFileSchema>;

const fileName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^/\\:*?"<>|\x00-\x1f]+$/, 'a file name without a folder or reserved characters');

export const RESULTS_CHANNELS = {
  /** Opens the site with the cached session: still logged in? A dead one is dropped (or kept, with stored credentials). */
  'sessions:validate': {
    kind: 'http',
    method: 'POST',
    path: '/api/sessions/:id/validate',
    scope: 'sessions:write',
    params: SessionIdParamsSchema,
    answer: json(SessionValidationSchema),
  },
  /** Stops a running login started with an X-Login-Id; its POST /api/login answers LOGIN_CANCELLED. */
  'sessions:cancelLogin': {
    kind: 'http',
    method: 'POST',
    path: '/api/login/:id/cancel',
    scope: 'login:write',
    params: LoginCancelParamsSchema,
    answer: { kind: 'empty' },
  },

  /** The organization's stored files, newest first, with time-limited URLs (thumbnails). */
  'uploads:list': {
    kind: 'http',
    method: 'GET',
    path: '/api/uploads',
    scope: 'templates:read',
    query: UploadListQuerySchema,
    answer: json(UploadListSchema),
  },
  'uploads:delete': {
    kind: 'http',
    method: 'DELETE',
    path: '/api/uploads/:key',
    scope: 'templates:write',
    params: UploadKeyParamsSchema,
    answer: { kind: 'empty' },
  },
  /** Registers an image pasted into the window (bytes, base64) as a picked file, to upload like a chosen one. */
  'uploads:pickPasted': {
    kind: 'local',
    args: z
      .object({
        name: fileName.default('pasted image'),
        content_type: z.enum(PASTED_IMAGE_TYPES),
        data: z.base64().min(1).max(PASTED_MAX_BASE64),
      })
      .strict(),
    result: PickedFileSchema,
  },
  /**
   * A file dropped on the window, by the path the OS gave it. Preload only: the preload finds the
   * path of a dropped File itself (webUtils.getPathForFile); the page never names a path.
   */
  'uploads:pickDropped': {
    kind: 'local',
    preloadOnly: true,
    args: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: PickedFileSchema,
  },

  'characters:update': {
    kind: 'http',
    method: 'PATCH',
    path: '/api/characters/:id',
    scope: 'characters:write',
    params: CharacterIdParamsSchema,
    body: CharacterPatchSchema,
    answer: json(CharacterSchema),
  },
  'characters:delete': {
    kind: 'http',
    method: 'DELETE',
    path: '/api/characters/:id',
    scope: 'characters:write',
    params: CharacterIdParamsSchema,
    answer: { kind: 'empty' },
  },

  /** Asks where to save a text (a storageState JSON, a snippet) and writes it there. */
  'exports:saveText': {
    kind: 'local',
    args: z.object({ defaultName: fileName, text: z.string().min(1).max(20_000_000) }).strict(),
    result: SavedFileSchema,
  },
  /** Asks where to save a completed generation's video and downloads it there. */
  'generations:saveVideo': {
    kind: 'local',
    args: z.object({ id: GenerationIdParamsSchema.shape.id }).strict(),
    result: SavedFileSchema,
  },
  /** Shows the video in the OS file manager: the copy saved in this run, else the app's own stored file. */
  'generations:showInFolder': {
    kind: 'local',
    args: z.object({ id: GenerationIdParamsSchema.shape.id }).strict(),
    result: z.object({ shown: z.boolean() }),
  },
} as const satisfies Record<string, Channel>;
