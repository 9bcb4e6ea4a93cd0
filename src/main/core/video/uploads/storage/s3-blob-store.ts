import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { badRequest, notFound } from '../../../errors.js';
import { lazyModule } from '../../../lazy-module.js';
import type { SecretStore } from '../../../secrets/secret-store.js';
import { formatBytes, normalizeType } from '../../../../../shared/media-types.js';
import { assertValidKey } from './blob-keys.js';
import type { BlobHead, BlobStore, BlobVerifier } from './blob-store.js';
import { ByteGate, holdErrors, writeFileAtomic } from './stream-guards.js';
import { sweepTempFiles, tempFileName } from './temp-files.js';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Secret-store accounts holding the access key id and secret access key. */
  accessKeyIdSecret: string;
  secretAccessKeySecret: string;
  secrets: SecretStore;
  /** Where streamed puts are spooled to learn their length before PutObject, and objects are fetched to be checked (`<dataDir>/tmp`). */
  spoolDir: string;
}

/** The AWS SDK is loaded when an S3 store first needs it: a server on local storage never loads it. */
const loadS3 = lazyModule(() => import('@aws-sdk/client-s3'));
const loadPresigner = lazyModule(() => import('@aws-sdk/s3-request-presigner'));

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Blobs in an S3-compatible bucket. Credentials come from the secret store (never the config file);
 * when neither account is set, the AWS SDK's default chain (environment, ~/.aws, instance role) is used.
 *
 * What a presigned S3 PUT cannot enforce: a maximum size (that needs a presigned POST policy), the
 * content (S3 never looks at it) and single use (the URL works again until it expires). So an upload
 * is checked when its key is first used (MediaIngestService): size by HEAD, content by decoding a
 * downloaded copy, and the ETag of the checked bytes is recorded so a later replacement is noticed.
 * The content type IS signed: a PUT with another type gets 403 from S3.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  /** S3 takes and serves the bytes: presigned URLs point at the bucket (a `baseUrl` is not used). */
  readonly selfServed = null;
  private clientPromise: Promise<S3Client> | null = null;

  constructor(private readonly opts: S3BlobStoreOptions) {}

  private client(): Promise<S3Client> {
    if (!this.clientPromise) {
      const creating = (async () => {
        const [accessKeyId, secretAccessKey, { S3Client }] = await Promise.all([
          this.opts.secrets.get(this.opts.accessKeyIdSecret),
          this.opts.secrets.get(this.opts.secretAccessKeySecret),
          loadS3(),
        ]);
        const config: S3ClientConfig = {
          region: this.opts.region,
          endpoint: this.opts.endpoint,
          forcePathStyle: this.opts.forcePathStyle,
          // Without these, newer SDKs add CRC32 checksum parameters to presigned PUTs that plain clients cannot satisfy.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        };
        if (accessKeyId && secretAccessKey) config.credentials = { accessKeyId, secretAccessKey };
        return new S3Client(config);
      })();
      creating.catch(() => {
        if (this.clientPromise === creating) this.clientPromise = null;
      });
      this.clientPromise = creating;
    }
    return this.clientPromise;
  }

  async presignUpload(opts: {
    key: string;
    contentType: string;
    maxBytes: number;
    expiresInSec: number;
  }): Promise<string> {
    assertValidKey(opts.key);
    const [{ PutObjectCommand }, { getSignedUrl }] = await Promise.all([loadS3(), loadPresigner()]);
    const cmd = new PutObjectCommand({
      Bucket: this.opts.bucket,
      Key: opts.key,
      ContentType: normalizeType(opts.contentType),
    });
    return getSignedUrl(await this.client(), cmd, {
      expiresIn: opts.expiresInSec,
      signableHeaders: new Set(['content-type']),
    });
  }

  async presignDownload(key: string, opts: { expiresInSec: number; fileName?: string }): Promise<string> {
    assertValidKey(key);
    const disposition = opts.fileName
      ? `attachment; filename="${opts.fileName.replace(/["\\\r\n]/g, '_')}"`
      : undefined;
    const [{ GetObjectCommand }, { getSignedUrl }] = await Promise.all([loadS3(), loadPresigner()]);
    const cmd = new GetObjectCommand({ Bucket: this.opts.bucket, Key: key, ResponseContentDisposition: disposition });
    return getSignedUrl(await this.client(), cmd, { expiresIn: opts.expiresInSec });
  }

  /**
   * Buffers go up directly; streams (and anything to verify) are spooled to a temp file first, so
   * PutObject gets a Content-Length and `verify` sees the complete bytes before anything is stored.
   */
  async put(
    key: string,
    body: Readable | Buffer,
    contentType: string,
    opts: { verify?: BlobVerifier } = {},
  ): Promise<{ size: number }> {
    holdErrors(body);
    assertValidKey(key);
    const client = await this.client();
    const { PutObjectCommand } = await loadS3();
    if (Buffer.isBuffer(body) && !opts.verify) {
      await client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: key,
          Body: body,
          ContentType: normalizeType(contentType),
          ContentLength: body.length,
        }),
      );
      return { size: body.length };
    }
    return this.withSpool(body, opts.verify, async (spool, size, checked) => {
      await client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: key,
          Body: fs.createReadStream(spool),
          ContentType: normalizeType(checked ?? contentType),
          ContentLength: size,
        }),
      );
      return { size };
    });
  }

  /** Writes `body` to a spool file (checked by `check` if given), runs `fn` on it, then removes it. */
  private async withSpool<C, T>(
    body: Readable | Buffer,
    check: ((file: string) => Promise<C>) | undefined,
    fn: (spool: string, size: number, checked: C | undefined) => Promise<T>,
  ): Promise<T> {
    await fs.promises.mkdir(this.opts.spoolDir, { recursive: true, mode: 0o700 });
    const spool = path.join(this.opts.spoolDir, tempFileName('s3-spool-'));
    try {
      const { size, checked } = await writeFileAtomic(spool, body, check);
      return await fn(spool, size, checked);
    } finally {
      await fs.promises.rm(spool, { force: true });
    }
  }

  async head(key: string): Promise<BlobHead | null> {
    assertValidKey(key);
    const { HeadObjectCommand } = await loadS3();
    try {
      const out = await (await this.client()).send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        contentType: out.ContentType ?? 'application/octet-stream',
        ...(out.ETag ? { etag: out.ETag } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Downloads the object (refused past maxBytes) to a spool file for `fn`; the ETag is that of the bytes downloaded. */
  async withLocalFile<T>(
    key: string,
    maxBytes: number,
    fn: (file: string) => Promise<T>,
  ): Promise<{ result: T; etag?: string }> {
    const { body, etag } = await this.getObject(key);
    const gate = new ByteGate({
      maxBytes,
      tooLarge: () => badRequest(`The uploaded file is larger than the ${formatBytes(maxBytes)} allowed.`),
    });
    body.on('error', (err) => gate.destroy(err));
    const result = await this.withSpool(body.pipe(gate), undefined, (spool) => fn(spool));
    return { result, ...(etag ? { etag } : {}) };
  }

  async getStream(key: string): Promise<Readable> {
    return (await this.getObject(key)).body;
  }

  private async getObject(key: string): Promise<{ body: Readable; etag?: string }> {
    assertValidKey(key);
    const { GetObjectCommand } = await loadS3();
    try {
      const out = await (await this.client()).send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      const body = out.Body;
      let stream: Readable;
      if (body instanceof Readable) stream = body;
      else if (body && 'transformToWebStream' in body) {
        stream = Readable.fromWeb(body.transformToWebStream() as import('node:stream/web').ReadableStream);
      } else stream = Readable.from([]);
      return { body: stream, etag: out.ETag };
    } catch (err) {
      if (isNotFound(err)) throw notFound(`No stored object "${key}".`);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const { DeleteObjectCommand } = await loadS3();
    await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  /**
   * Only this store's own spool and temp files (`s3-spool-<pid>-<hex>`, `.tmp-<pid>-<hex>`) of dead
   * writers, at the top of the spool dir (its subdirectories belong to others, e.g. renders).
   */
  sweepTempFiles(): Promise<number> {
    return sweepTempFiles(this.opts.spoolDir, { prefixes: ['.tmp-', 's3-spool-'], recursive: false });
  }

  async dispose(): Promise<void> {
    const pending = this.clientPromise;
    this.clientPromise = null;
    if (pending) (await pending.catch(() => null))?.destroy();
  }
}
