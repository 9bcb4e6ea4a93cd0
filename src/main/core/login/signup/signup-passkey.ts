import { captureStorageState } from '../engine/storage-capture.js';
import type { SessionStorageState } from '../login-types.js';
import { createPasskeyOnSite, waitForCredential } from '../passkeys/passkey-on-site.js';
import type { PasskeyUse, StoredPasskey } from '../passkeys/passkey-types.js';
import { SignupFlowError, type SignupContext, type SignupPasskey } from './signup-types.js';

/**
 * A passkey sign-up after the account exists and this context is signed in (`finalUrl`): the passkey the
 * sign-up form made (its passkey control, or a submit that itself called navigator.credentials.create), else
 * one made on the site's "create / add a passkey" page (the page signed in, then security / settings pages
 * linked from it, as POST /api/credentials/{id}/passkeys does). No passkey anywhere: passkey_not_offered.
 * A passkey made on a settings page comes with a fresh look at the session (the page may have rotated it).
 */
export async function passkeyAfterSignup(
  s: SignupContext,
  finalUrl: string,
): Promise<{ made: SignupPasskey; storageState?: SessionStorageState }> {
  const authenticator = s.authenticator!;
  const fromForm = await noteNewPasskey(s, finalUrl);
  if (fromForm) return { made: fromForm };
  s.step('the sign-up made no passkey; looking for "create a passkey" where the account is');
  const found = await createPasskeyOnSite(s.page, authenticator, finalUrl, s.step);
  if (!found.passkey)
    throw new SignupFlowError(
      'passkey_not_offered',
      `The account was made, but the site offers no passkey: no passkey control on the sign-up form, and no ` +
        `"create a passkey" control after it (looked at ${found.looked.length} page(s): ${found.looked.join(', ')}).`,
    );
  s.step('the authenticator made a passkey for the site');
  const storageState = await captureStorageState(s.ctx, s.page);
  return { made: { passkey: found.passkey, madeOn: found.madeOn ?? finalUrl }, storageState };
}

/** The passkey the authenticator holds now, kept in the context once (`madeOn`: the page it was made on). */
export async function noteNewPasskey(s: SignupContext, madeOn: string): Promise<SignupPasskey | undefined> {
  if (s.madePasskey || !s.authenticator) return s.madePasskey;
  const passkey = await waitForCredential(s.authenticator, 0);
  if (passkey) s.madePasskey = { passkey, madeOn };
  return s.madePasskey;
}

/**
 * The new passkey as a login's passkeys, for a site that asks to sign in after a passkey-only sign-up: its
 * counter moves on in `passkey` itself (it is kept with the value the relying party last saw).
 */
export function newPasskeyUse(passkey: StoredPasskey): PasskeyUse {
  return {
    passkeys: [passkey],
    refusedRpIds: [],
    saveSignCounts: async (counts) => {
      passkey.signCount = Math.max(passkey.signCount, counts.get(passkey.credentialId) ?? 0);
    },
  };
}
