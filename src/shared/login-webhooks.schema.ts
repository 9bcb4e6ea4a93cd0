// Zod schemas of the login service's webhooks: an organization's login webhook URL, the Standard Webhooks body its
// receiver gets for login.needs_person and login.finished, and the delivery log. Pure: imports only zod and shared.
import { z } from 'zod';
import { httpUrlString } from './http-url.schema.js';
import { PERSON_REASONS } from './person-task.js';
import { WEBHOOK_DELIVERY_STATE_FIELDS, WebhookDeliveryIdSchema } from './webhooks.schema.js';

export const LOGIN_WEBHOOK_EVENTS = ['login.needs_person', 'login.finished'] as const;
export type LoginWebhookEventType = (typeof LOGIN_WEBHOOK_EVENTS)[number];

export const LoginWebhookSettingSchema = z
  .object({
    url: z
      .string()
      .nullable()
      .describe('Where login events are POSTed; query-string values and user info masked. null: none configured'),
    updated_at: z.number().nullable().describe('When the URL was set (ms since the epoch)'),
  })
  .meta({ id: 'LoginWebhookSetting' });
export type LoginWebhookSetting = z.infer<typeof LoginWebhookSettingSchema>;

export const LoginWebhookUpdateSchema = z
  .object({ url: httpUrlString('url').describe('The receiver: a full http:// or https:// URL') })
  .strict()
  .meta({ id: 'LoginWebhookUpdate' });
export type LoginWebhookUpdate = z.infer<typeof LoginWebhookUpdateSchema>;

const NeedsPersonDataSchema = z.object({
  login_id: z.string().describe('The X-Login-Id of the login, or the id the server gave it'),
  status: z.literal('needs_person'),
  reason: z.string().describe(`Where the login stopped: ${PERSON_REASONS.join(', ')}`),
  // Never the takeover_url: only the key that started the login gets it (docs/security.md#a-logins-live-page-is-the-starting-keys).
  site: z.string().describe('The host the login is for'),
});

const FinishedDataSchema = z.object({
  login_id: z.string(),
  status: z.enum(['succeeded', 'failed', 'cancelled']),
  session_id: z.string().nullable().describe('Once succeeded: the cache entry (GET /api/sessions)'),
  error: z
    .object({
      error: z.string().describe('The error code the login answered, e.g. AUTHENTICATION_FAILED'),
      details: z.object({
        reason: z
          .string()
          .optional()
          .describe('The details.reason the answer had (e.g. invalid_credentials, cancelled), when it had one'),
      }),
    })
    .nullable()
    .describe('When failed or cancelled: the error as the HTTP answer named it (its code and details.reason)'),
});

/** The body POSTed to the login webhook URL (Standard Webhooks' {type, timestamp, data}). */
export const LoginWebhookEventSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('login.needs_person'),
      timestamp: z.string().describe('When it happened (ISO 8601)'),
      data: NeedsPersonDataSchema,
    }),
    z.object({ type: z.literal('login.finished'), timestamp: z.string(), data: FinishedDataSchema }),
  ])
  .meta({ id: 'LoginWebhookEvent' });
export type LoginWebhookEvent = z.infer<typeof LoginWebhookEventSchema>;

export const LoginWebhookDeliverySchema = z
  .object({
    id: WebhookDeliveryIdSchema,
    event: z.enum(LOGIN_WEBHOOK_EVENTS),
    login_id: z.string(),
    ...WEBHOOK_DELIVERY_STATE_FIELDS,
  })
  .meta({ id: 'LoginWebhookDelivery' });
export type LoginWebhookDelivery = z.infer<typeof LoginWebhookDeliverySchema>;

export const LoginWebhookDeliveryListSchema = z
  .object({ data: z.array(LoginWebhookDeliverySchema).describe('Newest first') })
  .meta({ id: 'LoginWebhookDeliveryList' });
export type LoginWebhookDeliveryList = z.infer<typeof LoginWebhookDeliveryListSchema>;

export const LoginWebhookDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many, newest first (1-100, default 20)'),
});
