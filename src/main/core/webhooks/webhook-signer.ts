import crypto from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../../shared/webhooks.schema.js';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<body>` with the secret's bytes (the base64 after `whsec_`).
 * Written with node:crypto rather than the `standardwebhooks` package, which is a dev dependency
 * (tests verify with its Webhook.verify, and a unit test checks both give the same signature).
 */

/** A new secret: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + crypto.randomBytes(24).toString('base64');
}

export function isWebhookSecret(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith(WEBHOOK_SECRET_PREFIX)) return false;
  return Buffer.from(value.slice(WEBHOOK_SECRET_PREFIX.length), 'base64').length >= 16;
}

function keyOf(secret: string): Buffer {
  const key = Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
  if (key.length === 0) throw new Error('empty webhook secret');
  return key;
}

/** One `v1,<sig>` per secret, space-separated (a receiver accepts any one it can verify). */
export function signWebhook(msgId: string, timestampSec: number, body: string, secrets: readonly string[]): string {
  if (secrets.length === 0) throw new Error('no webhook secret to sign with');
  const signed = `${msgId}.${timestampSec}.${body}`;
  return secrets
    .map((s) => `v1,${crypto.createHmac('sha256', keyOf(s)).update(signed, 'utf8').digest('base64')}`)
    .join(' ');
}
