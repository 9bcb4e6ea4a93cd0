import fs from 'node:fs';
import path from 'node:path';
import { EncryptedFileSecretStore } from './encrypted-file-store.js';
import { KeytarSecretStore } from './keytar-store.js';
import { MASTER_KEY_FILE, readOrCreateMasterKeyFile } from './master-key-file.js';
import {
  deleteMany,
  getMany,
  SecretStoreUnavailableError,
  setIfAbsent,
  setMany,
  type SecretEntry,
  type SecretStore,
} from './secret-store.js';

export type SecretsPreference = 'auto' | 'keychain' | 'file';
type Backend = 'keychain' | 'file';

export const SECRETS_FILE = 'secrets.enc.json';
const PROBE_TIMEOUT_MS = 5000;

export interface ResolvingSecretStoreOptions {
  preference: SecretsPreference;
  dataDir: string;
  keychainService: string;
  masterKeyEnv: string;
  env: NodeJS.ProcessEnv;
  /** Which backend holds this installation's secrets (the settings table), so a switch never loses them. */
  record: { get(): Backend | null; set(backend: Backend): void };
  /** Accounts of this installation start with it (the NamespacedSecretStore prefix). */
  accountPrefix: string;
  /** One-time messages for the person running the server (where secrets went and why). */
  notify: (message: string) => void;
  /** Tests inject stores; production builds them from the options above. */
  keychain?: SecretStore;
}

/**
 * Chooses where secrets live, on first use: the OS keychain whenever it is reachable, else (`auto`) an
 * encrypted file in the data dir with a generated key. The choice is recorded; when the backend
 * changes, this installation's secrets are moved (copied, verified, then removed from the old place),
 * and when they cannot be reached it refuses with a message that says how, instead of starting empty.
 */
export class ResolvingSecretStore implements SecretStore {
  private resolved: Promise<SecretStore> | null = null;
  private chosen: Backend | null = null;

  constructor(private readonly opts: ResolvingSecretStoreOptions) {}

  /** The backend in use (before the first call: the one preferred). */
  get backend(): Backend {
    return this.chosen ?? (this.opts.preference === 'file' ? 'file' : 'keychain');
  }

  private store(): Promise<SecretStore> {
    this.resolved ??= this.resolve().catch((err: unknown) => {
      this.resolved = null; // a keychain that comes up later is picked up by the next call
      throw err;
    });
    return this.resolved;
  }

  async get(account: string) {
    return (await this.store()).get(account);
  }
  async set(account: string, value: string) {
    return (await this.store()).set(account, value);
  }
  async setIfAbsent(account: string, value: string) {
    return setIfAbsent(await this.store(), account, value);
  }
  async delete(account: string) {
    return (await this.store()).delete(account);
  }
  async setMany(entries: readonly SecretEntry[]) {
    return setMany(await this.store(), entries);
  }
  async getMany(accounts: readonly string[]) {
    return getMany(await this.store(), accounts);
  }
  async deleteMany(accounts: readonly string[]) {
    return deleteMany(await this.store(), accounts);
  }
  async check() {
    await (await this.store()).check();
  }
  async listAccounts(prefix: string) {
    return (await this.store()).listAccounts(prefix);
  }

  private keychain(): SecretStore {
    return this.opts.keychain ?? new KeytarSecretStore(this.opts.keychainService);
  }

  private fileStore(): { store: EncryptedFileSecretStore; keyFile: string | null; created: boolean } {
    const file = path.join(this.opts.dataDir, SECRETS_FILE);
    const fromEnv = this.opts.env[this.opts.masterKeyEnv];
    if (fromEnv)
      return {
        store: new EncryptedFileSecretStore(file, fromEnv, this.opts.masterKeyEnv),
        keyFile: null,
        created: false,
      };
    const {
      key,
      file: keyFile,
      created,
    } = readOrCreateMasterKeyFile(this.opts.dataDir, {
      protects: file,
      keyEnv: this.opts.masterKeyEnv,
    });
    return { store: new EncryptedFileSecretStore(file, key, `the key in ${keyFile}`), keyFile, created };
  }

  private async keychainReason(): Promise<string | null> {
    const probe = this.keychain().check();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the keychain did not answer within 5 s')), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([probe, timeout]);
      return null;
    } catch (err) {
      return (err as Error).message.replace(/^No secret store is reachable \((.*?)\)\..*$/s, '$1');
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Where this installation's secrets are, from what is really stored: the record, which every process
   * writes on its first use of a secret (the server, the CLI, MCP and the desktop alike), else the file
   * the file backend leaves. No record and no file means no secret was ever stored, whatever rows the
   * database has: a CLI that only created organizations and keys stored none (rows are not secrets).
   */
  private recorded(): Backend | null {
    const rec = this.opts.record.get();
    if (rec) return rec;
    return fs.existsSync(path.join(this.opts.dataDir, SECRETS_FILE)) ? 'file' : null;
  }

  private async resolve(): Promise<SecretStore> {
    const { preference } = this.opts;
    const recorded = this.recorded();
    const keychainDown = preference === 'file' && recorded !== 'keychain' ? 'not needed' : await this.keychainReason();
    const target: Backend =
      preference === 'keychain' || (preference === 'auto' && keychainDown === null) ? 'keychain' : 'file';

    if (target === 'keychain' && keychainDown !== null) {
      throw new SecretStoreUnavailableError(keychainDown);
    }
    if (target === 'file' && recorded === 'keychain') {
      if (keychainDown !== null) {
        throw new SecretStoreUnavailableError(
          `this data dir keeps its secrets in the OS keychain, which is not reachable now (${keychainDown}); ` +
            'start the keychain (then, to move them to the encrypted file, set AGENT_STUDIO_SECRETS_BACKEND=file once), ' +
            'or use a new data dir',
        );
      }
    }
    const store = target === 'keychain' ? this.keychain() : this.openFile(keychainDown);
    if (recorded && recorded !== target) {
      const from = recorded === 'keychain' ? this.keychain() : this.fileStore().store;
      const moved = await this.move(from, store);
      if (recorded === 'file') await this.removeFileBackend();
      this.opts.notify(
        `Moved ${moved} secret(s) from the ${recorded === 'file' ? 'encrypted file' : 'OS keychain'} to the ${target === 'file' ? 'encrypted file' : 'OS keychain'}.`,
      );
    }
    this.opts.record.set(target);
    this.chosen = target;
    return store;
  }

  private openFile(keychainDown: string | null): SecretStore {
    const { store, keyFile, created } = this.fileStore();
    if (created && keyFile) {
      const why =
        keychainDown && keychainDown !== 'not needed' ? `No OS keychain is reachable (${keychainDown}), so s` : 'S';
      this.opts.notify(
        `${why}ecrets (API keys, site credentials, the session-cache key) are kept AES-256-GCM encrypted in ` +
          `${path.join(this.opts.dataDir, SECRETS_FILE)} with a random key in ${keyFile} (mode 600). This protects them in ` +
          'copies of the database, logs and backups without the key file; anyone who can read both files can read them. ' +
          `Set ${this.opts.masterKeyEnv} to keep the key elsewhere, or run an OS keychain and they move there at the next start.`,
      );
    }
    return store;
  }

  private async move(from: SecretStore, to: SecretStore): Promise<number> {
    const accounts = await from.listAccounts(this.opts.accountPrefix);
    for (const account of accounts) {
      const value = await from.get(account);
      if (value === null) continue;
      await to.set(account, value);
      if ((await to.get(account)) !== value)
        throw new SecretStoreUnavailableError(`moving "${account}" could not be verified`);
    }
    for (const account of accounts) await from.delete(account);
    return accounts.length;
  }

  /**
   * After a move to the keychain the file and its generated key have no purpose left. Removed under the file's
   * lock and only when empty: another installation's entries, or one a second process adds at that moment, stay.
   */
  private async removeFileBackend(): Promise<void> {
    if (await this.fileStore().store.removeIfEmpty()) {
      fs.rmSync(path.join(this.opts.dataDir, MASTER_KEY_FILE), { force: true });
    }
  }
}
