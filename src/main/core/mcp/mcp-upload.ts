// upload_file (stdio only): a file of the MCP files folder -> presigned upload (POST /api/s3/presign-upload) ->
// streamed PUT to its upload_url.
import fs from 'node:fs';
import path from 'node:path';
import { loadGot } from '../net/outbound-http.js';
import { sniff, SNIFF_BYTES } from '../video/uploads/media-sniffer.js';
import { SUPPORTED_TYPES, typeOfExtension } from '../../../shared/media-types.js';
import { API_ROUTES } from '../../../shared/api/index.js';
import { ApiCallError, callRoute, type CoreApi } from '../http/in-process-api.js';
import type { McpFileAccess } from './mcp-files.js';

/** Extensions whose type `typeOfExtension` does not know by that spelling. */
const EXTRA_EXTENSIONS: Record<string, string> = { jpeg: 'image/jpeg', jpe: 'image/jpeg', m4v: 'video/mp4' };

export interface UploadedFile {
  s3_key: string;
  size: number;
  content_type: string;
}

/** A refusal of the tool itself (before any API call), in the API's video-service code style. */
const refused = (message: string) => new ApiCallError(400, 'validation_error', message);

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The content type from the bytes (magic numbers), else from the extension; null when neither is supported. */
export async function detectContentType(file: string): Promise<string | null> {
  const sniffed = sniff(await readHead(file));
  if (sniffed && (SUPPORTED_TYPES as readonly string[]).includes(sniffed.type)) return sniffed.type;
  const ext = path.extname(file).slice(1).toLowerCase();
  const byExtension = EXTRA_EXTENSIONS[ext] ?? typeOfExtension(file);
  return byExtension === 'application/octet-stream' ? null : byExtension;
}

/** Sends the file to a presigned URL as a stream (never read whole into memory). */
async function putFile(url: string, file: string, contentType: string, size: number): Promise<UploadedFile> {
  const { default: got } = await loadGot(); // outside the try: a failed load is not a network error
  let res;
  try {
    res = await got.put(url, {
      body: fs.createReadStream(file),
      headers: { 'content-type': contentType, 'content-length': String(size) },
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'text',
    });
  } catch (err) {
    // The URL carries a signature: only the error code goes into the message.
    const code = (err as NodeJS.ErrnoException).code ?? 'network error';
    throw new ApiCallError(502, 'upload_failed', `The file could not be sent to its upload URL (${code}).`);
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    // S3 answers XML (or nothing): only the status counts there.
  }
  if (res.statusCode >= 400) {
    const code = typeof body.error === 'string' ? body.error : 'upload_failed';
    const message = typeof body.message === 'string' ? body.message : `The upload URL answered ${res.statusCode}.`;
    throw new ApiCallError(res.statusCode, code, message);
  }
  return { s3_key: '', size, content_type: contentType, ...body } as UploadedFile;
}

/** The scope of POST /api/s3/presign-upload, which the upload needs: checked before any file is looked at. */
export const UPLOAD_SCOPE = API_ROUTES.presignUpload.scope;

/** Uploads a regular file of the MCP files folder and returns its storage key (for generate_video variables). */
export async function uploadLocalFile(api: CoreApi, files: McpFileAccess, given: string): Promise<UploadedFile> {
  // Scope first: a key that may not upload learns nothing about the files here (not even whether one exists).
  files.requireScope(UPLOAD_SCOPE);
  const file = await files.fileToRead(given);
  const stat = await fs.promises.stat(file);
  const contentType = await detectContentType(file);
  if (!contentType) {
    throw refused(
      `${given} is not a supported image, video, audio or captions file. Supported: ${SUPPORTED_TYPES.join(', ')}.`,
    );
  }
  const presigned = await callRoute(api, 'presignUpload', {
    body: { kind: 'upload', contentType, fileName: path.basename(file) },
  });
  const { s3_key: key, upload_url: uploadUrl } = presigned.body;
  const stored = await putFile(uploadUrl, file, contentType, stat.size);
  return { ...stored, s3_key: key };
}
