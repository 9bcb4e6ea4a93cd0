import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { open, seal } from './aead.js';
import { SecretStoreUnavailableError, type SecretStore } from './secret-store.js';

interface FileFormat {
  version: 1;
  kdf: { name: 'scrypt'; salt: string; N: number; r: number; p: number };
  /** account -> base64(iv|tag|ciphertext), each bound to its account name as AAD */
  entries: Record<string, string>;
}

/**
 * AES-256-GCM encrypted secrets file, used when no OS keychain is reachable or the user chose it. The
 * key is derived with scrypt from a master key that comes from the environment or from the key file
 * in the data dir (master-key-file.ts), never from the database.
 */
export class EncryptedFileSecretStore implements SecretStore {
  readonly backend = 'file' as const;
  private key: Buffer | null = null;
  private data: FileFormat | null = null;

  constructor(
    private readonly file: string,
    private readonly masterKey: string | undefined,
    private readonly masterKeyEnv = 'AGENT_STUDIO_MASTER_KEY',
  ) {}

  private load(): { key: Buffer; data: FileFormat } {
    if (this.key && this.data) return { key: this.key, data: this.data };
    if (!this.masterKey || this.masterKey.length < 16) {
      throw new SecretStoreUnavailableError(
        `the encrypted-file backend needs ${this.masterKeyEnv} set to at least 16 characters`,
      );
    }
    let data: FileFormat;
    if (fs.existsSync(this.file)) {
      data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as FileFormat;
    } else {
      data = {
        version: 1,
        kdf: { name: 'scrypt', salt: crypto.randomBytes(16).toString('base64'), N: 1 << 15, r: 8, p: 1 },
        entries: {},
      };
    }
    const { salt, N, r, p } = data.kdf;
    const key = crypto.scryptSync(this.masterKey, Buffer.from(salt, 'base64'), 32, {
      N,
      r,
      p,
      maxmem: 128 * N * r * 2,
    });
    // Verify the master key against an existing entry so a wrong key fails loudly, not later.
    const first = Object.entries(data.entries)[0];
    if (first) {
      try {
        open(key, Buffer.from(first[1], 'base64'), first[0]);
      } catch {
        throw new SecretStoreUnavailableError(
          `${this.masterKeyEnv} does not decrypt ${path.basename(this.file)} (wrong master key?)`,
        );
      }
    }
    this.key = key;
    this.data = data;
    return { key, data };
  }

  private save(data: FileFormat): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  async get(account: string): Promise<string | null> {
    const { key, data } = this.load();
    const entry = data.entries[account];
    return entry ? open(key, Buffer.from(entry, 'base64'), account).toString('utf8') : null;
  }

  async set(account: string, value: string): Promise<void> {
    const { key, data } = this.load();
    data.entries[account] = seal(key, value, account).toString('base64');
    this.save(data);
  }

  async delete(account: string): Promise<boolean> {
    const { data } = this.load();
    if (!(account in data.entries)) return false;
    delete data.entries[account];
    this.save(data);
    return true;
  }

  async check(): Promise<void> {
    this.load();
  }

  async listAccounts(prefix: string): Promise<string[]> {
    if (!fs.existsSync(this.file)) return [];
    return Object.keys(this.load().data.entries).filter((a) => a.startsWith(prefix));
  }
}
