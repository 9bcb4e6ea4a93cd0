// The kinds of channel the IPC contract (ipc-contract.ts) lists: a route of the API, the upload of a picked file,
// or one the main process answers itself. Its own file, so the contract's parts (ipc-results-channels.ts,
// ipc-settings-channels.ts) and the contract itself import it without importing each other.
import type { z } from 'zod';
import type { ApiRouteName } from './api/index.js';
import type { PickedFileToken, UploadedFile } from './desktop.schema.js';

/**
 * A route of the core's HTTP API, by its name in the route table (src/shared/api): method, path, scope and
 * schemas are the table's. The IPC argument is `{ params, query, body, headers }`, each part the route's own
 * schema (query and headers optional); parts the route does not take are absent. The IPC value is the route's
 * success body (null for a 204), or `{ body, headers }` when the route declares `answerHeaders`. Files and
 * streams never cross IPC: the renderer plays them from their signed URLs (video_url).
 */
export interface HttpChannel {
  kind: 'http';
  route: ApiRouteName;
}

/**
 * A picked file sent to storage. Its `file` field is of kind PickedFileToken (an opaque handle, never
 * a path; main keeps the path). Main POSTs `presign` (from the file's name and type), then PUTs the
 * bytes to the upload URL that answer gives (`put`, when the URL is the API's own local store).
 */
export interface UploadChannel {
  kind: 'upload';
  args: z.ZodObject<{ file: typeof PickedFileToken }>;
  presign: 'presignUpload';
  put: 'putUpload';
  result: z.ZodType<UploadedFile>;
}

/**
 * Answered by the main process itself: app facts, the OS file picker, opening a link, and the
 * desktop-only administration (keys and organizations of every org, the core's settings, the theme).
 */
export interface LocalChannel {
  kind: 'local';
  args: z.ZodType;
  result: z.ZodType;
  /** Called by the preload's own functions only: its `invoke` refuses it (e.g. a dropped file's path). */
  preloadOnly?: true;
}

export type Channel = HttpChannel | UploadChannel | LocalChannel;
