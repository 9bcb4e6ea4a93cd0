import type { FastifyInstance } from 'fastify';
import { GenerationIdParamsSchema } from '../../../../shared/video.schema.js';
import {
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookSecretSchema,
} from '../../../../shared/webhooks.schema.js';
import type { OpenApiRegistry } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';
import type { WebhooksService } from './webhooks.service.js';

const SIGNING =
  'Callbacks are signed per Standard Webhooks: headers webhook-id (same for every attempt of a delivery), ' +
  'webhook-timestamp (seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>", one per ' +
  'active secret, space-separated. Verify with any Standard Webhooks library and this secret.';

const RETRIES =
  'Each delivery is tried on the schedule webhooks.retryScheduleSec (default at once, 5 s, 5 min, 30 min, 2 h, 5 h, ' +
  '10 h, 14 h, 20 h, 24 h, +-10 % jitter) after a time-out (webhooks.timeoutMs, 15 s), a connection error, 408, 429 ' +
  'or 5xx; Retry-After on 429/503 is honoured when longer (up to 24 h). 410, a redirect (never followed) or another ' +
  '4xx fails it at once.';

/**
 * GET /api/webhooks/secret, POST /api/webhooks/secret/rotate (scopes webhooks:read / webhooks:write: the
 * secret lets its holder forge callbacks, so it is not part of generations:*), GET
 * /api/generations/:id/webhooks and POST /api/generations/:id/webhooks/replay (generations:read / :write,
 * like the generation they belong to).
 */
export function registerWebhookRoutes(
  app: FastifyInstance,
  registry: OpenApiRegistry,
  webhooks: WebhooksService,
): void {
  const tags = ['webhooks'];

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/webhooks/secret',
      api: 'video',
      scope: 'webhooks:read',
      summary: 'The organization’s webhook signing secret (made on first use)',
      description: SIGNING,
      tags,
      responses: { 200: { description: 'The secret', schema: WebhookSecretSchema } },
    },
    ({ auth }) => webhooks.secret(auth.orgId),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/webhooks/secret/rotate',
      api: 'video',
      scope: 'webhooks:write',
      summary: 'Replace the webhook signing secret; the old one keeps signing for 24 h',
      description:
        'During the 24 h overlap every callback carries two signatures (new, old). A second rotation drops the oldest ' +
        'secret at once.',
      tags,
      responses: { 200: { description: 'The new secret', schema: WebhookSecretSchema } },
    },
    ({ auth }) => webhooks.rotateSecret(auth.orgId),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/generations/:id/webhooks',
      api: 'video',
      scope: 'generations:read',
      summary: 'The webhook delivery log of a generation',
      description: `Every delivery (automatic, replays), oldest first, with each attempt: time, duration, HTTP status, error. ${RETRIES}`,
      tags,
      params: GenerationIdParamsSchema,
      responses: {
        200: { description: 'Deliveries and attempts', schema: WebhookDeliveryListSchema },
        404: { description: 'not_found: no such generation in this organization' },
      },
    },
    ({ params, auth }) => webhooks.deliveries(auth.orgId, params.id),
  );

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/generations/:id/webhooks/replay',
      api: 'video',
      scope: 'generations:write',
      summary: 'Send the callback again, as a new delivery',
      description: `A new delivery (new webhook-id) of the generation's current state, with the full retry schedule. ${RETRIES}`,
      tags,
      params: GenerationIdParamsSchema,
      responses: {
        202: { description: 'Queued', schema: WebhookDeliverySchema },
        404: { description: 'not_found: no such generation in this organization' },
        409: { description: 'conflict: the generation is not completed or failed, or has no webhook_url' },
      },
    },
    ({ params, auth, reply }) => {
      const delivery = webhooks.replay(auth.orgId, params.id);
      reply.status(202);
      return delivery;
    },
  );
}
