/**
 * A passkey as the vault keeps it (docs/own-browsers-and-passkeys.md#what-is-kept): a WebAuthn credential of the virtual authenticator,
 * with its private key. The whole record lives in the secret store with the saved login's other secrets;
 * only `rpId`, `credentialId` and `createdAt` are metadata (SavedLogin.passkeys).
 */
export interface StoredPasskey {
  /** The relying party's id: a host name (example.com); the passkey works on it and its subdomains. */
  rpId: string;
  /** base64url, as WebAuthn spells credential ids (CDP WebAuthn takes and gives base64). */
  credentialId: string;
  /** PKCS#8 of the P-256 private key, base64. The secret. */
  privateKey: string;
  /** The account's user handle at the relying party, base64 (resident keys carry it). */
  userHandle?: string;
  /** The signature counter after the last use (read back from the authenticator). */
  signCount: number;
  createdAt: number;
}

/** What a login with passkeys is given: the saved login's passkeys, and where their new counters go. */
export interface PasskeyUse {
  passkeys: StoredPasskey[];
  /** RP IDs of the saved login's passkeys left out because they fit none of its origins. */
  refusedRpIds: string[];
  /** After the login (success or not): each passkey's counter as the authenticator left it, by credential id. */
  saveSignCounts(counts: Map<string, number>): Promise<void>;
}

/** WebAuthn's rule: an RP ID is the page's host or a registrable suffix of it (a subdomain's page may use it). */
export function rpIdFitsHost(rpId: string, host: string): boolean {
  const h = host.toLowerCase();
  const rp = rpId.toLowerCase();
  return h === rp || h.endsWith(`.${rp}`);
}

/** Whether a passkey may be used on any of these origins (a saved login's). */
export function rpIdFitsOrigins(rpId: string, origins: readonly string[]): boolean {
  return origins.some((o) => {
    try {
      return rpIdFitsHost(rpId, new URL(o).hostname);
    } catch {
      return false;
    }
  });
}

export const base64ToBase64url = (b64: string): string =>
  b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
export const base64urlToBase64 = (b64u: string): string => Buffer.from(b64u, 'base64url').toString('base64');
