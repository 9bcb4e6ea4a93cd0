import type { Readable } from 'node:stream';

/**
 * Checks the complete bytes of an object before it is stored — `file` is a local temp file holding
 * them — and returns the content type to record (e.g. what decoding found). Throwing refuses the
 * object: nothing is stored.
 */
export type BlobVerifier = (file: string) => Promise<string>;

export interface BlobHead {
  size: number;
  contentType: string;
  /** The object's version tag where the store has one (S3 ETag): it changes when the object is replaced. */
  etag?: string;
}

/** Where uploaded and generated media live: local disk (default) or an S3-compatible bucket. */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** A URL the client PUTs the bytes to, with exactly `contentType`; rejected past maxBytes or after expiry. */
  presignUpload(opts: { key: string; contentType: string; maxBytes: number; expiresInSec: number }): Promise<string>;
  /** A time-limited GET URL for a stored object. */
  presignDownload(key: string, opts: { expiresInSec: number; fileName?: string }): Promise<string>;
  /**
   * Server-side write (re-hosting downloads, data URIs, multipart files, rendered videos). Streams.
   * With `verify`, the bytes are checked before they become visible and its answer is the stored type.
   */
  put(
    key: string,
    body: Readable | Buffer,
    contentType: string,
    opts?: { verify?: BlobVerifier },
  ): Promise<{ size: number }>;
  /** null when the object does not exist. */
  head(key: string): Promise<BlobHead | null>;
  getStream(key: string): Promise<Readable>;
  /**
   * Runs `fn` on a local file holding the object's bytes: the stored file itself (local disk) or a
   * temp download of at most `maxBytes`, removed afterwards (S3). `etag` is the version `fn` saw.
   */
  withLocalFile<T>(
    key: string,
    maxBytes: number,
    fn: (file: string) => Promise<T>,
  ): Promise<{ result: T; etag?: string }>;
  delete(key: string): Promise<void>;
  /** Removes the temp files that killed processes left in this store's own directory; returns how many. */
  sweepTempFiles(): Promise<number>;
  dispose(): Promise<void>;
}
