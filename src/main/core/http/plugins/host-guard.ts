import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

export function isLoopbackHost(host: string | undefined): boolean {
  return !!host && LOOPBACK_HOST.test(host);
}

/** Refuses any Host header that is not loopback: a DNS-rebinding page cannot reach the API. */
export function registerHostGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (!isLoopbackHost(req.headers.host)) {
      throw new AppError(
        403,
        'forbidden_host',
        'This server only answers requests addressed to 127.0.0.1, localhost or [::1].',
      );
    }
  });
}
