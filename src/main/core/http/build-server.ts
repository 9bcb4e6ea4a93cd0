import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { API_ROUTES, type ApiRoute } from '../../../shared/api/index.js';
import type { AppConfig } from '../config/config.schema.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ApiKeysService } from '../tenancy/api-keys.service.js';
import './fastify-types.js';
import { registerAuth } from './plugins/auth.js';
import {
  clientErrorWriter,
  refuseConnect,
  registerErrorHandling,
  sendFrameworkError,
  sendRawError,
} from './plugins/errors.js';
import { registerHostGuard } from './plugins/host-guard.js';
import { registerRoutes, type RouteHandlers } from './route.js';

/** Request line + headers; past it Node answers 431 (in our shape, see clientErrorWriter). Node's default. */
const MAX_HEADER_BYTES = 16 * 1024;
/**
 * Longest path parameter the router matches (the raw, still percent-encoded text). Far above the schemas' own
 * limits (ids up to 200 characters, even fully percent-encoded), so the route's schema gives the 400, not the router.
 */
const MAX_PARAM_LENGTH = 2048;

/** What the server itself needs of the core: its settings, the API keys, the log. */
export interface ServerDeps {
  config: Pick<AppConfig, 'server'>;
  keys: ApiKeysService;
  log: Logger;
  /** Tests only: the rate limiter's clock (ms), so a test decides when buckets refill. */
  rateLimitNow?: () => number;
}

export interface BuildServerOptions {
  /** One handler per entry of the route table (core/routes.ts builds them; they may add hooks to the app). */
  routes: (app: FastifyInstance) => RouteHandlers;
  /** Largest upload a raw/multipart route accepts (bytes). */
  maxUploadBytes?: number;
}

const takesMultipart = (route: ApiRoute) => route.contentTypes?.includes('multipart/form-data') ?? false;

/** What the request log says of one answer: the route's pattern, never the URL (it can carry signatures). */
export interface RequestLogLine {
  method: string;
  route: string;
  status: number;
  ms: number;
  keyId?: string;
}

/** The line every answer (but the health check's) logs; the cached-path bench measures its cost with this function. */
export function logRequest(log: Logger, line: RequestLogLine): void {
  log.info(line, 'request');
}

/** In-flight requests get this long to finish when the server closes. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Builds the Fastify app (no listen): host guard, auth + rate limits, error shapes, OpenAPI, routes. */
export async function buildServer(core: ServerDeps, opts: BuildServerOptions): Promise<FastifyInstance> {
  const shutdown = { closing: false };
  const app = Fastify({
    // Requests are logged by the onResponse hook below (route pattern only: URLs can carry signatures).
    logger: false,
    bodyLimit: core.config.server.bodyLimitBytes,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Node refuses a request without Host with an empty 400; the host guard answers it in the API's shape.
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    // Answers given before any route runs, in the documented shape too (Fastify's and Node's are not).
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: clientErrorWriter({ maxHeaderBytes: MAX_HEADER_BYTES }),
  });
  app.server.on('connect', refuseConnect);
  // Node answers an `Expect` other than 100-continue itself with an empty 417 unless someone listens.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    sendRawError(req, res, new AppError(417, 'expectation_failed', 'Only "Expect: 100-continue" is supported.')),
  );

  registerHostGuard(app);
  registerAuth(app, { keys: core.keys, ...core.config.server.rateLimit, now: core.rateLimitNow });
  registerErrorHandling(app, core.log);

  // JSON APIs: plain text is not a body format here (it falls to the 415 below).
  app.removeContentTypeParser('text/plain');
  // Routes that stream their own body (uploads) take any content type; elsewhere it is a 415.
  app.addContentTypeParser('*', (req, _payload, done) => {
    if (req.routeOptions.config?.rawBody) return done(null, undefined);
    done(
      new AppError(
        415,
        'unsupported_media_type',
        `Unsupported Content-Type "${req.headers['content-type'] ?? ''}"; send application/json.`,
      ),
      undefined,
    );
  });

  // While shutting down, in-flight answers close their connection, so keep-alive sockets do not
  // hold the process open after the last request finished.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (shutdown.closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.decorate('shutdown', shutdown);
  // server.close() closes the keep-alive sockets that are idle at that moment; one still finishing a
  // response turns idle a moment later and would then hold close() open for the whole keep-alive
  // timeout (72 s). Keep reaping until the server has closed.
  // A client that stopped reading (a download left half-read) would hold it open forever: after a
  // grace period every connection is closed.
  app.addHook('preClose', async () => {
    shutdown.closing = true;
    const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    const cutoff = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    app.server.once('close', () => {
      clearInterval(reaper);
      clearTimeout(cutoff);
    });
  });

  app.addHook('onResponse', (req, reply, done) => {
    if (req.routeOptions.url === API_ROUTES.health.path) return done();
    logRequest(core.log, {
      method: req.method,
      route: req.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      keyId: req.auth?.keyId,
    });
    done();
  });

  const handlers = opts.routes(app);
  registerRoutes(app, handlers, (route) => !takesMultipart(route));
  // The multipart parser adds three hooks (two of them async) to every request of its scope: only the routes that
  // take multipart/form-data are in it. Elsewhere a multipart body is a 415 like any other non-JSON body.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: opts.maxUploadBytes ?? 200 * 1024 * 1024,
        files: 16,
        fields: 200,
        fieldSize: 1024 * 1024,
        parts: 256,
      },
    });
    registerRoutes(scope, handlers, takesMultipart);
  });
  await app.ready();
  return app;
}
