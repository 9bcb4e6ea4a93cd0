import type { LoginRequest } from '../../../../shared/login.schema.js';
import type { SecretStore } from '../../secrets/secret-store.js';

/** What a re-login needs: the parts of the original POST /api/login body that log in. */
export interface StoredLogin {
  domain: string;
  loginMethod: string;
  cred: LoginRequest['cred'];
  additionalFields: Record<string, string>;
  /** Extra storage the original login captured (IndexedDB, sessionStorage). */
  include?: LoginRequest['include'];
  /** The caller's checkUrl, if it chose one (else the re-login's landing page is used). */
  checkUrl?: string;
}

export function storedLoginOf(req: LoginRequest): StoredLogin {
  return {
    domain: req.domain,
    loginMethod: req.loginMethod,
    cred: req.cred,
    additionalFields: req.additionalFields,
    ...(req.include ? { include: req.include } : {}),
    ...(req.checkUrl ? { checkUrl: req.checkUrl } : {}),
  };
}

/**
 * Credentials an organization chose to keep (`storeCredentials: true`) so a session can be renewed
 * without the caller. Only in the secret store (OS keychain or the encrypted file), one account per
 * cache identity: `login-credentials:<org>:<identity key>`, where the identity key is the entry's
 * HMAC lookup key, so the account name says nothing about the site or the user.
 */
export class StoredCredentials {
  constructor(private readonly secrets: SecretStore) {}

  private account(orgId: string, identityKey: string): string {
    return `login-credentials:${orgId}:${identityKey}`;
  }

  async save(orgId: string, identityKey: string, login: StoredLogin): Promise<void> {
    await this.secrets.set(this.account(orgId, identityKey), JSON.stringify({ v: 1, login }));
  }

  /** The stored login, or null when none is kept (or what is kept cannot be read). */
  async load(orgId: string, identityKey: string): Promise<StoredLogin | null> {
    const raw = await this.secrets.get(this.account(orgId, identityKey));
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as { v?: number; login?: StoredLogin };
      return parsed.v === 1 && parsed.login?.domain && parsed.login.cred ? parsed.login : null;
    } catch {
      return null;
    }
  }

  async forget(orgId: string, identityKey: string): Promise<void> {
    await this.secrets.delete(this.account(orgId, identityKey));
  }
}
