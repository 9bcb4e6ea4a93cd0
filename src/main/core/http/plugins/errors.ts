import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { loginCodeName, type ErrorShape } from '../../../../shared/errors.js';
import { AppError } from '../../errors.js';
import { SecretsMissingError, SecretStoreUnavailableError } from '../../secrets/secret-store.js';
import type { Logger } from '../../logger.js';
import { zodMessage } from '../route.js';

// `/mcp` is the login service's too: its key refusals are `AUTHENTICATION_FAILED` (mcp.routes.ts).
const LOGIN_PATHS =
  /^\/(?:mcp|live|(?:api\/)?(?:login|sessions|mailboxes|signup|refresh|credentials|browser-profiles))(\/|\?|$)/;
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i;

/**
 * The API a path belongs to when no route says so (unmatched paths, URL and raw-socket errors): login-service
 * paths render `{error: UPPER, message, details}`, everything else the video-service body. The error-shape test
 * checks that this agrees with `config.api` of every documented route.
 */
export function shapeForPath(url: string): ErrorShape {
  // An absolute-form request target (`GET http://127.0.0.1:4780/api/login`) names the same path.
  return LOGIN_PATHS.test(url.replace(ORIGIN, '')) ? 'login' : 'video';
}

/** A matched route's own `config.api` decides; otherwise the path does. */
export function shapeFor(req: FastifyRequest): ErrorShape {
  return req.routeOptions.config?.api ?? shapeForPath(req.url);
}

export function renderError(shape: ErrorShape, err: AppError): Record<string, unknown> {
  if (shape === 'video') return { error: err.code, message: err.message };
  const details = err.code === 'unauthorized' ? { reason: 'invalid_api_key', ...err.details } : err.details;
  return { error: loginCodeName(err.code), message: err.message, details };
}

/** Maps anything thrown to an AppError; unexpected errors become a 500 without internals. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return new AppError(400, 'validation_error', zodMessage(err));
  if (err instanceof SecretStoreUnavailableError) return new AppError(503, 'secrets_unavailable', err.message);
  if (err instanceof SecretsMissingError) return new AppError(409, 'secrets_missing', err.message, err.details);
  if (err instanceof Error && err.name === 'BrowserNotFoundError')
    return new AppError(503, 'browser_not_found', err.message);
  if (err instanceof Error && err.name === 'BrowserLaunchError')
    return new AppError(503, 'browser_unavailable', err.message);
  const fe = err as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        415,
        'unsupported_media_type',
        'Unsupported Content-Type for this endpoint; send application/json.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'validation_error', 'The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'validation_error', 'Content-Length does not match the body.');
    // Raised by the router before any route runs (see frameworkErrors in build-server.ts).
    case 'FST_ERR_BAD_URL':
      return new AppError(400, 'validation_error', 'The URL path is not valid percent-encoding.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(400, 'validation_error', 'A path parameter is longer than this server accepts.');
  }
  if (fe.statusCode === 400 && err instanceof SyntaxError)
    return new AppError(400, 'validation_error', 'The body is not valid JSON.');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError(
      fe.statusCode,
      fe.statusCode === 404 ? 'not_found' : 'validation_error',
      fe.message ?? 'Bad request',
    );
  }
  return new AppError(500, 'server_error', 'Unexpected server error. See the log file for details.');
}

function send(req: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  return reply
    .status(err.status)
    .headers(err.headers)
    .type('application/json; charset=utf-8')
    .send(renderError(shapeFor(req), err));
}

/** Fastify's `frameworkErrors` option: errors of the router (bad percent-encoding, over-long parameters). */
export function sendFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  send(req, reply, toAppError(err));
}

export function registerErrorHandling(app: FastifyInstance, log: Logger): void {
  app.setErrorHandler((err, req, reply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) {
      log.error(
        {
          err: { message: (err as Error).message, stack: (err as Error).stack, code: (err as FastifyError).code },
          route: req.routeOptions.url,
        },
        'request failed',
      );
    }
    return send(req, reply, appErr);
  });

  app.setNotFoundHandler((req, reply) =>
    send(req, reply, new AppError(404, 'not_found', `No route for ${req.method} ${req.url.split('?')[0]}`)),
  );
}

/** Errors Node raises before a request exists (the bytes are not valid HTTP), by `err.code`. */
function clientErrorFor(code: string | undefined, maxHeaderBytes: number): AppError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(
        431,
        'header_too_large',
        `The request line and headers are larger than ${maxHeaderBytes / 1024} KB together.`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError(413, 'payload_too_large', 'The chunk extensions of the request body are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(408, 'request_timeout', 'The request was not received in time.');
    default:
      return new AppError(400, 'validation_error', 'The request is not valid HTTP/1.1.');
  }
}

const REQUEST_LINE = /^[A-Z]{1,16} (\S+)/;

/** The path of the request line at the start of the bytes Node could not parse, when it is there. */
function requestPathOf(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  return REQUEST_LINE.exec(rawPacket.subarray(0, 8192).toString('latin1'))?.[1] ?? '';
}

/** An error answer written by hand, for the places where Node answers before Fastify sees a request. */
function rawErrorResponse(shape: ErrorShape, err: AppError): { head: Record<string, string>; body: string } {
  const body = JSON.stringify(renderError(shape, err));
  return {
    head: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    },
    body,
  };
}

/**
 * Node's 'clientError' handler (replaces Fastify's, whose body is not one of ours): the bytes are not a request
 * Node can parse (malformed, headers over the limit, too slow), so no route runs and the answer is written on the
 * socket, in the shape of the API the request line names when it can be read. Nothing of the request is echoed:
 * it may carry a key.
 */
export function clientErrorWriter(opts: { maxHeaderBytes: number }) {
  return (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void => {
    // Like Node's own handler: answer only if nothing of an earlier response on this socket is on the wire.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const appErr = clientErrorFor(err.code, opts.maxHeaderBytes);
      const { head, body } = rawErrorResponse(shapeForPath(requestPathOf(err.rawPacket)), appErr);
      const lines = Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`HTTP/1.1 ${appErr.status} ${STATUS_CODES[appErr.status]}\r\n${lines.join('')}\r\n${body}`);
    }
    socket.destroy();
  };
}

/**
 * Node's 'connect' event (a CONNECT request): with no listener Node drops the connection without a word. This is
 * an API, not a proxy: a 400 in the shape of the path asked for (an authority-form target is the video shape).
 */
export function refuseConnect(req: { url?: string }, socket: Duplex): void {
  const err = new AppError(400, 'validation_error', 'CONNECT is not supported: this server is an API, not a proxy.');
  const { head, body } = rawErrorResponse(shapeForPath(req.url ?? ''), err);
  const lines = Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.end(`HTTP/1.1 400 ${STATUS_CODES[400]}\r\n${lines.join('')}\r\n${body}`);
  socket.on('error', () => socket.destroy());
}

/** Answers a request Node refuses before dispatching it (an `Expect` it does not support: 'checkExpectation'). */
export function sendRawError(req: { url?: string }, res: ServerResponse, err: AppError): void {
  const { head, body } = rawErrorResponse(shapeForPath(req.url ?? ''), err);
  res.writeHead(err.status, head).end(body);
}
