import crypto from 'node:crypto';
import { AppError } from '../../errors.js';
import { rpIdFitsOrigins } from '../passkeys/passkey-types.js';
import type { StoredSavedLogin } from '../vault/saved-logins.repo.js';
import { originOf } from '../vault/saved-logins.service.js';
import type { Vault, VaultCaller } from '../vault/index.js';
import type { SignupPasskey } from './signup-types.js';

/**
 * A password for a passkey sign-up whose form asks for one anyway: 24 random base64url characters, then one of
 * each class a password rule may demand. Kept in the saved login when the form took it, never shown.
 */
export function generatedPassword(): string {
  return `${crypto.randomBytes(18).toString('base64url')}-Aa1`;
}

/** What a passkey sign-up keeps: the account's username, its password when the form took one, its extra fields. */
export interface SignupAccount {
  signupUrl: string;
  username: string;
  /** Undefined when the form had no password field and the request gave none. */
  password?: string;
  additionalFields: Record<string, string>;
}

/** 422 CREDENTIAL_ORIGIN_MISMATCH when the site made the passkey for an RP ID the saved login cannot use. */
function checkFits(made: SignupPasskey, origins: readonly string[]): void {
  if (rpIdFitsOrigins(made.passkey.rpId, origins)) return;
  throw new AppError(
    422,
    'credential_origin_mismatch',
    `The site made a passkey for ${made.passkey.rpId}, which fits none of the origins ${origins.join(', ')}: not kept.`,
    { reason: 'credential_origin_mismatch' },
  );
}

/**
 * A new saved login (loginMethod "passkey", source api, shared like a kept login) for an account a passkey
 * sign-up made: its origins are the sign-up page's and the ceremony page's, its passkey (private key and all)
 * goes to the secret store through SavedLoginsService.addPasskey, like POST /api/credentials/{id}/passkeys.
 */
export async function savePasskeyAccount(
  vault: Vault,
  who: VaultCaller,
  account: SignupAccount,
  made: SignupPasskey,
): Promise<StoredSavedLogin> {
  const { savedLogins } = vault;
  const origins = [...new Set([originOf(account.signupUrl), originOf(made.madeOn)])].filter((o): o is string => !!o);
  checkFits(made, origins);
  const host = new URL(account.signupUrl).host;
  const created = await savedLogins.create(
    who.orgId,
    {
      label: savedLogins.freeLabel(who.orgId, `${host} (${account.username})`),
      loginUrl: account.signupUrl,
      origins,
      loginMethod: 'passkey',
      username: account.username,
      ...(account.password ? { password: account.password } : {}),
      ...(Object.keys(account.additionalFields).length ? { additionalFields: account.additionalFields } : {}),
      shareWith: 'all',
    },
    'api',
  );
  const saved = savedLogins.get(who.orgId, created.id);
  try {
    await savedLogins.addPasskey(saved, made.passkey);
  } catch (err) {
    // Never a saved login that says "passkey" without one.
    await savedLogins.delete(who.orgId, saved.id).catch(() => false);
    throw err;
  }
  savedLogins.recordUse(saved, { keyId: who.keyId, endpoint: 'signup', outcome: 'success' });
  return savedLogins.get(who.orgId, saved.id);
}

/**
 * The saved login that made the account (`credential`) keeps the passkey: it becomes a passkey login, and
 * takes the generated password when the form took one and it had none.
 */
export async function addPasskeyToSavedLogin(
  vault: Vault,
  saved: StoredSavedLogin,
  made: SignupPasskey,
  generated?: string,
): Promise<StoredSavedLogin> {
  const { savedLogins } = vault;
  checkFits(made, saved.origins.length ? saved.origins : [saved.loginUrl]);
  await savedLogins.addPasskey(saved, made.passkey);
  if (saved.loginMethod !== 'passkey' || generated)
    await savedLogins.update(
      saved.orgId,
      saved.id,
      { loginMethod: 'passkey', ...(generated ? { password: generated } : {}) },
      'core',
    );
  return savedLogins.get(saved.orgId, saved.id);
}
