import { AtRestSealer } from '../../secrets/at-rest-sealer.js';
import type { SecretStore } from '../../secrets/secret-store.js';

/** Binds a sealed URL to its organization and a sealed body to its delivery: copied elsewhere, they do not open. */
export const urlAad = (orgId: string) => `org:${orgId}:login_webhook_url`;
export const payloadAad = (deliveryId: string) => `login_webhook_delivery:${deliveryId}:payload`;

/**
 * AES-256-GCM at rest for what login webhooks keep in the database: the receiver URL (receivers put tokens in it) and
 * each delivery's body (which logins ran, for which sites, with which outcome; never a takeover link). The key lives
 * in the secret store, made once across processes, loaded once per process.
 */
export class LoginWebhookSealer extends AtRestSealer {
  constructor(secrets: SecretStore) {
    super(secrets, 'login-webhook-key', 'sealed:v1:');
  }
}
