import type { FeatureRoutes } from '../../http/route.js';
import type { LoginWebhooksService } from './login-webhooks.service.js';

/**
 * GET/PUT/DELETE /api/webhooks/login and GET /api/webhooks/login/deliveries (scopes webhooks:read / webhooks:write,
 * like the signing secret: the URL decides who learns of the organization's logins; never their takeover links).
 */
export function loginWebhookRoutes(loginWebhooks: LoginWebhooksService) {
  return {
    loginWebhook: ({ auth }) => loginWebhooks.setting(auth.orgId),
    setLoginWebhook: ({ body, auth }) => loginWebhooks.set(auth.orgId, body.url),
    deleteLoginWebhook: ({ auth }) => {
      loginWebhooks.remove(auth.orgId);
    },
    loginWebhookDeliveries: ({ query, auth }) => loginWebhooks.deliveries(auth.orgId, query.limit),
  } satisfies FeatureRoutes;
}
