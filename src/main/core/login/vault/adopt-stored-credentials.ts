import type { LoginRequest } from '../../../../shared/login.schema.js';
import type { Logger } from '../../logger.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { SessionCache } from '../sessions/session-cache.js';
import type { Vault } from './vault.js';

/** What `storeCredentials` kept before saved logins existed: one secret-store account per cache identity. */
interface LegacyStoredLogin {
  domain: string;
  loginMethod: string;
  cred: LoginRequest['cred'];
  additionalFields?: Record<string, string>;
}

export const legacyAccount = (orgId: string, identityKey: string) => `login-credentials:${orgId}:${identityKey}`;

function readLegacy(raw: string | null): LegacyStoredLogin | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { v?: number; login?: LegacyStoredLogin };
    return parsed.v === 1 && parsed.login?.domain && parsed.login.cred ? parsed.login : null;
  } catch {
    return null;
  }
}

/**
 * Moves credentials kept by `storeCredentials` before migration 0014 onto saved logins (source
 * stored_credentials, shared with every key, origins learned on their next successful use), links each session to its saved
 * login and deletes the old secret. Runs when the core starts; an entry whose secret cannot be read is left
 * for the next start when the store is unreachable, and unflagged when the secret is gone.
 */
export async function adoptStoredCredentials(deps: {
  cache: SessionCache;
  vault: Vault;
  secrets: SecretStore;
  log: Logger;
}): Promise<number> {
  const legacy = await deps.cache.legacyStoredCredentials();
  let moved = 0;
  for (const { entry } of legacy) {
    const account = legacyAccount(entry.orgId, entry.identityKey);
    let stored: LegacyStoredLogin | null;
    try {
      stored = readLegacy(await deps.secrets.get(account));
    } catch (err) {
      deps.log.warn({ sessionId: entry.id, err: (err as Error).message }, 'stored credentials not moved yet');
      continue;
    }
    if (!stored) {
      deps.cache.clearLegacyFlag(entry.id);
      continue;
    }
    const req: LoginRequest = {
      domain: stored.domain,
      loginMethod: stored.loginMethod,
      cred: stored.cred,
      additionalFields: stored.additionalFields ?? {},
      useCache: false,
      include: entry.include,
      interactive: false,
      interactiveTimeoutSec: 300,
      async: false,
    };
    const credentialId = await deps.vault.keep(entry.orgId, req, undefined, null, { originsUnknown: true });
    await deps.cache.updateLifecycle(entry.orgId, entry.id, { credentialId });
    deps.cache.clearLegacyFlag(entry.id);
    await deps.secrets.delete(account).catch(() => false);
    moved++;
  }
  if (moved) deps.log.info({ moved }, 'stored credentials moved onto saved logins');
  return moved;
}
