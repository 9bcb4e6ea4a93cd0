import type { FeatureRoutes } from '../../http/route.js';
import type { WebhooksService } from './webhooks.service.js';

/**
 * GET /api/webhooks/secret, POST /api/webhooks/secret/rotate (scopes webhooks:read / webhooks:write: the
 * secret lets its holder forge callbacks, so it is not part of generations:*), GET
 * /api/generations/:id/webhooks and POST /api/generations/:id/webhooks/replay (generations:read / :write,
 * like the generation they belong to).
 */
export function webhookRoutes(webhooks: WebhooksService) {
  return {
    webhookSecret: ({ auth }) => webhooks.secret(auth.orgId),
    rotateWebhookSecret: ({ auth }) => webhooks.rotateSecret(auth.orgId),
    webhookDeliveries: ({ params, auth }) => webhooks.deliveries(auth.orgId, params.id),
    replayWebhook: ({ params, auth }) => webhooks.replay(auth.orgId, params.id),
  } satisfies FeatureRoutes;
}
