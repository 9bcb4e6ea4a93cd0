import { API_ROUTES } from '../../../../../shared/api/index.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, notFound } from '../../../errors.js';
import { normalizeType, typeOfExtension } from '../../../../../shared/media-types.js';
import { assertValidKey, decodeKey, encodeKey } from './blob-keys.js';
import type { BlobHead, BlobVerifier, SelfServedBlobStore, SignedQuery } from './blob-store.js';
import { holdErrors, writeFileAtomic } from './stream-guards.js';
import { sweepTempFiles } from './temp-files.js';
import type { DownloadGrant, UploadGrant, UrlSigner } from './url-signer.js';

export interface LocalBlobStoreOptions {
  /** `<dataDir>/blobs`. */
  root: string;
  signer: UrlSigner;
  /** Base URL of this server for presigned URLs made outside a request (e.g. webhook video_url). */
  baseUrl: string;
}

export type { SignedQuery } from './blob-store.js';

const META_DIR = '.meta';
/** Where this server answers the store's signed downloads (GET /api/files/<key>). */
/** The local store's routes end in `*`, the storage key: its URLs are that path prefix plus the encoded key. */
const FILES_PATH = API_ROUTES.getFile.path.slice(0, -1);
const UPLOADS_PATH = API_ROUTES.putUpload.path.slice(0, -1);

const forbiddenUrl = (message: string) => new AppError(403, 'forbidden', message);

/**
 * Blobs as files under `<dataDir>/blobs/<key>`, written atomically (temp file, fsync, rename). The
 * content type lives in `<root>/.meta/<key>.json` (keys never start with a dot, so no clash).
 * Presigned URLs point at this server's own `PUT /api/uploads/<key>` and `GET /api/files/<key>`,
 * signed with an HMAC key kept in the secret store.
 */
export class LocalBlobStore implements SelfServedBlobStore {
  readonly kind = 'local' as const;
  /** This server answers the store's URLs and holds its files. */
  readonly selfServed: SelfServedBlobStore = this;
  private baseUrl: string;

  constructor(private readonly opts: LocalBlobStoreOptions) {
    this.baseUrl = opts.baseUrl;
  }

  /** Set by the HTTP layer once the server listens (the real port when it was 0). */
  setBaseUrl(url: string): void {
    this.baseUrl = url.replace(/\/+$/, '');
  }

  get root(): string {
    return this.opts.root;
  }

  pathOf(key: string): string {
    assertValidKey(key);
    const p = path.resolve(this.opts.root, ...key.split('/'));
    if (!p.startsWith(path.resolve(this.opts.root) + path.sep))
      throw new AppError(400, 'validation_error', 'Invalid storage key.');
    return p;
  }

  fileOfUrl(url: URL): string | null {
    if (!url.pathname.startsWith(FILES_PATH)) return null;
    const key = decodeKey(url.pathname.slice(FILES_PATH.length));
    return key ? this.pathOf(key) : null;
  }

  private metaPathOf(key: string): string {
    this.pathOf(key);
    return path.resolve(this.opts.root, META_DIR, ...key.split('/')) + '.json';
  }

  /** `baseUrl` (from the request's Host) overrides the server's own address. */
  async presignUpload(opts: {
    key: string;
    contentType: string;
    maxBytes: number;
    expiresInSec: number;
    baseUrl?: string;
  }): Promise<string> {
    assertValidKey(opts.key);
    const grant: UploadGrant = {
      key: opts.key,
      contentType: normalizeType(opts.contentType),
      maxBytes: opts.maxBytes,
      expires: Math.floor(Date.now() / 1000) + opts.expiresInSec,
    };
    const sig = await this.opts.signer.signUpload(grant);
    const q = new URLSearchParams({
      ct: grant.contentType,
      max: String(grant.maxBytes),
      exp: String(grant.expires),
      sig,
    });
    return `${opts.baseUrl ?? this.baseUrl}${UPLOADS_PATH}${encodeKey(opts.key)}?${q}`;
  }

  async presignDownload(
    key: string,
    opts: { expiresInSec: number; fileName?: string; baseUrl?: string },
  ): Promise<string> {
    assertValidKey(key);
    const grant: DownloadGrant = {
      key,
      expires: Math.floor(Date.now() / 1000) + opts.expiresInSec,
      fileName: opts.fileName,
    };
    const sig = await this.opts.signer.signDownload(grant);
    const q = new URLSearchParams({ exp: String(grant.expires), ...(opts.fileName ? { fn: opts.fileName } : {}), sig });
    return `${opts.baseUrl ?? this.baseUrl}${FILES_PATH}${encodeKey(key)}?${q}`;
  }

  /** Checks a presigned upload URL; returns what it grants. 403 for a bad signature or an expired URL. */
  async verifyUpload(key: string, q: SignedQuery): Promise<UploadGrant> {
    const grant: UploadGrant = { key, contentType: q.ct ?? '', maxBytes: Number(q.max), expires: Number(q.exp) };
    if (!q.sig || !q.ct || !Number.isSafeInteger(grant.maxBytes) || !Number.isSafeInteger(grant.expires)) {
      throw forbiddenUrl(
        'The upload URL is missing its signature parameters; use the upload_url returned by POST /api/s3/presign-upload unchanged.',
      );
    }
    if (!(await this.opts.signer.verifyUpload(grant, q.sig))) {
      throw forbiddenUrl(
        'The upload URL signature does not match; use the upload_url returned by POST /api/s3/presign-upload unchanged.',
      );
    }
    if (Math.floor(Date.now() / 1000) > grant.expires) {
      throw forbiddenUrl(
        `The upload URL expired at ${new Date(grant.expires * 1000).toISOString()}; request a new one from POST /api/s3/presign-upload.`,
      );
    }
    return grant;
  }

  async verifyDownload(key: string, q: SignedQuery): Promise<DownloadGrant> {
    const grant: DownloadGrant = { key, expires: Number(q.exp), fileName: q.fn || undefined };
    if (!q.sig || !Number.isSafeInteger(grant.expires) || !(await this.opts.signer.verifyDownload(grant, q.sig))) {
      throw forbiddenUrl('The download URL signature is missing or does not match.');
    }
    if (Math.floor(Date.now() / 1000) > grant.expires) throw forbiddenUrl('The download URL has expired.');
    return grant;
  }

  async put(
    key: string,
    body: Readable | Buffer,
    contentType: string,
    opts: { verify?: BlobVerifier } = {},
  ): Promise<{ size: number }> {
    holdErrors(body);
    const dest = this.pathOf(key);
    const { size, checked } = await writeFileAtomic(dest, body, opts.verify);
    try {
      const meta = this.metaPathOf(key);
      const stored = normalizeType(checked ?? contentType);
      await writeFileAtomic(meta, Buffer.from(JSON.stringify({ contentType: stored })));
    } catch (err) {
      await fs.promises.rm(dest, { force: true });
      throw err;
    }
    return { size };
  }

  async head(key: string): Promise<BlobHead | null> {
    const file = this.pathOf(key);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) return null;
    let contentType = typeOfExtension(key);
    try {
      const meta = JSON.parse(await fs.promises.readFile(this.metaPathOf(key), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string') contentType = meta.contentType;
    } catch {
      // no metadata: fall back to the extension
    }
    return { size: stat.size, contentType };
  }

  /** The stored file itself: nothing is copied. */
  async withLocalFile<T>(
    key: string,
    _maxBytes: number,
    fn: (file: string) => Promise<T>,
  ): Promise<{ result: T; etag?: string }> {
    const file = this.pathOf(key);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) throw notFound(`No stored object "${key}".`);
    return { result: await fn(file) };
  }

  async getStream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'ENOTDIR')
        throw notFound(`No stored object "${key}".`);
      throw err;
    });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw notFound(`No stored object "${key}".`);
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
    await fs.promises.rm(this.metaPathOf(key), { force: true });
  }

  /** Only `.tmp-<pid>-<hex>` files of dead writers under the blobs dir (uploads, downloads, metadata). */
  sweepTempFiles(): Promise<number> {
    return sweepTempFiles(this.opts.root);
  }

  async dispose(): Promise<void> {}
}
