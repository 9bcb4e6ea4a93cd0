import type { Readable } from 'node:stream';

/** Where uploaded and generated media live: local disk (default) or an S3-compatible bucket. */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** A URL the client PUTs the bytes to, with exactly `contentType`; rejected past maxBytes or after expiry. */
  presignUpload(opts: { key: string; contentType: string; maxBytes: number; expiresInSec: number }): Promise<string>;
  /** A time-limited GET URL for a stored object. */
  presignDownload(key: string, opts: { expiresInSec: number; fileName?: string }): Promise<string>;
  /** Server-side write (re-hosting downloads, data URIs, multipart files, rendered videos). Streams. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<{ size: number }>;
  /** null when the object does not exist. */
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  getStream(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  dispose(): Promise<void>;
}
