import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { open, seal } from './aead.js';
import { FileLockTimeoutError, withFileLock } from './file-lock.js';
import { SecretStoreUnavailableError, type SecretStore } from './secret-store.js';

interface FileFormat {
  version: 1;
  kdf: { name: 'scrypt'; salt: string; N: number; r: number; p: number };
  /** account -> base64(iv|tag|ciphertext), each bound to its account name as AAD */
  entries: Record<string, string>;
}

/** Windows refuses to replace or open a file another process has open for a moment: try again briefly. */
function retryBusy<T>(fn: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt >= 20 || !(code === 'EPERM' || code === 'EBUSY' || code === 'EACCES')) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * AES-256-GCM encrypted secrets file, used when no OS keychain is reachable or the user chose it. The
 * key is derived with scrypt from a master key that comes from the environment or from the key file
 * in the data dir (master-key-file.ts), never from the database.
 *
 * Several processes use one file (the server, the CLI, the MCP server), so no copy of the entries is
 * kept between calls: every read reads the file (small; parsing costs far less than a keychain call),
 * and every write is read-modify-write of that one entry under a lock file, then written to a temp
 * file and renamed over, so readers never see a partial file and need no lock. Only the derived key
 * is kept, for as long as the file's salt stays the same (scrypt takes ~50-100 ms).
 */
export class EncryptedFileSecretStore implements SecretStore {
  readonly backend = 'file' as const;
  private derived: { salt: string; key: Buffer; verified: boolean } | null = null;

  constructor(
    private readonly file: string,
    private readonly masterKey: string | undefined,
    private readonly masterKeyEnv = 'AGENT_STUDIO_MASTER_KEY',
  ) {}

  private get lockFile() {
    return `${this.file}.lock`;
  }

  private requireMasterKey(): string {
    if (!this.masterKey || this.masterKey.length < 16) {
      throw new SecretStoreUnavailableError(
        `the encrypted-file backend needs ${this.masterKeyEnv} set to at least 16 characters`,
      );
    }
    return this.masterKey;
  }

  /** The file as it is now, or null when there is none yet. */
  private read(): FileFormat | null {
    let raw: string;
    try {
      raw = retryBusy(() => fs.readFileSync(this.file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(raw) as FileFormat;
    } catch {
      throw new SecretStoreUnavailableError(`${path.basename(this.file)} is not readable JSON`);
    }
  }

  /** The key for this file's salt, derived once per salt and checked against an entry once. */
  private keyFor(data: FileFormat): Buffer {
    const masterKey = this.requireMasterKey();
    const { salt, N, r, p } = data.kdf;
    if (this.derived?.salt !== salt) {
      const key = crypto.scryptSync(masterKey, Buffer.from(salt, 'base64'), 32, { N, r, p, maxmem: 128 * N * r * 2 });
      this.derived = { salt, key, verified: false };
    }
    const derived = this.derived;
    // Verify the master key against an existing entry so a wrong key fails loudly, not later.
    const first = derived.verified ? undefined : Object.entries(data.entries)[0];
    if (first) {
      try {
        open(derived.key, Buffer.from(first[1], 'base64'), first[0]);
      } catch {
        throw new SecretStoreUnavailableError(
          `${this.masterKeyEnv} does not decrypt ${path.basename(this.file)} (wrong master key?)`,
        );
      }
      derived.verified = true;
    }
    return derived.key;
  }

  private write(data: FileFormat): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      const fd = fs.openSync(tmp, 'wx', 0o600);
      try {
        fs.writeFileSync(fd, JSON.stringify(data));
        fs.fsyncSync(fd); // the rename must never publish a file whose bytes are not on disk yet
      } finally {
        fs.closeSync(fd);
      }
      retryBusy(() => fs.renameSync(tmp, this.file));
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }

  /** A stuck lock is the store being unavailable (503 SECRETS_UNAVAILABLE), with the way out. */
  private locked<T>(fn: () => T): Promise<T> {
    return withFileLock(this.lockFile, fn).catch((err: unknown) => {
      if (err instanceof FileLockTimeoutError) throw new SecretStoreUnavailableError(err.message);
      throw err;
    });
  }

  /**
   * Changes one entry under the lock, starting from the file as it is now (so entries other processes
   * wrote meanwhile are kept); creates the file, with its salt, under the lock too, so two processes
   * starting at once never end with two salts. `change` says `write: false` when nothing changed.
   */
  private update<T>(change: (data: FileFormat, key: Buffer) => { result: T; write: boolean }): Promise<T> {
    this.requireMasterKey();
    // Derive the key before taking the lock (once per salt): other processes need not wait for scrypt.
    const before = this.read();
    if (before) this.keyFor(before);
    return this.locked(() => {
      const data = this.read() ?? {
        version: 1 as const,
        kdf: { name: 'scrypt' as const, salt: crypto.randomBytes(16).toString('base64'), N: 1 << 15, r: 8, p: 1 },
        entries: {},
      };
      const { result, write } = change(data, this.keyFor(data));
      if (write) this.write(data);
      return result;
    });
  }

  private decrypt(key: Buffer, data: FileFormat, account: string): string | null {
    const entry = data.entries[account];
    return entry ? open(key, Buffer.from(entry, 'base64'), account).toString('utf8') : null;
  }

  async get(account: string): Promise<string | null> {
    this.requireMasterKey();
    const data = this.read();
    return data ? this.decrypt(this.keyFor(data), data, account) : null;
  }

  async set(account: string, value: string): Promise<void> {
    await this.update((data, key) => {
      data.entries[account] = seal(key, value, account).toString('base64');
      return { result: undefined, write: true };
    });
  }

  async setIfAbsent(account: string, value: string): Promise<string> {
    const existing = await this.get(account); // the usual case needs no lock
    if (existing !== null) return existing;
    return this.update((data, key) => {
      const existing = this.decrypt(key, data, account);
      if (existing !== null) return { result: existing, write: false };
      data.entries[account] = seal(key, value, account).toString('base64');
      return { result: value, write: true };
    });
  }

  async delete(account: string): Promise<boolean> {
    this.requireMasterKey();
    if (!this.read()) return false;
    return this.update((data) => {
      if (!(account in data.entries)) return { result: false, write: false };
      delete data.entries[account];
      return { result: true, write: true };
    });
  }

  async check(): Promise<void> {
    this.requireMasterKey();
    const data = this.read();
    if (data) this.keyFor(data);
  }

  async listAccounts(prefix: string): Promise<string[]> {
    const data = this.read();
    if (!data) return [];
    this.keyFor(data);
    return Object.keys(data.entries).filter((a) => a.startsWith(prefix));
  }

  /**
   * Deletes the file when it holds no entries (after its secrets moved to the keychain), under the lock
   * so an entry another process adds at that moment is never deleted with it. True when it is gone.
   */
  async removeIfEmpty(): Promise<boolean> {
    if (!this.read()) return true;
    return this.locked(() => {
      const data = this.read();
      if (data && Object.keys(data.entries ?? {}).length > 0) return false;
      fs.rmSync(this.file, { force: true });
      return true;
    });
  }
}
