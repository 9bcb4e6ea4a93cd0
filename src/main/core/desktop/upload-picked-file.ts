// The contract's `upload` channel: a picked file goes to storage the way an agent's file does. POST
// presign (from the file's name and type), then PUT of the bytes to the URL that answer gives: in
// process when the URL is the API's own local store, over HTTP otherwise (S3). Plain Node.
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { API_ROUTES } from '../../../shared/api/index.js';
import type { IpcResult } from '../../../shared/errors.js';
import type { UploadChannel, UploadedFile } from '../../../shared/ipc-contract.js';
import { StoredUploadSchema, type StoredUpload } from '../../../shared/uploads.schema.js';
import type { EventSender } from './desktop-events.js';
import { callHttpRoute, fail } from './http-channel.js';
import { answerResult } from './http-channel.js';
import type { CoreApi } from '../http/in-process-api.js';
import type { PickedFiles } from './picked-files.js';

/** At most one progress event per this many ms while bytes flow (the first and last always go out). */
const PROGRESS_EVERY_MS = 100;

const formatMb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export interface UploadDeps {
  api: CoreApi;
  files: PickedFiles;
  emit: EventSender;
}

export async function uploadPickedFile(
  channel: UploadChannel,
  deps: UploadDeps,
  token: string,
): Promise<IpcResult<UploadedFile>> {
  const entry = deps.files.get(token);
  if (!entry) return fail('not_found', 'Pick the file again: this upload handle is unknown or already used.');
  let size: number;
  try {
    size = (await fs.promises.stat(entry.path)).size;
  } catch (err) {
    return fail('file_unreadable', `Cannot read ${entry.name}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let lastSent = 0;
  const progress = (loaded: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastSent < PROGRESS_EVERY_MS) return;
    lastSent = now;
    deps.emit('upload:progress', { id: token, loaded, total: size });
  };
  progress(0, true);

  const presign = (await callHttpRoute(deps.api, channel.presign, {
    body: { kind: 'upload', contentType: entry.content_type, fileName: entry.name },
  })) as IpcResult<{ s3_key: string; upload_url: string; content_type: string; max_bytes: number }>;
  if (!presign.ok) return presign;
  const { s3_key, upload_url, content_type, max_bytes } = presign.value;
  if (size > max_bytes) {
    return fail(
      'file_too_large',
      `${entry.name} is ${formatMb(size)}; the limit for ${content_type} is ${formatMb(max_bytes)}.`,
    );
  }

  let loaded = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      loaded += chunk.length;
      progress(loaded);
      done(null, chunk);
    },
  });
  const source = fs.createReadStream(entry.path);
  source.on('error', (err) => counter.destroy(err));
  const body = source.pipe(counter);
  const headers = { 'content-type': content_type, 'content-length': String(size) };
  const target = new URL(upload_url, 'http://127.0.0.1');
  let stored: IpcResult<StoredUpload>;
  if (deps.api.serves(target)) {
    // The service's own store: only its declared PUT route, never another path of the API.
    const put = API_ROUTES[channel.put];
    if (!target.pathname.startsWith(put.path.replace(/\*$/, ''))) {
      source.destroy();
      return fail('invalid_response', `The upload URL is not a ${put.method} ${put.path} URL.`);
    }
    const res = await deps.api.request({ method: put.method, url: target.pathname + target.search, headers, body });
    stored = answerResult(put, res) as IpcResult<StoredUpload>;
  } else {
    stored = await putToStorage(target, headers, body, { s3_key, size, content_type });
  }
  if (!stored.ok) return stored;
  progress(size, true);
  deps.files.forget(token);
  const result = channel.result.safeParse({ ...stored.value, name: entry.name });
  return result.success
    ? { ok: true, value: result.data }
    : fail('invalid_response', 'The storage answered the upload with an unexpected body.');
}

/** PUT to an outside store (S3). It answers no JSON of ours: the stored record is what was presigned and sent. */
async function putToStorage(
  target: URL,
  headers: Record<string, string>,
  body: Readable,
  sent: StoredUpload,
): Promise<IpcResult<StoredUpload>> {
  try {
    const res = await fetch(target, {
      method: 'PUT',
      headers,
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    if (!res.ok) return fail('upload_failed', `The storage answered ${res.status} ${res.statusText}.`);
    return { ok: true, value: StoredUploadSchema.parse(sent) };
  } catch (err) {
    body.destroy();
    return fail('upload_failed', `Upload failed: ${(err as Error).message}`);
  }
}
