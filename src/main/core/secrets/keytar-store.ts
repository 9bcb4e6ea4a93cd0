import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { withFileLock } from './file-lock.js';
import { secretServiceAccounts } from './secret-service-accounts.js';
import { SecretStoreUnavailableError, type SecretEntry, type SecretStore } from './secret-store.js';

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
};

/**
 * Keychain calls of a batch in flight at once: keytar runs each on libuv's thread pool (4 threads by default), so
 * a few at a time overlap their round trips to the keychain without taking every thread from file and DNS work.
 */
const BATCH_CONCURRENCY = 3;
/** Listings taken while other processes delete items (see listAccounts). */
const LIST_ATTEMPTS = 20;

/**
 * The most bytes one keychain item may hold, where the keychain has a limit: Windows Credential Manager refuses a
 * credential blob over CRED_MAX_CREDENTIAL_BLOB_SIZE (5 * 512 bytes), and keytar stores the value's UTF-8 bytes.
 * macOS Keychain and the Secret Service have no limit a secret of ours comes near. Saved logins, whose notes may be
 * 20,000 characters, never meet it: they are sealed in the vault file and the keychain holds only its 44-byte key
 * (envelope-store.ts); every other item is a key, a token or a password.
 */
export function keychainItemLimit(platform: NodeJS.Platform): number | null {
  return platform === 'win32' ? 2560 : null;
}

/** A value larger than the keychain of this platform can hold in one item (keychainItemLimit). */
export class SecretTooLargeError extends Error {
  constructor(account: string, bytes: number, limit: number) {
    super(
      `The OS keychain holds at most ${limit} bytes per item and "${account}" is ${bytes} bytes; ` +
        'secrets this large belong in the sealed vault file (envelope-store.ts)',
    );
    this.name = 'SecretTooLargeError';
  }
}

/** OS keychain through keytar (macOS Keychain, Windows Credential Manager, libsecret on Linux). */
export class KeytarSecretStore implements SecretStore {
  readonly backend = 'keychain' as const;
  private keytar: Keytar | null = null;

  /**
   * `lockFile` serializes setIfAbsent across processes (keychains have no compare-and-set). By default
   * it is per user and service in the user's runtime dir (XDG_RUNTIME_DIR, else the temp dir, which is
   * per user on macOS and Windows), since the keychain is per user too.
   */
  constructor(
    private readonly service: string,
    private readonly lockFile: string = defaultLockFile(service),
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

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
    // Checked here rather than left to the keychain: Windows' refusal ("stub received bad data") names nothing.
    const limit = keychainItemLimit(this.platform);
    const bytes = Buffer.byteLength(value, 'utf8');
    if (limit !== null && bytes > limit) return Promise.reject(new SecretTooLargeError(account, bytes, limit));
    return this.call((k) => k.setPassword(this.service, account, value));
  }
  delete(account: string) {
    return this.call((k) => k.deletePassword(this.service, account));
  }
  /** A keychain has no transaction: each entry is stored whole, a crash may leave the batch partly stored. */
  async setMany(entries: readonly SecretEntry[]): Promise<void> {
    await inBatches([...new Map(entries)], ([account, value]) => this.set(account, value));
  }
  async getMany(accounts: readonly string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    await inBatches([...new Set(accounts)], async (account) => void out.set(account, await this.get(account)));
    return out;
  }
  async deleteMany(accounts: readonly string[]): Promise<number> {
    let deleted = 0;
    await inBatches([...new Set(accounts)], async (account) => void ((await this.delete(account)) && deleted++));
    return deleted;
  }
  async setIfAbsent(account: string, value: string): Promise<string> {
    const existing = await this.get(account);
    if (existing !== null) return existing;
    const create = async () => {
      const again = await this.get(account);
      if (again !== null) return;
      await this.set(account, value);
    };
    // The lock is an aid, not a requirement: when it cannot be taken (another user's file in a shared
    // temp dir, a full disk), the value is still created, and the read below adopts whatever won.
    await withFileLock(this.lockFile, create, { timeoutMs: 3000 }).catch((err: unknown) =>
      err instanceof SecretStoreUnavailableError ? Promise.reject(err) : create(),
    );
    // What is stored is the answer, also when a process that does not take the lock wrote meanwhile.
    return (await this.get(account)) ?? value;
  }
  async check(): Promise<void> {
    await this.get('__agent_studio_probe__');
  }
  /**
   * On Linux the Secret Service is asked over D-Bus for the items' "account" attributes only
   * (secret-service-accounts.ts: keytar's listing loads every secret and crashes the process when another one deletes
   * an item meanwhile). Elsewhere keytar lists them; an item another process deletes in between fails that listing
   * with "No such secret item", and it is then taken again: the item is gone, so the next one does not meet it.
   */
  async listAccounts(prefix: string): Promise<string[]> {
    const accounts = this.platform === 'linux' ? await this.secretServiceAccounts() : await this.keytarAccounts();
    return accounts.filter((a) => a.startsWith(prefix));
  }

  private async secretServiceAccounts(): Promise<string[]> {
    this.load(); // the same "no D-Bus session" refusal as every other call
    try {
      return await secretServiceAccounts(this.service);
    } catch (err) {
      throw new SecretStoreUnavailableError(`the OS keychain refused the request: ${(err as Error).message}`);
    }
  }

  private async keytarAccounts(): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.call((k) => k.findCredentials(this.service))).map((c) => c.account);
      } catch (err) {
        if (attempt >= LIST_ATTEMPTS || !/No such secret item/i.test((err as Error).message)) throw err;
      }
    }
  }
}

/** Runs `fn` on every item, BATCH_CONCURRENCY at a time; the first failure stops taking new items and is thrown. */
async function inBatches<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        await fn(items[next++]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, items.length) }, worker));
}

function defaultLockFile(service: string): string {
  const dir = process.env.XDG_RUNTIME_DIR || os.tmpdir();
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const tag = crypto.createHash('sha256').update(service).digest('hex').slice(0, 12);
  return path.join(dir, `agent-studio-keychain-${uid}-${tag}.lock`);
}
