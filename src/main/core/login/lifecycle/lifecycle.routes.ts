import type { FeatureRoutes } from '../../http/route.js';
import type { Lifecycle } from './index.js';

/** Session lifecycle (docs/login-service.md#session-lifecycle): refresh with stored credentials, validation on the site. */
export function lifecycleRoutes({ sessions }: Pick<Lifecycle, 'sessions'>) {
  return {
    refresh: async ({ body, auth, reply }) => {
      const out = await sessions.refresh(auth, body);
      reply.header('X-Session-Refresh', out.refresh);
      reply.header('X-Session-Id', out.sessionId);
      reply.header('Cache-Control', 'no-store');
      return out.state;
    },
    validateSession: ({ params, auth }) => sessions.validate(auth.orgId, params.id),
  } satisfies FeatureRoutes;
}
