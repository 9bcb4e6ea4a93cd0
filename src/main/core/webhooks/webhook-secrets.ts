import type { WebhookSecret } from '../../../shared/webhooks.schema.js';
import { SecretsMissingError, setIfAbsent, type SecretStore } from '../secrets/secret-store.js';
import { isWebhookSecret, newWebhookSecret } from './webhook-signer.js';

/** After a rotation the previous secret keeps signing this long, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 3600_000;

/** What the secret store keeps per organization (one account, so a rotation is one write). */
interface StoredSecrets {
  current: string;
  created_at: number;
  previous: string | null;
  previous_expires_at: number | null;
}

export const secretAccount = (orgId: string) => `webhooks.secret:${orgId}`;

function parseStored(raw: string): StoredSecrets | null {
  try {
    const v = JSON.parse(raw) as Partial<StoredSecrets>;
    if (!isWebhookSecret(v.current) || typeof v.created_at !== 'number') return null;
    const previous = isWebhookSecret(v.previous) && typeof v.previous_expires_at === 'number' ? v.previous : null;
    return {
      current: v.current,
      created_at: v.created_at,
      previous,
      previous_expires_at: previous ? (v.previous_expires_at as number) : null,
    };
  } catch {
    return null;
  }
}

/**
 * Per-organization webhook signing secrets in the SecretStore (keychain or encrypted file), made on
 * first use. Nothing is cached in memory: a rotation by the CLI is seen by the server at once (two
 * rotations at the same moment in two processes: the later write wins, the earlier one's printed secret
 * is then not the one stored; rotating is a deliberate act of one person, so that is left as is).
 */
export class WebhookSecrets {
  /** Serializes create/rotate per org in this process, so two first uses make one secret. */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { secrets: SecretStore; now?: () => number; overlapMs?: number }) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  private locked<T>(orgId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(orgId) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.locks.set(orgId, tail);
    void tail.then(() => {
      if (this.locks.get(orgId) === tail) this.locks.delete(orgId);
    });
    return next;
  }

  private parse(raw: string): StoredSecrets {
    const parsed = parseStored(raw);
    // Never replace an unreadable secret silently: receivers would start rejecting every callback.
    if (!parsed) throw new Error('the stored webhook secret of this organization is unreadable');
    return parsed;
  }

  private async read(orgId: string): Promise<StoredSecrets | null> {
    const raw = await this.deps.secrets.get(secretAccount(orgId));
    return raw === null ? null : this.parse(raw);
  }

  private async write(orgId: string, value: StoredSecrets): Promise<void> {
    await this.deps.secrets.set(secretAccount(orgId), JSON.stringify(value));
  }

  /**
   * The stored secrets, made on first use with the store's create-once: when the server and the CLI
   * make the first secret at the same moment, both get (and print, and sign with) the one stored.
   */
  private async current(orgId: string): Promise<StoredSecrets> {
    const existing = await this.read(orgId);
    if (existing) return existing;
    return this.locked(orgId, async () => {
      const made: StoredSecrets = {
        current: newWebhookSecret(),
        created_at: this.now(),
        previous: null,
        previous_expires_at: null,
      };
      // Missing (a data dir moved without its secrets) is said, never replaced: receivers would reject every callback.
      const stored = await setIfAbsent(this.deps.secrets, secretAccount(orgId), JSON.stringify(made)).catch(
        (err: unknown) => {
          if (err instanceof SecretsMissingError)
            throw new SecretsMissingError('The webhook signing secret of this organization', err.details);
          throw err;
        },
      );
      return this.parse(stored);
    });
  }

  private view(s: StoredSecrets): WebhookSecret {
    const live = s.previous_expires_at !== null && s.previous_expires_at > this.now();
    return {
      secret: s.current,
      created_at: s.created_at,
      previous_secret_expires_at: live ? s.previous_expires_at : null,
    };
  }

  /** The organization's secret (made now if it has none). */
  async get(orgId: string): Promise<WebhookSecret> {
    return this.view(await this.current(orgId));
  }

  /** A new secret; the one it replaces keeps signing for the overlap. A second rotation drops the oldest. */
  async rotate(orgId: string): Promise<WebhookSecret> {
    await this.current(orgId);
    return this.locked(orgId, async () => {
      const old = (await this.read(orgId)) as StoredSecrets;
      const now = this.now();
      const next: StoredSecrets = {
        current: newWebhookSecret(),
        created_at: now,
        previous: old.current,
        previous_expires_at: now + (this.deps.overlapMs ?? SECRET_OVERLAP_MS),
      };
      await this.write(orgId, next);
      return this.view(next);
    });
  }

  /** Secrets that sign a callback now: the current one, then the previous one during the overlap. */
  async signing(orgId: string): Promise<string[]> {
    const s = await this.current(orgId);
    const live = s.previous !== null && s.previous_expires_at !== null && s.previous_expires_at > this.now();
    return live ? [s.current, s.previous as string] : [s.current];
  }
}
