// A generation's webhook URL at rest: it can carry user info and query tokens, so generations.webhook_url holds it
// sealed (AtRestSealer: a key of its own in the secret store, bound to the generation's id).
import { AtRestSealer, UnreadableSealedValueError } from '../../secrets/at-rest-sealer.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { SEALED_WEBHOOK_PREFIX, type GenerationRow } from './generations.repo.js';

/** Binds a sealed webhook URL to its generation: copied onto another row it does not open. */
const webhookAad = (generationId: string) => `generation:${generationId}:webhook_url`;

export class UnreadableWebhookUrlError extends Error {
  constructor(generationId: string) {
    super(`The webhook URL of generation ${generationId} cannot be decrypted (key changed or data altered).`);
  }
}

export class SealedWebhookUrls {
  private readonly sealer: AtRestSealer;

  constructor(secrets: SecretStore) {
    this.sealer = new AtRestSealer(secrets, 'webhook-url-key', SEALED_WEBHOOK_PREFIX);
  }

  /** The stored form of a webhook URL. */
  seal(generationId: string, url: string): Promise<string> {
    return this.sealer.seal(url, webhookAad(generationId));
  }

  /** The URL in clear, or null when the row has none; throws UnreadableWebhookUrlError when it does not open. */
  async open(row: Pick<GenerationRow, 'id' | 'webhook_url'>): Promise<string | null> {
    const stored = row.webhook_url;
    if (!stored) return null;
    if (!this.sealer.holds(stored)) return stored; // written in clear by an older version
    try {
      return await this.sealer.open(stored, webhookAad(row.id));
    } catch (err) {
      if (err instanceof UnreadableSealedValueError) throw new UnreadableWebhookUrlError(row.id);
      throw err;
    }
  }
}
