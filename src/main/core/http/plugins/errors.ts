import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { ErrorShape } from '../../../../shared/errors.js';
import { AppError } from '../../errors.js';
import { SecretStoreUnavailableError } from '../../secrets/secret-store.js';
import type { Logger } from '../../logger.js';
import { zodMessage } from '../route.js';

const LOGIN_PATHS = /^\/(api\/)?(login|sessions|signup|refresh)(\/|\?|$)/;

/** Login-service paths render `{error: UPPER, message, details}`; everything else the video-service body. */
export function shapeFor(req: FastifyRequest): ErrorShape {
  return req.routeOptions.config?.api ?? (LOGIN_PATHS.test(req.url) ? 'login' : 'video');
}

const LOGIN_CODE_NAMES: Record<string, string> = {
  validation_error: 'INVALID_REQUEST',
  unauthorized: 'AUTHENTICATION_FAILED',
};

export function renderError(shape: ErrorShape, err: AppError): Record<string, unknown> {
  if (shape === 'video') return { error: err.code, message: err.message };
  const details = err.code === 'unauthorized' ? { reason: 'invalid_api_key', ...err.details } : err.details;
  return { error: LOGIN_CODE_NAMES[err.code] ?? err.code.toUpperCase(), message: err.message, details };
}

/** Maps anything thrown to an AppError; unexpected errors become a 500 without internals. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return new AppError(400, 'validation_error', zodMessage(err));
  if (err instanceof SecretStoreUnavailableError) return new AppError(503, 'secrets_unavailable', err.message);
  if (err instanceof Error && err.name === 'BrowserNotFoundError')
    return new AppError(503, 'browser_not_found', err.message);
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

export function registerErrorHandling(app: FastifyInstance, log: Logger): void {
  const send = (req: FastifyRequest, reply: FastifyReply, err: AppError) =>
    reply
      .status(err.status)
      .headers(err.headers)
      .type('application/json; charset=utf-8')
      .send(renderError(shapeFor(req), err));

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
