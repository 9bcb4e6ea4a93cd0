import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../create-core.js';
import { badRequest } from '../../errors.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';
import {
  PresignedUploadSchema,
  StoredUploadSchema,
  UploadKeyParamsSchema,
  UploadListQuerySchema,
  UploadListSchema,
} from '../../../../shared/uploads.schema.js';
import { LIMITS } from '../../../../shared/video.schema.js';
import { formatBytes, MAX_BYTES, SUPPORTED_TYPES } from '../../../../shared/media-types.js';
import { decodeKey } from './storage/blob-keys.js';
import type { SignedQuery } from './storage/blob-store.js';

const TYPES_TEXT = `Supported: ${SUPPORTED_TYPES.join(', ')}. Limits: image ${formatBytes(MAX_BYTES.image)}, video ${formatBytes(MAX_BYTES.video)}, audio ${formatBytes(MAX_BYTES.audio)} (MB = 1024 * 1024 bytes).`;

const PresignBody = z.object({
  kind: z.enum(['upload'], {
    error: 'kind must be "upload" (the only kind: generic image, video or audio references)',
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

const SignedParams = z.object({
  ct: z.string().optional().describe('Signed content type (uploads)'),
  max: z.string().optional().describe('Signed size limit in bytes (uploads)'),
  exp: z.string().optional().describe('Expiry, Unix seconds'),
  fn: z.string().optional().describe('File name for Content-Disposition (downloads)'),
  sig: z.string().optional().describe('HMAC-SHA-256 signature (hex)'),
});

/** How much of a rejected body is still read (and dropped) so the client sees the error response. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

function keyFrom(url: string, prefix: string): string {
  const tail = url.split('?')[0].slice(prefix.length);
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

/** Reads and drops the rest of a request body (bounded), so an early error reply is not lost to a TCP reset. */
function drain(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/**
 * POST /api/s3/presign-upload, the local store's signed PUT /api/uploads/* and GET /api/files/*, and the
 * organization's stored files: GET /api/uploads, DELETE /api/uploads/:key.
 */
export function registerUploadsRoutes(app: FastifyInstance, registry: OpenApiRegistry, core: Core): void {
  const { uploads, blobs } = core.video;

  // Presigned URLs made outside a request (webhook video_url) use the address the server really listens on.
  app.addHook('onListen', async function () {
    const address = app.server.address();
    const local = blobs.selfServed;
    if (local && address && typeof address === 'object') {
      const host =
        address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
      local.setBaseUrl(`http://${host}:${address.port}`);
    }
  });

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/s3/presign-upload',
      api: 'video',
      scope: 'templates:read',
      summary: 'Create a presigned upload URL for an image, video or audio file',
      description:
        `Returns a storage key and a URL to PUT the file bytes to, with a Content-Type header equal to content_type. ${TYPES_TEXT} ` +
        'The URL expires after storage.urlTtlSec (default 900 s) and takes one file: after a complete PUT, another PUT is a 409. ' +
        'Local storage enforces max_bytes while receiving and decodes the file (ffprobe) before keeping it; with S3 storage the ' +
        'size and content are checked when the key is first used (S3 itself accepts repeated PUTs until the URL expires).',
      tags: ['uploads'],
      body: PresignBody,
      responses: {
        200: { description: 'The presigned upload', schema: PresignedUploadSchema },
        400: { description: 'validation_error: invalid kind or unsupported contentType' },
        500: { description: 'server_error: the URL could not be created' },
      },
    },
    ({ body, auth, req }) => uploads.presign(auth.orgId, body, { baseUrl: `http://${req.headers.host}` }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'PUT',
      url: '/api/uploads/*',
      api: 'video',
      scope: null,
      rawBody: true,
      summary: 'Receive the bytes of a presigned upload (local storage)',
      description:
        'No API key: the URL signature is the authorization. Single use: the first PUT claims the upload before its body is ' +
        'read; parallel PUTs to the same URL get 409 upload_in_progress, and once a file is stored every further PUT gets 409 ' +
        'upload_already_used. A PUT that fails (aborted, too large, not decodable) gives the URL back for a retry. The body is ' +
        'streamed to disk (never buffered), rejected past max_bytes, and decoded with ffprobe: it must really be an image, video ' +
        'or audio file of the signed kind; the response and the record carry its real type. Nothing partial is kept.',
      tags: ['uploads'],
      query: SignedParams.partial(),
      contentTypes: ['application/octet-stream'],
      responses: {
        200: { description: 'Stored', schema: StoredUploadSchema },
        400: { description: 'validation_error: wrong Content-Type, or the bytes do not decode as the signed kind' },
        403: { description: 'forbidden: signature missing or wrong, or the URL expired' },
        404: { description: 'not_found: the upload no longer exists' },
        409: {
          description: 'upload_already_used (a file was stored) or upload_in_progress (another PUT is receiving it)',
        },
        413: { description: 'payload_too_large: the file exceeds max_bytes' },
      },
    },
    async ({ req, reply }) => {
      const key = keyFrom(req.url, '/api/uploads/');
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
        await drain(raw);
        reply.header('connection', 'close');
        throw err;
      }
    },
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/uploads',
      api: 'video',
      scope: 'templates:read',
      summary: "List the organization's stored files (uploads and media the server stored from requests)",
      description:
        `Complete files only, newest first, each with its storage key and a time-limited download url (storage.urlTtlSec). ` +
        `kind filters to image, video or audio. limit defaults to ${LIMITS.uploads.default}; above ${LIMITS.uploads.max} it is clamped.`,
      tags: ['uploads'],
      query: UploadListQuerySchema,
      responses: {
        200: { description: 'A page of stored files', schema: UploadListSchema },
        400: { description: 'validation_error: bad kind, limit or offset' },
      },
    },
    ({ query, auth, req }) => uploads.list(auth.orgId, query, { baseUrl: `http://${req.headers.host}` }),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/uploads/:key',
      api: 'video',
      scope: 'templates:write',
      summary: 'Delete a stored file of the organization',
      description:
        'key: the storage key as one percent-encoded path segment (its slashes as %2F). The key stops resolving at once ' +
        '(generate and characters answer 400 for it). A file still used as a character reference image, or by a video ' +
        'being generated, is kept: 409 upload_in_use names what uses it.',
      tags: ['uploads'],
      params: UploadKeyParamsSchema,
      responses: {
        204: { description: 'Deleted' },
        404: { description: 'not_found: no such file in this organization' },
        409: { description: 'upload_in_use (details.used_by) or upload_in_progress (a PUT is receiving it)' },
      },
    },
    async ({ params, auth, reply }) => {
      await uploads.remove(auth.orgId, params.key);
      return reply.status(204).send();
    },
  );

  /** GET and HEAD of a signed download URL; HEAD answers the same headers without opening the file. */
  const serveFile = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = keyFrom(req.url, '/api/files/');
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
      reply.status(206);
      reply.header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`);
      reply.header('content-length', String(file.range.end - file.range.start + 1));
    } else {
      reply.header('content-length', String(file.size));
    }
    return file.stream ? reply.send(file.stream) : reply.send();
  };
  // Registered before the GET so Fastify does not add its own HEAD (which would read the whole file).
  app.route({ method: 'HEAD', url: '/api/files/*', config: { api: 'video', scope: null }, handler: serveFile });

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/files/*',
      api: 'video',
      scope: null,
      summary: 'Download a stored file through a presigned URL (local storage)',
      description:
        'No API key: the URL signature is the authorization. Supports a single byte Range; HEAD answers the headers only.',
      tags: ['uploads'],
      query: SignedParams.partial(),
      responses: {
        200: { description: 'The file bytes, with Content-Type and Content-Length' },
        206: { description: 'The requested byte range' },
        403: { description: 'forbidden: signature missing or wrong, or the URL expired' },
        404: { description: 'not_found: the file does not exist' },
        416: { description: 'range_not_satisfiable' },
      },
    },
    ({ req, reply }) => serveFile(req, reply),
  );
}
