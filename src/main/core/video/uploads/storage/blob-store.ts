import type { Readable } from 'node:stream';
import type { DownloadGrant, UploadGrant } from './url-signer.js';

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

/** Query parameters of a presigned local URL, as received. */
export type SignedQuery = Partial<Record<'ct' | 'max' | 'exp' | 'sig' | 'fn', string>>;

/** Where uploaded and generated media live: local disk (default) or an S3-compatible bucket. */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /**
   * A URL the client PUTs the bytes to, with exactly `contentType`; rejected past maxBytes or after expiry.
   * `baseUrl`: this server as the caller reached it (`http://<Host header>`), for a store whose URLs
   * point at this server (selfServed); a store whose URLs point elsewhere (S3) ignores it.
   */
  presignUpload(opts: {
    key: string;
    contentType: string;
    maxBytes: number;
    expiresInSec: number;
    baseUrl?: string;
  }): Promise<string>;
  /** A time-limited GET URL for a stored object. `baseUrl`: as for presignUpload. */
  presignDownload(key: string, opts: { expiresInSec: number; fileName?: string; baseUrl?: string }): Promise<string>;
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
  /**
   * This store as one this server serves itself (the local store: its URLs point at PUT /api/uploads/*
   * and GET /api/files/* here, its objects are files on this computer), or null when another service
   * takes and serves the bytes (S3).
   */
  readonly selfServed: SelfServedBlobStore | null;
}

/** A BlobStore whose presigned URLs this server answers and whose objects are local files (LocalBlobStore). */
export interface SelfServedBlobStore extends BlobStore {
  /** The address of this server in URLs made outside a request (webhook video_url): set once it listens (the real port). */
  setBaseUrl(url: string): void;
  /** Checks a presigned upload URL as received; returns what it grants. 403 for a bad signature or an expired URL. */
  verifyUpload(key: string, q: SignedQuery): Promise<UploadGrant>;
  /** Checks a presigned download URL as received; returns what it grants. 403 for a bad signature or an expired URL. */
  verifyDownload(key: string, q: SignedQuery): Promise<DownloadGrant>;
  /** The object's bytes, or one range of them (`end` included). 404 when it does not exist. */
  getStream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** The local file that holds (or would hold) the object. 400 for an invalid key. */
  pathOf(key: string): string;
  /**
   * The local file behind one of this store's download URLs (path `/api/files/<key>`), or null for any
   * other path. Which server the URL names is not checked: that is the caller's to know.
   */
  fileOfUrl(url: URL): string | null;
}
