// The results, exports and media part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts,
// the one table): routes the session detail, the uploads list and the character editor use, and the
// channels only the main process answers (save dialogs, the file manager, files dropped or pasted into
// the window). Pure: zod and the shared schemas.
import { z } from 'zod';
import { PickedFileSchema } from './desktop.schema.js';
import type { Channel } from './ipc-channel.js';
import { GenerationIdParamsSchema } from './video-generations.schema.js';

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
  'sessions:validate': { kind: 'http', route: 'validateSession' },
  /** Stops a running login started with an X-Login-Id; its POST /api/login answers LOGIN_CANCELLED. */
  'sessions:cancelLogin': { kind: 'http', route: 'cancelLogin' },

  /** The organization's stored files, newest first, with time-limited URLs (thumbnails). */
  'uploads:list': { kind: 'http', route: 'listUploads' },
  'uploads:delete': { kind: 'http', route: 'deleteUpload' },
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

  'characters:update': { kind: 'http', route: 'updateCharacter' },
  'characters:delete': { kind: 'http', route: 'deleteCharacter' },

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
