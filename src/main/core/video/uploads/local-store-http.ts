// The HTTP side of the local blob store: its signed PUT (/api/uploads/*) and its downloads (/api/files/*). The
// URLs carry the storage key in the path and the signature in the query (see local-blob-store.ts).
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_ROUTES } from '../../../../shared/api/index.js';
import { badRequest } from '../../errors.js';
import { drainRequest } from '../../http/drain-request.js';
import { decodeKey } from './storage/blob-keys.js';
import type { SignedQuery } from './storage/local-blob-store.js';
import type { UploadsService } from './uploads.service.js';

/** The storage key a local store URL names in place of its route's trailing `*` (percent-decoded). */
function keyFrom(url: string, route: { path: string }): string {
  const tail = url.split('?')[0].slice(route.path.length - 1);
  const key = decodeKey(tail);
  if (!key) throw badRequest('The URL does not name a valid storage key.');
  return key;
}

function signedQuery(q: unknown): SignedQuery {
  const out: SignedQuery = {};
  for (const name of ['ct', 'max', 'exp', 'fn', 'sig'] as const) {
    const v = (q as Record<string, unknown>)[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

/** GET (and HEAD) of a signed download URL: the file, or the requested byte range of it. */
export async function sendLocalFile(uploads: UploadsService, req: FastifyRequest, reply: FastifyReply) {
  const key = keyFrom(req.url, API_ROUTES.getFile);
  const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
  const file = await uploads.openLocalDownload(key, signedQuery(req.query), range, {
    headOnly: req.method === 'HEAD',
  });
  reply.header('content-type', file.contentType);
  reply.header('accept-ranges', 'bytes');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', 'private, no-transform');
  if (file.fileName) {
    const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
    reply.header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    );
  }
  if (file.range) {
    // getFile documents 200 (the route's success status) and 206: a Range request picks 206.
    reply.status(206);
    reply.header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`);
    reply.header('content-length', String(file.range.end - file.range.start + 1));
  } else {
    reply.header('content-length', String(file.size));
  }
  return file.stream ? reply.send(file.stream) : reply.send();
}

/** The signed PUT of an upload's bytes: checked before the body is read, then streamed to the store. */
export async function receiveLocalPut(uploads: UploadsService, req: FastifyRequest, reply: FastifyReply) {
  const key = keyFrom(req.url, API_ROUTES.putUpload);
  // Refused before the body is read (403/400/413/409): Node discards the unread body after the answer.
  const grant = await uploads.authorizeLocalPut(key, signedQuery(req.query), {
    contentType: req.headers['content-type'],
    contentLength: req.headers['content-length'],
  });
  const raw = req.raw;
  // The request is handed over as a plain Readable whose destruction does NOT destroy the socket
  // (a pipeline would): on a 413/400 mid-stream the rest is drained so the client sees the answer.
  const body = new PassThrough({ highWaterMark: 1024 * 1024 });
  raw.once('error', (err) => body.destroy(err));
  raw.once('close', () => {
    if (!raw.complete) body.destroy(new Error('the client aborted the upload'));
  });
  raw.pipe(body);
  // Aborted while the PUT was being authorized: 'close' has already fired, so no listener will end the body.
  if (raw.destroyed && !raw.complete) body.destroy(new Error('the client aborted the upload'));
  try {
    return await uploads.storeLocalPut(grant, body);
  } catch (err) {
    raw.unpipe(body);
    await drainRequest(raw);
    reply.header('connection', 'close');
    throw err;
  }
}
