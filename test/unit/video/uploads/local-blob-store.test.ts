import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../../../../src/main/core/secrets/secret-store.js';
import { LocalBlobStore } from '../../../../src/main/core/video/uploads/storage/local-blob-store.js';
import { ByteGate } from '../../../../src/main/core/video/uploads/storage/stream-guards.js';
import { SIGNING_KEY_ACCOUNT, UrlSigner } from '../../../../src/main/core/video/uploads/storage/url-signer.js';
import { tempDir } from '../../../helpers/temp-dir.js';

class MemorySecrets implements SecretStore {
  readonly backend = 'file' as const;
  readonly values = new Map<string, string>();
  gets = 0;
  async get(a: string) {
    this.gets++;
    return this.values.get(a) ?? null;
  }
  async set(a: string, v: string) {
    this.values.set(a, v);
  }
  async delete(a: string) {
    return this.values.delete(a);
  }
  async check() {}
  async listAccounts(prefix: string) {
    return [...this.values.keys()].filter((a) => a.startsWith(prefix));
  }
}

const files = (dir: string): string[] =>
  fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
        .filter((d) => d.isFile())
        .map((d) => d.name)
    : [];

describe('LocalBlobStore', () => {
  const make = () => {
    const secrets = new MemorySecrets();
    const root = path.join(tempDir(), 'blobs');
    return {
      secrets,
      root,
      store: new LocalBlobStore({ root, signer: new UrlSigner(secrets), baseUrl: 'http://127.0.0.1:1' }),
    };
  };

  it('creates the signing key once, keeps it in the secret store and caches it', async () => {
    const { secrets, store } = make();
    const a = await store.presignUpload({ key: 'k/a.png', contentType: 'image/png', maxBytes: 10, expiresInSec: 60 });
    const b = await store.presignUpload({
      key: 'k/a.png',
      contentType: 'image/png',
      maxBytes: 10,
      expiresInSec: 60,
      baseUrl: 'http://localhost:9',
    });
    expect(secrets.values.get(SIGNING_KEY_ACCOUNT)).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.gets).toBe(1);
    expect(a).toMatch(
      /^http:\/\/127\.0\.0\.1:1\/api\/uploads\/k\/a\.png\?ct=image%2Fpng&max=10&exp=\d+&sig=[0-9a-f]{64}$/,
    );
    expect(b.startsWith('http://localhost:9/api/uploads/')).toBe(true);
  });

  it('verifies upload grants and refuses tampering, swapping and expiry', async () => {
    const { store } = make();
    const url = new URL(
      await store.presignUpload({ key: 'k/a.png', contentType: 'image/png', maxBytes: 10, expiresInSec: 60 }),
    );
    const q = Object.fromEntries(url.searchParams);
    await expect(store.verifyUpload('k/a.png', q)).resolves.toMatchObject({ maxBytes: 10, contentType: 'image/png' });
    await expect(store.verifyUpload('k/b.png', q)).rejects.toMatchObject({ status: 403 });
    await expect(store.verifyUpload('k/a.png', { ...q, max: '1000' })).rejects.toMatchObject({ status: 403 });
    await expect(store.verifyUpload('k/a.png', { ...q, ct: 'image/gif' })).rejects.toMatchObject({ status: 403 });
    await expect(store.verifyUpload('k/a.png', { ...q, sig: undefined })).rejects.toMatchObject({ status: 403 });
    await expect(store.verifyUpload('k/a.png', { ...q, sig: 'zz' })).rejects.toMatchObject({ status: 403 });
    const dl = new URL(await store.presignDownload('k/a.png', { expiresInSec: 60 }));
    // A download signature never authorizes an upload.
    await expect(store.verifyUpload('k/a.png', { ...q, sig: dl.searchParams.get('sig') ?? '' })).rejects.toMatchObject({
      status: 403,
    });
    const old = new URL(
      await store.presignUpload({ key: 'k/a.png', contentType: 'image/png', maxBytes: 10, expiresInSec: -5 }),
    );
    await expect(store.verifyUpload('k/a.png', Object.fromEntries(old.searchParams))).rejects.toThrow(/expired/);
  });

  it('puts, heads, streams ranges and deletes', async () => {
    const { store, root } = make();
    expect(
      await store.put('a/b/c.mp4', Readable.from([Buffer.from('hello '), Buffer.from('world')]), 'video/mp4'),
    ).toEqual({ size: 11 });
    expect(await store.head('a/b/c.mp4')).toEqual({ size: 11, contentType: 'video/mp4' });
    expect(await text(await store.getStream('a/b/c.mp4', { start: 6, end: 10 }))).toBe('world');
    expect(await store.head('a/b/missing.mp4')).toBeNull();
    await expect(store.getStream('a/b/missing.mp4')).rejects.toMatchObject({ status: 404 });
    await expect(store.getStream('a/b')).rejects.toMatchObject({ status: 404 });
    expect(() => store.pathOf('../escape')).toThrow(/Invalid storage key/);
    await store.delete('a/b/c.mp4');
    expect(await store.head('a/b/c.mp4')).toBeNull();
    expect(files(root)).toEqual([]);
  });

  it('is self-served: its download URLs name its local files', async () => {
    const { store, root } = make();
    expect(store.selfServed).toBe(store);
    const key = 'uploads/o1/abc/My_File.png';
    const url = new URL(await store.presignDownload(key, { expiresInSec: 60, baseUrl: 'http://localhost:9' }));
    expect(store.fileOfUrl(url)).toBe(path.join(root, 'uploads', 'o1', 'abc', 'My_File.png'));
    expect(store.fileOfUrl(url)).toBe(store.pathOf(key));
    expect(store.fileOfUrl(new URL('http://localhost:9/api/uploads/uploads/o1/abc/x.png'))).toBeNull();
    expect(store.fileOfUrl(new URL('http://localhost:9/api/files/..%2F..%2Fagent-studio.db'))).toBeNull();
  });

  it('leaves nothing behind when the stream fails', async () => {
    const { store, root } = make();
    const gate = new ByteGate({ maxBytes: 5, tooLarge: () => new Error('too big') });
    Readable.from([Buffer.from('0123456789')]).pipe(gate);
    await expect(store.put('x/y.bin', gate, 'application/octet-stream')).rejects.toThrow('too big');
    expect(files(root)).toEqual([]);
  });
});
