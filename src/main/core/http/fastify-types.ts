import type { ErrorShape } from '../../../shared/errors.js';
import type { Scope } from '../../../shared/scopes.js';
import type { AuthContext } from '../tenancy/api-keys.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    api?: ErrorShape;
    scope?: Scope | null;
    rawBody?: boolean;
  }
}
export {};
