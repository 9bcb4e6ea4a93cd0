import {
  LoginWebhookDeliveriesQuerySchema,
  LoginWebhookDeliveryListSchema,
  LoginWebhookSettingSchema,
  LoginWebhookUpdateSchema,
} from '../login-webhooks.schema.js';
import { defineApiRoutes } from './api-route.js';

const EVENTS =
  'Logins with an id (X-Login-Id, async or interactive) report login.needs_person (data: login_id, status, reason, ' +
  'site — never the takeover_url: only the API key that started the login gets that link) and ' +
  'login.finished (data: login_id, status succeeded|failed|cancelled, session_id, error: null or { error: the code, ' +
  'details: { reason } } as the HTTP answer had them) as a Standard Webhooks POST ' +
  '{type, timestamp, data} to this URL, signed with the organization’s webhook secret (GET /api/webhooks/secret), on ' +
  'the retry schedule of generation webhooks (webhooks.retryScheduleSec, webhooks.timeoutMs). Never a storageState, ' +
  'cookie or credential. Each attempt goes to the URL set at that moment.';

/**
 * The organization's login webhook: where login.needs_person and login.finished are POSTed
 * (docs/person-in-the-loop.md#login-webhooks). Under /api/webhooks with the signing secret, so its errors have the same (video-service) shape.
 */
export const LOGIN_WEBHOOKS_API = defineApiRoutes({
  loginWebhook: {
    method: 'GET',
    path: '/api/webhooks/login',
    api: 'video',
    scope: 'webhooks:read',
    summary: 'The organization’s login webhook URL (query values masked), or null',
    description: EVENTS,
    tags: ['webhooks'],
    responses: { 200: { description: 'The setting', schema: LoginWebhookSettingSchema } },
  },

  setLoginWebhook: {
    method: 'PUT',
    path: '/api/webhooks/login',
    api: 'video',
    scope: 'webhooks:write',
    summary: 'Set where the organization’s login events are POSTed',
    description:
      `${EVENTS} The URL is kept encrypted at rest. Its host is resolved now and every address checked against ` +
      'network.outbound (as generation webhook_url hosts are when delivered): a refused address is a 400; a name that ' +
      'does not resolve yet is accepted (each delivery checks again).',
    tags: ['webhooks'],
    body: LoginWebhookUpdateSchema,
    responses: {
      200: { description: 'The new setting (URL masked)', schema: LoginWebhookSettingSchema },
      400: {
        description:
          'validation_error: not a full http(s) URL, or a host whose address the outbound policy refuses (the message ' +
          'says why and names network.outbound when the mode decides)',
      },
      503: { description: 'secrets_unavailable: the URL is kept sealed and the secret store is not reachable' },
    },
  },

  deleteLoginWebhook: {
    method: 'DELETE',
    path: '/api/webhooks/login',
    api: 'video',
    scope: 'webhooks:write',
    summary: 'Stop POSTing login events; deliveries still pending fail at once',
    tags: ['webhooks'],
    responses: { 204: { description: 'Removed (also when none was set)' } },
  },

  loginWebhookDeliveries: {
    method: 'GET',
    path: '/api/webhooks/login/deliveries',
    api: 'video',
    scope: 'webhooks:read',
    summary: 'The login webhook delivery log: each delivery and attempt, newest first',
    description:
      'Event, login id, status and every attempt (time, duration, HTTP status, error). Bodies are not shown (a ' +
      'needs_person body holds a takeover link); finished deliveries are kept 30 days.',
    tags: ['webhooks'],
    query: LoginWebhookDeliveriesQuerySchema,
    responses: { 200: { description: 'Deliveries and attempts', schema: LoginWebhookDeliveryListSchema } },
  },
});
