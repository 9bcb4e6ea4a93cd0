import type { FeatureRoutes } from '../../http/route.js';
import type { LoginCore } from '../login.feature.js';

/** Session lifecycle (README "Session lifecycle"): refresh with stored credentials, validation on the site. */
export function lifecycleRoutes(core: LoginCore) {
  return {
    refresh: async ({ body, auth, reply }) => {
      const out = await core.login.lifecycle.sessions.refresh(auth, body);
      reply.header('X-Session-Refresh', out.refresh);
      reply.header('X-Session-Id', out.sessionId);
      reply.header('Cache-Control', 'no-store');
      return out.state;
    },
    validateSession: ({ params, auth }) => core.login.lifecycle.sessions.validate(auth.orgId, params.id),
  } satisfies FeatureRoutes;
}
