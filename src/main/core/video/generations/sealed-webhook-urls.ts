// A generation's webhook URL at rest: it can carry user info and query tokens, so generations.webhook_url holds it
// sealed (AES-256-GCM with a key of its own in the secret store, bound to the generation's id).
import { open, seal } from '../../secrets/aead.js';
import { keyLoader, type SecretStore } from '../../secrets/secret-store.js';
import { SEALED_WEBHOOK_PREFIX, type GenerationRow } from './generations.repo.js';

/** Secret-store account of the webhook URL key (its own key: nothing else is sealed with it). */
const WEBHOOK_KEY_ACCOUNT = 'webhook-url-key';
/** Binds a sealed webhook URL to its generation: copied onto another row it does not open. */
const webhookAad = (generationId: string) => `generation:${generationId}:webhook_url`;

export class UnreadableWebhookUrlError extends Error {
  constructor(generationId: string) {
    super(`The webhook URL of generation ${generationId} cannot be decrypted (key changed or data altered).`);
  }
}

export class SealedWebhookUrls {
  private readonly key: () => Promise<Buffer>;

  constructor(secrets: SecretStore) {
    this.key = keyLoader(secrets, WEBHOOK_KEY_ACCOUNT);
  }

  /** The stored form of a webhook URL: the prefix, then the sealed bytes in base64. */
  async seal(generationId: string, url: string): Promise<string> {
    return SEALED_WEBHOOK_PREFIX + seal(await this.key(), url, webhookAad(generationId)).toString('base64');
  }

  /** The URL in clear, or null when the row has none; throws UnreadableWebhookUrlError when it does not open. */
  async open(row: Pick<GenerationRow, 'id' | 'webhook_url'>): Promise<string | null> {
    const stored = row.webhook_url;
    if (!stored) return null;
    if (!stored.startsWith(SEALED_WEBHOOK_PREFIX)) return stored; // written in clear by an older version
    const sealed = Buffer.from(stored.slice(SEALED_WEBHOOK_PREFIX.length), 'base64');
    const key = await this.key();
    try {
      return open(key, sealed, webhookAad(row.id)).toString('utf8');
    } catch {
      throw new UnreadableWebhookUrlError(row.id);
    }
  }
}
