import { createRequire } from 'node:module';
import { SecretStoreUnavailableError, type SecretStore } from './secret-store.js';

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
};

/** OS keychain through keytar (macOS Keychain, Windows Credential Manager, libsecret on Linux). */
export class KeytarSecretStore implements SecretStore {
  readonly backend = 'keychain' as const;
  private keytar: Keytar | null = null;

  constructor(private readonly service: string) {}

  private load(): Keytar {
    if (this.keytar) return this.keytar;
    if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS) {
      throw new SecretStoreUnavailableError('no D-Bus session bus, so no Secret Service keychain');
    }
    try {
      // Loaded lazily: a missing native build must not stop the app from starting.
      this.keytar = createRequire(import.meta.url)('keytar') as Keytar;
      return this.keytar;
    } catch (err) {
      throw new SecretStoreUnavailableError(`keytar could not be loaded: ${(err as Error).message}`);
    }
  }

  private async call<T>(fn: (k: Keytar) => Promise<T>): Promise<T> {
    const k = this.load();
    try {
      return await fn(k);
    } catch (err) {
      throw new SecretStoreUnavailableError(`the OS keychain refused the request: ${(err as Error).message}`);
    }
  }

  get(account: string) {
    return this.call((k) => k.getPassword(this.service, account));
  }
  set(account: string, value: string) {
    return this.call((k) => k.setPassword(this.service, account, value));
  }
  delete(account: string) {
    return this.call((k) => k.deletePassword(this.service, account));
  }
  async check(): Promise<void> {
    await this.get('__agent_studio_probe__');
  }
  async listAccounts(prefix: string): Promise<string[]> {
    const all = await this.call((k) => k.findCredentials(this.service));
    return all.map((c) => c.account).filter((a) => a.startsWith(prefix));
  }
}
