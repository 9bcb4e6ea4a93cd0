// What the database keeps sealed (AES-256-GCM): text bound to its context by `aad`, under a key of its own made
// once in the secret store. Stored as `prefix` + base64, so a reader can tell a sealed value from one written in
// clear by an older version.
import { open, seal } from './aead.js';
import { keyLoader, type SecretStore } from './secret-store.js';

/** A sealed value this key does not open for its context (key changed, data altered or moved). */
export class UnreadableSealedValueError extends Error {
  override name = 'UnreadableSealedValueError';
  constructor() {
    super('a sealed value cannot be decrypted (key changed or data altered)');
  }
}

export class AtRestSealer {
  private readonly key: () => Promise<Buffer>;

  /** `account`: the secret-store account of the key (its own: nothing else is sealed with it). */
  constructor(
    secrets: SecretStore,
    account: string,
    private readonly prefix: string,
  ) {
    this.key = keyLoader(secrets, account);
  }

  /** Whether `stored` is a value of this sealer's form (else: clear text, or something else). */
  holds(stored: string): boolean {
    return stored.startsWith(this.prefix);
  }

  async seal(text: string, aad: string): Promise<string> {
    return this.prefix + seal(await this.key(), text, aad).toString('base64');
  }

  /** UnreadableSealedValueError when the value is not one this key sealed for `aad`. */
  async open(stored: string, aad: string): Promise<string> {
    if (!this.holds(stored)) throw new UnreadableSealedValueError();
    const key = await this.key();
    try {
      return open(key, Buffer.from(stored.slice(this.prefix.length), 'base64'), aad).toString('utf8');
    } catch {
      throw new UnreadableSealedValueError();
    }
  }
}
