/** Where secrets live: API key plaintexts, site credentials, mailbox passwords, the session-cache key. */
export interface SecretStore {
  readonly backend: 'keychain' | 'file';
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /** Throws SecretStoreUnavailableError when the store cannot be used. */
  check(): Promise<void>;
  /** Account names that start with `prefix` (moving secrets between backends). */
  listAccounts(prefix: string): Promise<string[]>;
}

export const REMEDIES =
  'Either start an OS keychain (macOS Keychain, Windows Credential Manager, or on Linux a Secret Service such as gnome-keyring or KWallet in your desktop session), ' +
  'or choose the encrypted-file backend: set AGENT_STUDIO_SECRETS_BACKEND=file (its key is generated in the data dir, or taken from AGENT_STUDIO_MASTER_KEY, at least 16 characters).';

export class SecretStoreUnavailableError extends Error {
  override name = 'SecretStoreUnavailableError';
  constructor(reason: string) {
    super(`No secret store is reachable (${reason}). ${REMEDIES}`);
  }
}
