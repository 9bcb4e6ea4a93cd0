import crypto from 'node:crypto';
import { setIfAbsent, type SecretStore } from '../../../secrets/secret-store.js';

/** Keychain account of the HMAC key that signs local upload/download URLs. */
export const SIGNING_KEY_ACCOUNT = 'blob-url-signing-key';

export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Unix seconds. */
  expires: number;
}

export interface DownloadGrant {
  key: string;
  expires: number;
  fileName?: string;
}

/**
 * HMAC-SHA-256 signatures for the local blob store's URLs. The key is 32 random bytes created once
 * and kept in the secret store; it is cached in memory after the first load. Upload and download
 * signatures cover different strings (method first), so one can never stand in for the other.
 */
export class UrlSigner {
  private keyPromise: Promise<Buffer> | null = null;

  constructor(private readonly secrets: SecretStore) {}

  private key(): Promise<Buffer> {
    if (!this.keyPromise) {
      const loading = (async () => {
        const fresh = crypto.randomBytes(32);
        // Create-once across processes: a URL signed by the server must verify in the CLI and back.
        const stored = await setIfAbsent(this.secrets, SIGNING_KEY_ACCOUNT, fresh.toString('hex'));
        if (/^[0-9a-f]{64}$/.test(stored)) return Buffer.from(stored, 'hex');
        await this.secrets.set(SIGNING_KEY_ACCOUNT, fresh.toString('hex'));
        return fresh;
      })();
      // A failed load (secret store down) is retried on the next call instead of being cached.
      loading.catch(() => {
        if (this.keyPromise === loading) this.keyPromise = null;
      });
      this.keyPromise = loading;
    }
    return this.keyPromise;
  }

  private async mac(parts: (string | number)[]): Promise<string> {
    return crypto
      .createHmac('sha256', await this.key())
      .update(parts.join('\n'))
      .digest('hex');
  }

  signUpload(g: UploadGrant): Promise<string> {
    return this.mac(['PUT', g.key, g.contentType, g.maxBytes, g.expires]);
  }

  signDownload(g: DownloadGrant): Promise<string> {
    return this.mac(['GET', g.key, g.expires, g.fileName ?? '']);
  }

  async verifyUpload(g: UploadGrant, sig: string): Promise<boolean> {
    return safeEqualHex(await this.signUpload(g), sig);
  }

  async verifyDownload(g: DownloadGrant, sig: string): Promise<boolean> {
    return safeEqualHex(await this.signDownload(g), sig);
  }
}

function safeEqualHex(expected: string, given: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  return crypto.timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}
