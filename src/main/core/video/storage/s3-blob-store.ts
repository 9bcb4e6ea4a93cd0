import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { notFound } from '../../errors.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { normalizeType } from '../media-types.js';
import { assertValidKey } from './blob-keys.js';
import type { BlobStore } from './blob-store.js';
import { holdErrors, writeFileAtomic } from './stream-guards.js';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Secret-store accounts holding the access key id and secret access key. */
  accessKeyIdSecret: string;
  secretAccessKeySecret: string;
  secrets: SecretStore;
  /** Where streamed puts are spooled to learn their length before PutObject (`<dataDir>/tmp`). */
  spoolDir: string;
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Blobs in an S3-compatible bucket. Credentials come from the secret store (never the config file);
 * when neither account is set, the AWS SDK's default chain (environment, ~/.aws, instance role) is used.
 *
 * Size caveat: a presigned S3 PUT cannot enforce a maximum size (that needs a presigned POST policy),
 * so the size is checked with HEAD when the key is first used (MediaIngestService.resolve) and an
 * oversized object is deleted then. The content type IS signed: a PUT with another type gets 403 from S3.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private clientPromise: Promise<S3Client> | null = null;

  constructor(private readonly opts: S3BlobStoreOptions) {}

  private client(): Promise<S3Client> {
    if (!this.clientPromise) {
      const creating = (async () => {
        const [accessKeyId, secretAccessKey] = await Promise.all([
          this.opts.secrets.get(this.opts.accessKeyIdSecret),
          this.opts.secrets.get(this.opts.secretAccessKeySecret),
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
    const cmd = new GetObjectCommand({ Bucket: this.opts.bucket, Key: key, ResponseContentDisposition: disposition });
    return getSignedUrl(await this.client(), cmd, { expiresIn: opts.expiresInSec });
  }

  /** Buffers go up directly; streams are spooled to a temp file first so PutObject gets a Content-Length. */
  async put(key: string, body: Readable | Buffer, contentType: string): Promise<{ size: number }> {
    holdErrors(body);
    assertValidKey(key);
    const client = await this.client();
    const ContentType = normalizeType(contentType);
    if (Buffer.isBuffer(body)) {
      await client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: key,
          Body: body,
          ContentType,
          ContentLength: body.length,
        }),
      );
      return { size: body.length };
    }
    await fs.promises.mkdir(this.opts.spoolDir, { recursive: true, mode: 0o700 });
    const spool = path.join(this.opts.spoolDir, `s3-spool-${crypto.randomBytes(8).toString('hex')}`);
    try {
      const { size } = await writeFileAtomic(spool, body);
      await client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: key,
          Body: fs.createReadStream(spool),
          ContentType,
          ContentLength: size,
        }),
      );
      return { size };
    } finally {
      await fs.promises.rm(spool, { force: true });
    }
  }

  async head(key: string): Promise<{ size: number; contentType: string } | null> {
    assertValidKey(key);
    try {
      const out = await (await this.client()).send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async getStream(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      const out = await (await this.client()).send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      const body = out.Body;
      if (body instanceof Readable) return body;
      if (body && 'transformToWebStream' in body) {
        return Readable.fromWeb(body.transformToWebStream() as import('node:stream/web').ReadableStream);
      }
      return Readable.from([]);
    } catch (err) {
      if (isNotFound(err)) throw notFound(`No stored object "${key}".`);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async dispose(): Promise<void> {
    const pending = this.clientPromise;
    this.clientPromise = null;
    if (pending) (await pending.catch(() => null))?.destroy();
  }
}
