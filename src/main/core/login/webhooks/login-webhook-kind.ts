import type { WebhookKind } from '../../webhooks/webhook-kind.js';
import { payloadAad, type LoginWebhookSealer } from './login-webhook-sealer.js';

/** The deliveries' kind of login events; their subject is the login. */
export const LOGIN_WEBHOOK_KIND = 'login';

/** The job kind of one login webhook delivery (its `refId` is the delivery id, which is the webhook-id). */
export const LOGIN_WEBHOOK_JOB_KIND = 'login_webhook_delivery';

/**
 * Finished deliveries are kept this long for the log, then dropped when the organization's next one is made: a
 * login's deliveries belong to nothing else that goes away (a generation's go with the generation).
 */
export const KEEP_FINISHED_MS = 30 * 24 * 3600_000;

/**
 * Login events as a kind of webhook delivery: the receiver is the organization's login webhook URL (one per
 * organization, kept sealed), and the stored body is sealed too, bound to its delivery (which logins ran, for which
 * sites): opened for each attempt, never logged.
 */
export function loginWebhookKind(deps: {
  sealer: LoginWebhookSealer;
  /** The organization's login webhook URL in clear, read at each attempt; null when it has none now. */
  receiverUrl(orgId: string): Promise<string | null>;
}): WebhookKind {
  // Both are the secret store's: the URL and the body are sealed with the same key.
  const unprepared = 'could not open or sign the event (secret store unavailable?)';
  return {
    name: LOGIN_WEBHOOK_KIND,
    jobKind: LOGIN_WEBHOOK_JOB_KIND,
    noun: 'login webhook',
    keepFinishedMs: KEEP_FINISHED_MS,
    noReceiver: 'the organization has no login webhook URL',
    unprepared: { url: unprepared, body: unprepared },
    logFields: (d) => ({ loginId: d.subject_id, event: d.event }),
    receiverUrl: (d) => deps.receiverUrl(d.org_id),
    body: (d) => deps.sealer.open(d.payload, payloadAad(d.id)),
  };
}
