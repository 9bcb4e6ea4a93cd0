import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { open, seal } from './aead.js';
import { FileLockTimeoutError, withFileLock } from './file-lock.js';
import { SecretStoreUnavailableError, type SecretEntry, type SecretStore } from './secret-store.js';
import { readText, readTextSync, replaceFile, scrypt, SYNC_BYTES } from './secrets-file-io.js';

type Change<T> = { result: T; write: boolean };
type Outcome = { ok: true; result: unknown } | { ok: false; err: unknown };
interface PendingChange {
  change: (data: FileFormat, key: Buffer) => Change<unknown> | Promise<Change<unknown>>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * How the file's key comes from the master key: scrypt stretches a key a person may have chosen (the environment's
 * master key); a random 256-bit key (the vault key of envelope-store.ts) needs no stretching, only HKDF with the salt.
 */
type Kdf = { name: 'scrypt'; salt: string; N: number; r: number; p: number } | { name: 'hkdf-sha256'; salt: string };
export type KdfName = Kdf['name'];

interface FileFormat {
  version: 1;
  kdf: Kdf;
  /** account -> base64(iv|tag|ciphertext), each bound to its account name as AAD */
  entries: Record<string, string>;
}

/** Entries sealed or opened between two yields to the event loop (a batch of thousands must not hold it). */
const CHUNK = 256;

/**
 * AES-256-GCM encrypted secrets file, used when no OS keychain is reachable or the user chose it. The
 * key is derived with scrypt from a master key that comes from the environment or from the key file
 * in the data dir (master-key-file.ts), never from the database.
 *
 * Several processes use one file (the server, the CLI, the MCP server), so no copy of the entries is
 * kept between calls: every read reads the file (small; parsing costs far less than a keychain call),
 * and every write is read-modify-write of its entries under a lock file, then written to a temp
 * file and renamed over, so readers never see a partial file and need no lock. Only the derived key
 * is kept, for as long as the file's salt stays the same (scrypt takes ~50-100 ms).
 *
 * The file grows with the vault (an import adds thousands of entries), so a large file's I/O and fsync, and
 * scrypt, are asynchronous, and a batch (setMany) is one read, one encryption pass and one atomic write: the
 * server's other requests go on meanwhile.
 */
export class EncryptedFileSecretStore implements SecretStore {
  readonly backend = 'file' as const;
  private derived: { salt: string; key: Buffer; verified: boolean } | null = null;

  /** `masterKeyEnv`: where the master key comes from, as messages name it; `kdf`: for a file made new. */
  constructor(
    private readonly file: string,
    private readonly masterKey: string | undefined,
    private readonly masterKeyEnv = 'AGENT_STUDIO_MASTER_KEY',
    private readonly kdf: KdfName = 'scrypt',
  ) {}

  /**
   * This process's changes waiting for the lock. They are applied together, in order, in one read-modify-write
   * of the file (group commit): while one write is on disk the next ones gather, so many writes at once cost a few
   * writes of the file, and another process waiting for the lock is not kept out by a long row of them.
   */
  private pending: PendingChange[] = [];
  private flushing = false;
  /** The file's length when last read or written. */
  private size = 0;

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
    return this.parse(readTextSync(this.file));
  }

  private async load(): Promise<FileFormat | null> {
    return this.parse(await readText(this.file));
  }

  private parse(raw: string | null): FileFormat | null {
    if (raw === null) return null;
    this.size = raw.length;
    try {
      return JSON.parse(raw) as FileFormat;
    } catch {
      throw new SecretStoreUnavailableError(`${path.basename(this.file)} is not readable JSON`);
    }
  }

  /** Whether the file is there (nothing to delete from, and no file to make, when not). */
  private exists(): Promise<boolean> {
    return fsp.access(this.file).then(
      () => true,
      () => false,
    );
  }

  /** keyFor, with scrypt on the thread pool when this salt's key is not derived yet. */
  private async keyOf(data: FileFormat): Promise<Buffer> {
    const masterKey = this.requireMasterKey();
    const kdf = data.kdf;
    if (this.derived?.salt !== kdf.salt && kdf.name === 'scrypt') {
      const { salt, N, r, p } = kdf;
      const key = await scrypt(masterKey, Buffer.from(salt, 'base64'), { N, r, p, maxmem: 128 * N * r * 2 });
      if (this.derived?.salt !== salt) this.derived = { salt, key, verified: false };
    }
    return this.keyFor(data);
  }

  /** The key for this file's salt, derived once per salt and checked against an entry once. */
  private keyFor(data: FileFormat): Buffer {
    const masterKey = this.requireMasterKey();
    const kdf = data.kdf;
    if (this.derived?.salt !== kdf.salt)
      this.derived = { salt: kdf.salt, key: deriveSync(masterKey, kdf), verified: false };
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

  /** Under the lock: a small file synchronously (see SYNC_BYTES), a large one asynchronously. */
  private readLocked(): Promise<FileFormat | null> | FileFormat | null {
    return this.size < SYNC_BYTES ? this.read() : this.load();
  }

  private async write(data: FileFormat): Promise<void> {
    const json = JSON.stringify(data);
    await replaceFile(this.file, json);
    this.size = json.length;
  }

  /** A stuck lock is the store being unavailable (503 SECRETS_UNAVAILABLE), with the way out. */
  private locked<T>(fn: () => T | Promise<T>): Promise<T> {
    return withFileLock(this.lockFile, fn).catch((err: unknown) => {
      if (err instanceof FileLockTimeoutError) throw new SecretStoreUnavailableError(err.message);
      throw err;
    });
  }

  /**
   * Changes entries under the lock, starting from the file as it is now (so entries other processes
   * wrote meanwhile are kept); creates the file, with its salt, under the lock too, so two processes
   * starting at once never end with two salts. `change` says `write: false` when nothing changed.
   */
  private update<T>(change: (data: FileFormat, key: Buffer) => Change<T> | Promise<Change<T>>): Promise<T> {
    this.requireMasterKey();
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ change, resolve: resolve as (v: unknown) => void, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Applies the pending changes, a group at a time; each is answered once its group's file is on disk. */
  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length) {
        const group = this.pending.splice(0);
        try {
          // Derive the key before taking the lock (once per salt): other processes need not wait for scrypt.
          if (!this.derived) {
            const before = await this.load();
            if (before) await this.keyOf(before);
          }
          const outcomes = await this.locked(() => this.applyGroup(group));
          outcomes.forEach((o, i) => (o.ok ? group[i].resolve(o.result) : group[i].reject(o.err)));
        } catch (err) {
          for (const p of group) p.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async applyGroup(group: PendingChange[]): Promise<Outcome[]> {
    const data = (await this.readLocked()) ?? { version: 1 as const, kdf: newKdf(this.kdf), entries: {} };
    const key = await this.keyOf(data);
    let write = false;
    const outcomes: Outcome[] = [];
    for (const p of group) {
      try {
        const change = await p.change(data, key);
        write ||= change.write;
        outcomes.push({ ok: true, result: change.result });
      } catch (err) {
        outcomes.push({ ok: false, err }); // changes throw before they touch the entries
      }
    }
    if (write) await this.write(data);
    return outcomes;
  }

  private decrypt(key: Buffer, data: FileFormat, account: string): string | null {
    const entry = data.entries[account];
    return entry ? open(key, Buffer.from(entry, 'base64'), account).toString('utf8') : null;
  }

  async get(account: string): Promise<string | null> {
    this.requireMasterKey();
    const data = await this.load();
    return data ? this.decrypt(await this.keyOf(data), data, account) : null;
  }

  /** One read for all of them. */
  async getMany(accounts: readonly string[]): Promise<Map<string, string | null>> {
    this.requireMasterKey();
    const data = await this.load();
    const out = new Map<string, string | null>();
    const key = data ? await this.keyOf(data) : null;
    for (const [i, account] of accounts.entries()) {
      out.set(account, data && key ? this.decrypt(key, data, account) : null);
      if (i % CHUNK === CHUNK - 1) await yieldToLoop();
    }
    return out;
  }

  async set(account: string, value: string): Promise<void> {
    await this.update((data, key) => {
      data.entries[account] = seal(key, value, account).toString('base64');
      return { result: undefined, write: true };
    });
  }

  /**
   * Every entry in one read-modify-write: one encryption pass (each entry still bound to its account name),
   * one atomic write and fsync. All or nothing: a crash leaves the file as it was before, or with all of them.
   */
  async setMany(entries: readonly SecretEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.update(async (data, key) => {
      for (const [i, [account, value]] of entries.entries()) {
        data.entries[account] = seal(key, value, account).toString('base64');
        if (i % CHUNK === CHUNK - 1) await yieldToLoop();
      }
      return { result: undefined, write: true };
    });
  }

  async deleteMany(accounts: readonly string[]): Promise<number> {
    this.requireMasterKey();
    if (!accounts.length || !(await this.exists())) return 0;
    return this.update((data) => {
      const present = [...new Set(accounts)].filter((a) => a in data.entries);
      for (const account of present) delete data.entries[account];
      return { result: present.length, write: present.length > 0 };
    });
  }

  /**
   * Stores each entry whose account holds none, in one read-modify-write (moving entries in from another store while
   * other processes may write: what they wrote stays). How many were stored.
   */
  async adoptMany(entries: readonly SecretEntry[]): Promise<number> {
    if (!entries.length) return 0;
    return this.update(async (data, key) => {
      let adopted = 0;
      for (const [i, [account, value]] of entries.entries()) {
        if (account in data.entries) continue;
        data.entries[account] = seal(key, value, account).toString('base64');
        adopted++;
        if (i % CHUNK === CHUNK - 1) await yieldToLoop();
      }
      return { result: adopted, write: adopted > 0 };
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
    if (!(await this.exists())) return false;
    return this.update((data) => {
      if (!(account in data.entries)) return { result: false, write: false };
      delete data.entries[account];
      return { result: true, write: true };
    });
  }

  async check(): Promise<void> {
    this.requireMasterKey();
    const data = await this.load();
    if (data) await this.keyOf(data);
  }

  async listAccounts(prefix: string): Promise<string[]> {
    const data = await this.load();
    if (!data) return [];
    await this.keyOf(data);
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

function newKdf(name: KdfName): Kdf {
  const salt = crypto.randomBytes(16).toString('base64');
  return name === 'scrypt' ? { name, salt, N: 1 << 15, r: 8, p: 1 } : { name, salt };
}

function deriveSync(masterKey: string, kdf: Kdf): Buffer {
  const salt = Buffer.from(kdf.salt, 'base64');
  if (kdf.name === 'hkdf-sha256')
    return Buffer.from(crypto.hkdfSync('sha256', masterKey, salt, 'agent-studio secrets file', 32));
  if (kdf.name === 'scrypt')
    return crypto.scryptSync(masterKey, salt, 32, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 128 * kdf.N * kdf.r * 2 });
  throw new SecretStoreUnavailableError(`the secrets file names a key derivation this version does not know`);
}
