// Chromium's cookie encryption (components/os_crypt), read-only. What a value's first bytes mean:
//   v10 on Linux: AES-128-CBC, key PBKDF2-SHA1("peanuts", "saltysalt", 1 iteration), IV 16 spaces (the basic store)
//   v11 on Linux: the same with the password the desktop's keyring keeps ("Chromium Safe Storage", …: the Secret
//       Service, or KWallet on KDE; linux-keyrings.ts)
//   v10 on macOS: the same with the Keychain's "… Safe Storage" password and 1003 iterations
//   v10 on Windows: AES-256-GCM with the key in Local State (os_crypt.encrypted_key, DPAPI-protected), nonce 12 bytes
//   v20 on Windows: app-bound encryption: only Chrome itself (its elevation service) can open the key
// Cookies DB meta version 24 and later prefix the plaintext with SHA-256 of the cookie's host (32 bytes).
import crypto from 'node:crypto';
import { AppError } from '../../errors.js';

export type ChromiumPlatform = 'linux' | 'darwin' | 'win32';

/** The keys a profile's values may need; each is loaded only when a value asks for it. */
export interface ChromiumKeys {
  /**
   * Linux v11 / macOS v10: where the OS keychain's "… Safe Storage" password may be, most likely first (Linux: the
   * desktop's own store, then the others). The first that opens a value is the key; when none does, the first
   * refusal is the error.
   */
  safeStoragePasswords?: readonly (() => Promise<string>)[];
  /** Windows v10: the AES-256-GCM key unwrapped from Local State with DPAPI. */
  windowsKey?: () => Promise<Buffer>;
}

const IV = Buffer.alloc(16, 0x20);

const hostHash = (hostKey: string) => crypto.createHash('sha256').update(hostKey).digest();

export function cbcKey(password: string, iterations: number): Buffer {
  return crypto.pbkdf2Sync(password, 'saltysalt', iterations, 16, 'sha1');
}

function decryptCbc(key: Buffer, data: Buffer): Buffer {
  const decipher = crypto.createDecipheriv('aes-128-cbc', key, IV);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

function decryptGcm(key: Buffer, data: Buffer): Buffer {
  const nonce = data.subarray(0, 12);
  const tag = data.subarray(data.length - 16);
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
}

export const appBoundEncryption = () =>
  new AppError(
    422,
    'app_bound_encryption',
    "Chrome's app-bound encryption: only Chrome itself can read these cookies (values marked v20). Sign in with " +
      'Agent Studio instead (POST /api/login, or a saved login), or export the cookies from Chrome with an extension ' +
      'and import them as a storageState.',
    { reason: 'app_bound_encryption' },
  );

const undecryptable = (why: string) =>
  new AppError(422, 'cookies_unreadable', `The profile's cookies could not be decrypted: ${why}.`, {
    reason: 'cookies_unreadable',
  });

/**
 * Decrypts the cookie values of one profile. A wrong key shows as a padding (CBC) or tag (GCM) failure on the first
 * value: one clear error rather than silently empty cookies.
 */
export class ChromiumDecryptor {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly platform: ChromiumPlatform,
    private readonly keys: ChromiumKeys,
    /** The Cookies file's meta version: 24 and later prefix values with the host's SHA-256. */
    private readonly metaVersion: number,
  ) {}

  private key(name: string, load: () => Promise<Buffer>): Promise<Buffer> {
    let key = this.cache.get(name);
    if (!key) {
      key = load();
      this.cache.set(name, key);
    }
    return key;
  }

  /** The key from the first password that opens `sample` (the first value that needs one). */
  private async passwordKey(iterations: number, hostKey: string, sample: Buffer): Promise<Buffer> {
    const passwords = this.keys.safeStoragePasswords ?? [];
    if (!passwords.length) throw undecryptable('no keychain password is available for this browser');
    return this.key(`password:${iterations}`, async () => {
      let refused: unknown = null;
      for (const password of passwords) {
        let key: Buffer;
        try {
          key = cbcKey(await password(), iterations);
        } catch (err) {
          refused ??= err;
          continue;
        }
        if (this.opens(key, hostKey, sample)) return key;
      }
      throw refused ?? undecryptable('the key does not open them (the keychain holds another password)');
    });
  }

  /**
   * Whether `key` opens the value: its padding checks out and, from meta version 24, the plaintext starts with the
   * host's SHA-256 (a wrong key passes the padding check about once in 256 tries, never both).
   */
  private opens(key: Buffer, hostKey: string, data: Buffer): boolean {
    let plain: Buffer;
    try {
      plain = decryptCbc(key, data);
    } catch {
      return false;
    }
    return this.metaVersion < 24 || plain.subarray(0, 32).equals(hostHash(hostKey));
  }

  async decrypt(hostKey: string, plainValue: string, encrypted: Buffer): Promise<string> {
    if (!encrypted.length) return plainValue;
    const prefix = encrypted.subarray(0, 3).toString('latin1');
    const body = encrypted.subarray(3);
    let plain: Buffer;
    try {
      if (prefix === 'v20') throw appBoundEncryption();
      if (this.platform === 'win32') {
        if (prefix !== 'v10' || !this.keys.windowsKey) throw undecryptable(`unknown value format "${prefix}"`);
        plain = decryptGcm(await this.key('windows', this.keys.windowsKey), body);
      } else if (this.platform === 'darwin') {
        if (prefix !== 'v10') throw undecryptable(`unknown value format "${prefix}"`);
        plain = decryptCbc(await this.passwordKey(1003, hostKey, body), body);
      } else if (prefix === 'v10') {
        plain = decryptCbc(await this.key('peanuts', async () => cbcKey('peanuts', 1)), body);
      } else if (prefix === 'v11') {
        plain = decryptCbc(await this.passwordKey(1, hostKey, body), body);
      } else {
        throw undecryptable(`unknown value format "${prefix}" (not v10/v11)`);
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw undecryptable('the key does not open them (the keychain holds another password)');
    }
    return this.stripHostHash(hostKey, plain).toString('utf8');
  }

  private stripHostHash(hostKey: string, plain: Buffer): Buffer {
    if (this.metaVersion < 24 || plain.length < 32) return plain;
    return plain.subarray(0, 32).equals(hostHash(hostKey)) ? plain.subarray(32) : plain;
  }
}
