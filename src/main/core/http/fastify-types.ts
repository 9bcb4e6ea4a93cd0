import type { ErrorShape } from '../../../shared/errors.js';
import type { RequiredScope } from '../../../shared/scopes.js';
import type { AuthContext } from '../tenancy/api-keys.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Set when the server starts closing (see run-server.ts). */
    shutdown: { closing: boolean };
  }
  interface FastifyContextConfig {
    api?: ErrorShape;
    scope?: RequiredScope | null;
    rawBody?: boolean;
    /** A valid API key is needed but no particular scope (/mcp: each tool's own route checks its scope). */
    keyOnly?: boolean;
  }
}
export {};
