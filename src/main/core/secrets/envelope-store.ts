// Envelope encryption for the secrets there are many of. Browsers keep saved passwords sealed in the profile and one
// key in the OS keychain; this does the same for saved logins: a keychain stores item by item (gnome-keyring rewrites
// its whole keyring file for each), so an import of thousands took minutes there, while here it is one write of a
// sealed file and the keychain holds one item. The key moves with the other secrets when the backend changes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { renameSyncRetrying } from '../fs/replace-file.js';
import { EncryptedFileSecretStore } from './encrypted-file-store.js';
import {
  deleteMany,
  getMany,
  setIfAbsent,
  setMany,
  SecretsMissingError,
  SecretStoreUnavailableError,
  type SecretEntry,
  type SecretStore,
} from './secret-store.js';

/** The sealed file of saved logins' secrets, in the data dir. */
export const VAULT_FILE = 'vault.enc.json';
/** The secret-store account of the vault file's key. */
export const VAULT_KEY_ACCOUNT = 'vault-key';

export interface EnvelopeOptions {
  /** Where every other secret lives, and the envelope's key (the OS keychain, or the encrypted secrets file). */
  base: SecretStore;
  /** The sealed file (in the data dir). */
  file: string;
  /** The base store's account of the file's key (random 256 bits, base64). */
  keyAccount: string;
  /** Accounts that start with one of these live in the file; the base keeps the rest. */
  prefixes: readonly string[];
}

/**
 * A SecretStore that keeps the accounts of `prefixes` in a sealed file (EncryptedFileSecretStore, with an HKDF-derived
 * key: the key is random, no stretching needed) under one key kept in `base`, and every other account in `base`.
 * Entries of those prefixes that an older version left in `base` move into the file on first use (copied only where
 * the file has none, then removed from `base`), so an upgrade loses nothing and a crash mid-move is finished next time.
 */
export class EnvelopeSecretStore implements SecretStore {
  private sealed: Promise<EncryptedFileSecretStore> | null = null;

  constructor(private readonly opts: EnvelopeOptions) {}

  get backend() {
    return this.opts.base.backend;
  }

  private inFile(account: string): boolean {
    return this.opts.prefixes.some((p) => account.startsWith(p));
  }

  /** The file's store, once its key is known and the entries of an older version are moved in. */
  private file(): Promise<EncryptedFileSecretStore> {
    this.sealed ??= this.openFile().catch((err: unknown) => {
      this.sealed = null; // an unreachable keychain may come back: try again on the next call
      throw err;
    });
    return this.sealed;
  }

  private async openFile(): Promise<EncryptedFileSecretStore> {
    const { base, file, keyAccount } = this.opts;
    let key = await base.get(keyAccount);
    if (key === null) {
      // A file with entries and no key: the key was lost (another keychain, a copy without it). A new key would not
      // open them and would hide the loss, so say it instead.
      if (hasEntries(file)) {
        throw new SecretsMissingError(`The key of ${path.basename(file)}, which holds the saved logins' secrets,`, {
          secret: keyAccount,
        });
      }
      key = await setIfAbsent(base, keyAccount, crypto.randomBytes(32).toString('base64'));
    }
    const store = new EncryptedFileSecretStore(file, key, 'the vault key in the secret store', 'hkdf-sha256');
    await this.adoptOlderEntries(store);
    return store;
  }

  private async adoptOlderEntries(store: EncryptedFileSecretStore): Promise<void> {
    const { base, prefixes } = this.opts;
    const older = (await Promise.all(prefixes.map((p) => base.listAccounts(p)))).flat();
    if (!older.length) return;
    const values = await getMany(base, older);
    const entries = older.flatMap((a): SecretEntry[] => {
      const value = values.get(a);
      return value == null ? [] : [[a, value]];
    });
    await store.adoptMany(entries);
    await deleteMany(base, older);
  }

  /** The accounts the file keeps, and the others. */
  private partition<T>(items: readonly T[], account: (item: T) => string): [T[], T[]] {
    return [items.filter((i) => this.inFile(account(i))), items.filter((i) => !this.inFile(account(i)))];
  }

  async get(account: string) {
    return this.inFile(account) ? (await this.file()).get(account) : this.opts.base.get(account);
  }
  async set(account: string, value: string) {
    return this.inFile(account) ? (await this.file()).set(account, value) : this.opts.base.set(account, value);
  }
  async delete(account: string) {
    return this.inFile(account) ? (await this.file()).delete(account) : this.opts.base.delete(account);
  }
  async setIfAbsent(account: string, value: string) {
    return this.inFile(account)
      ? (await this.file()).setIfAbsent(account, value)
      : setIfAbsent(this.opts.base, account, value);
  }
  async setMany(entries: readonly SecretEntry[]) {
    const [filed, rest] = this.partition(entries, ([a]) => a);
    await Promise.all([
      filed.length ? this.file().then((f) => f.setMany(filed)) : null,
      rest.length ? setMany(this.opts.base, rest) : null,
    ]);
  }
  async getMany(accounts: readonly string[]) {
    const [filed, rest] = this.partition(accounts, (a) => a);
    const [a, b] = await Promise.all([
      filed.length ? this.file().then((f) => f.getMany(filed)) : new Map<string, string | null>(),
      rest.length ? getMany(this.opts.base, rest) : new Map<string, string | null>(),
    ]);
    return new Map(accounts.map((account) => [account, a.get(account) ?? b.get(account) ?? null]));
  }
  async deleteMany(accounts: readonly string[]) {
    const [filed, rest] = this.partition(accounts, (a) => a);
    const [a, b] = await Promise.all([
      filed.length ? this.file().then((f) => f.deleteMany(filed)) : 0,
      rest.length ? deleteMany(this.opts.base, rest) : 0,
    ]);
    return a + b;
  }
  check() {
    return this.opts.base.check();
  }

  /**
   * For a person who starts over without a lost vault key (`secrets forget-missing`): when the file has entries and
   * the store has no key, the file is set aside as `vault.enc.json.lost-<time>` (kept, should the key turn up) and a
   * new vault starts; saved logins then say their secrets are missing until they are entered again. The path set
   * aside, or null when nothing was lost.
   */
  async setAsideLostVault(): Promise<string | null> {
    const { base, file, keyAccount } = this.opts;
    if ((await base.get(keyAccount)) !== null || !hasEntries(file)) return null;
    const aside = `${file}.lost-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSyncRetrying(file, aside);
    this.sealed = null;
    return aside;
  }
  async listAccounts(prefix: string) {
    const fromBase = (await this.opts.base.listAccounts(prefix)).filter((a) => !this.inFile(a));
    const mayBeFiled = this.opts.prefixes.some((p) => p.startsWith(prefix) || prefix.startsWith(p));
    return mayBeFiled ? [...(await (await this.file()).listAccounts(prefix)), ...fromBase] : fromBase;
  }
}

/** Whether the sealed file is there with at least one entry (read without its key). */
function hasEntries(file: string): boolean {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries?: Record<string, unknown> };
    return Object.keys(data.entries ?? {}).length > 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new SecretStoreUnavailableError(`${file} is not readable (${(err as Error).message})`);
  }
}
