import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

export function isLoopbackHost(host: string | undefined): boolean {
  return !!host && LOOPBACK_HOST.test(host);
}

/** How many Host lines the request carried: Node keeps only the first in `headers.host`. */
function hostHeaderCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') count++;
  return count;
}

/**
 * Refuses any Host header that is not loopback: a DNS-rebinding page cannot reach the API. A request with
 * several Host lines is refused too (RFC 9112 3.2), or a proxy and this server could disagree on which one
 * counts; so is an HTTP/1.1 request without one (Node's own check is off: its 400 has an empty body).
 */
export function registerHostGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request on the hot path.
  app.addHook('onRequest', (req, _reply, done) =>
    done(hostRefusal(req.raw.rawHeaders, req.raw.httpVersion, req.headers.host)),
  );
}

function hostRefusal(rawHeaders: string[], httpVersion: string, host: string | undefined): AppError | undefined {
  const hosts = hostHeaderCount(rawHeaders);
  if (hosts > 1) return new AppError(400, 'validation_error', 'The request has more than one Host header.');
  if (hosts === 0 && httpVersion !== '1.0')
    return new AppError(400, 'validation_error', 'The request has no Host header (HTTP/1.1 requires one).');
  if (!isLoopbackHost(host))
    return new AppError(
      403,
      'forbidden_host',
      'This server only answers requests addressed to 127.0.0.1, localhost or [::1].',
    );
  return undefined;
}
