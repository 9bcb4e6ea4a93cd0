import { open, seal } from '../../secrets/aead.js';
import { keyLoader, type SecretStore } from '../../secrets/secret-store.js';

/** Secret-store account of the key (its own: nothing else is sealed with it). */
const KEY_ACCOUNT = 'login-webhook-key';
const PREFIX = 'sealed:v1:';

/** Binds a sealed URL to its organization and a sealed body to its delivery: copied elsewhere, they do not open. */
export const urlAad = (orgId: string) => `org:${orgId}:login_webhook_url`;
export const payloadAad = (deliveryId: string) => `login_webhook_delivery:${deliveryId}:payload`;

/** A sealed value this key does not open for its context (key changed, data altered or moved). */
export class UnreadableSealedValueError extends Error {
  override name = 'UnreadableSealedValueError';
  constructor() {
    super('a sealed login webhook value cannot be decrypted (key changed or data altered)');
  }
}

/**
 * AES-256-GCM at rest for what login webhooks keep in the database: the receiver URL (receivers put tokens in it) and
 * each delivery's body (a needs_person body holds the takeover link, whose token opens the live page). The key lives
 * in the secret store, made once across processes, loaded once per process.
 */
export class LoginWebhookSealer {
  private readonly key: () => Promise<Buffer>;

  constructor(secrets: SecretStore) {
    this.key = keyLoader(secrets, KEY_ACCOUNT);
  }

  async seal(text: string, aad: string): Promise<string> {
    return PREFIX + seal(await this.key(), text, aad).toString('base64');
  }

  /** UnreadableSealedValueError when the value is not one this key sealed for `aad`. */
  async open(stored: string, aad: string): Promise<string> {
    if (!stored.startsWith(PREFIX)) throw new UnreadableSealedValueError();
    const key = await this.key();
    try {
      return open(key, Buffer.from(stored.slice(PREFIX.length), 'base64'), aad).toString('utf8');
    } catch {
      throw new UnreadableSealedValueError();
    }
  }
}
