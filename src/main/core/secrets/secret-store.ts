import crypto from 'node:crypto';
/** Where secrets live: API key plaintexts, site credentials, mailbox passwords, the session-cache key. */
export interface SecretStore {
  readonly backend: 'keychain' | 'file';
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /**
   * Create-once, for secrets made on first use: stores `value` only when `account` holds none and
   * returns what is stored afterwards (the existing value, or `value`), atomically across processes.
   * Use the `setIfAbsent()` function below, which falls back to get-then-set for stores without it.
   */
  setIfAbsent?(account: string, value: string): Promise<string>;
  /**
   * Many entries at once (an import of thousands): the encrypted file reads, encrypts and writes once, all or
   * nothing; the keychain stores them one by one (a crash may leave some). Use the `setMany()` function below.
   */
  setMany?(entries: readonly SecretEntry[]): Promise<void>;
  /** The values of many accounts (null where none) in one pass. Use the `getMany()` function below. */
  getMany?(accounts: readonly string[]): Promise<Map<string, string | null>>;
  /** Removes many accounts in one pass; how many were there. Use the `deleteMany()` function below. */
  deleteMany?(accounts: readonly string[]): Promise<number>;
  /** Throws SecretStoreUnavailableError when the store cannot be used. */
  check(): Promise<void>;
  /** Account names that start with `prefix` (moving secrets between backends). */
  listAccounts(prefix: string): Promise<string[]>;
}

export type SecretEntry = readonly [account: string, value: string];

export const REMEDIES =
  'Either start an OS keychain (macOS Keychain, Windows Credential Manager, or on Linux a Secret Service such as gnome-keyring or KWallet in your desktop session), ' +
  'or choose the encrypted-file backend: set AGENT_STUDIO_SECRETS_BACKEND=file (its key is generated in the data dir, or taken from AGENT_STUDIO_MASTER_KEY, at least 16 characters).';

export class SecretStoreUnavailableError extends Error {
  override name = 'SecretStoreUnavailableError';
  constructor(reason: string) {
    super(`No secret store is reachable (${reason}). ${REMEDIES}`);
  }
}

/** What a person can do about secrets a data dir had and this computer's secret store lacks. */
export const MISSING_SECRETS_WAY_OUT =
  'The data dir was moved or restored without them (another computer, another keychain, a copy). Restore a backup ' +
  'made with "npm run cli -- backup create", which holds them; or enter them again (a saved login, a mailbox); or ' +
  'start over without them with "npm run cli -- secrets forget-missing" (new ones are then made where needed).';

/**
 * Secrets this installation stored (their names are in the database: secret-inventory.ts) that its secret store no
 * longer has. Never answered by making new ones: `what` names the thing they belong to, for the person.
 */
export class SecretsMissingError extends Error {
  override name = 'SecretsMissingError';
  constructor(
    readonly what: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`${what} is missing from this computer's secret store. ${MISSING_SECRETS_WAY_OUT}`);
  }
}

/**
 * Stores `value` under `account` unless it holds a value already, and returns the value that is stored
 * then: a secret made on first use ("create if missing") must be made once, even when the server and
 * the CLI both make it at the same moment. Stores without `setIfAbsent` get a plain get-then-set.
 */
export async function setIfAbsent(store: SecretStore, account: string, value: string): Promise<string> {
  if (store.setIfAbsent) return store.setIfAbsent(account, value);
  const existing = await store.get(account);
  if (existing !== null) return existing;
  await store.set(account, value);
  return value;
}

/** Stores every entry (the last value of an account given twice); one by one for stores without `setMany`. */
export async function setMany(store: SecretStore, entries: readonly SecretEntry[]): Promise<void> {
  if (store.setMany) return store.setMany(entries);
  for (const [account, value] of new Map(entries)) await store.set(account, value);
}

export async function getMany(store: SecretStore, accounts: readonly string[]): Promise<Map<string, string | null>> {
  if (store.getMany) return store.getMany(accounts);
  const out = new Map<string, string | null>();
  for (const account of accounts) out.set(account, await store.get(account));
  return out;
}

export async function deleteMany(store: SecretStore, accounts: readonly string[]): Promise<number> {
  if (store.deleteMany) return store.deleteMany(accounts);
  let deleted = 0;
  for (const account of new Set(accounts)) if (await store.delete(account)) deleted++;
  return deleted;
}

/**
 * The random 32-byte key kept under `account` (base64), made on first use: create-once across processes, so a value
 * sealed by the server opens in the CLI and the other way round.
 */
export async function readOrCreateKey(store: SecretStore, account: string): Promise<Buffer> {
  const stored =
    (await store.get(account)) ?? (await setIfAbsent(store, account, crypto.randomBytes(32).toString('base64')));
  return Buffer.from(stored, 'base64');
}

/**
 * readOrCreateKey once per loader (concurrent first calls must not each make a key); a failed read is not kept, the
 * next call tries again (the secret store may come back).
 */
export function keyLoader(store: SecretStore, account: string): () => Promise<Buffer> {
  let loading: Promise<Buffer> | null = null;
  return () => {
    loading ??= readOrCreateKey(store, account).catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
}
