import type { FeatureRoutes } from '../../http/route.js';
import { loginIdHeader } from '../runs/login-id-header.js';
import type { SignupService } from './signup.service.js';

/** POST /api/signup: account creation with email verification, with a password or a passkey. */
export function signupRoutes(signup: SignupService) {
  return {
    signup: async ({ body, auth, reply, req }) => {
      const outcome = await signup.signup(auth, body, { loginId: loginIdHeader(req) });
      reply.header('X-Session-Id', outcome.sessionId);
      reply.header('Cache-Control', 'no-store');
      return outcome.state;
    },
  } satisfies FeatureRoutes;
}
