import type { FastifyRequest } from 'fastify';
import { LoginIdSchema } from '../../../../shared/login.schema.js';

/**
 * The caller-chosen login id of a request (header X-Login-Id): the login's steps go out as login.step events under
 * it, and POST /api/login/:id/cancel takes it. An id the schema refuses is ignored (the login runs without one).
 */
export function loginIdHeader(req: FastifyRequest): string | undefined {
  const header = req.headers['x-login-id'];
  if (header === undefined) return undefined; // most requests: no parse (a failed parse builds an issue list)
  const parsed = LoginIdSchema.safeParse(Array.isArray(header) ? header[0] : header);
  return parsed.success ? parsed.data : undefined;
}
