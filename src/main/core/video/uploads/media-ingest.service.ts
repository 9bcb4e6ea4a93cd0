import fs from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { AppError, badRequest } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { mapDownloadError, startDownload, tooLargeDownload, type DownloadOptions } from './media-downloader.js';
import { typeForKind, type MediaProbe } from './media-probe.js';
import { notOfKindMessage, sniffAs, SNIFF_BYTES } from './media-sniffer.js';
import { CAPTIONS_URL_REFUSAL } from '../../../../shared/captions-format.js';
import { hasUrlScheme, KIND_ARTICLE, MAX_BYTES, type MediaKind } from '../../../../shared/media-types.js';
import type { BlobStore, BlobVerifier } from './storage/blob-store.js';
import { ByteGate, peekStream } from './storage/stream-guards.js';
import type { UploadRow, UploadSource, UploadsRepo } from './uploads.repo.js';
import { newStorageKey, payloadTooLarge } from './uploads.service.js';
import type { IngestedMedia, MediaIngestPort } from './media-port.js';

export type { MediaKind } from '../../../../shared/media-types.js';

export interface MediaIngestDeps {
  blobs: BlobStore;
  repo: UploadsRepo;
  log: Logger;
  download: DownloadOptions;
  /** Decodes every stored file (ffprobe): only real media of the requested kind is kept, with its real type. */
  probe: MediaProbe;
}

const notUploaded = () =>
  badRequest('The file for this storage key has not been uploaded yet: PUT it to the upload_url first.');

/**
 * Turns a media value of a generation request into a stored object of this org: an http(s) URL
 * (downloaded and re-hosted), a base64 data URI (decoded and stored), a storage key (must be this
 * org's upload, complete, of the right kind) or a multipart file stream. The bytes decide: their
 * magic numbers must be of the requested kind whatever a Content-Type header or data URI says (a
 * quick first check), and the complete file must decode as that kind (ffprobe) before it is stored;
 * the recorded type is what decoding found. Every failure caused by the input is a 400 validation_error.
 */
export class MediaIngestService implements MediaIngestPort {
  constructor(private readonly deps: MediaIngestDeps) {}

  async resolve(orgId: string, kind: MediaKind, value: string): Promise<IngestedMedia> {
    const v = value.trim();
    // Captions come as text in the request itself, or as the storage key of a captions upload: nothing to fetch.
    if (kind === 'captions' && hasUrlScheme(v))
      throw badRequest(`${CAPTIONS_URL_REFUSAL[0].toUpperCase()}${CAPTIONS_URL_REFUSAL.slice(1)}.`);
    if (/^https?:\/\//i.test(v)) return this.fromUrl(orgId, kind, v);
    if (/^data:/i.test(v)) return this.fromDataUri(orgId, kind, v);
    if (hasUrlScheme(v)) {
      throw badRequest(
        `${KIND_ARTICLE[kind][0].toUpperCase()}${KIND_ARTICLE[kind].slice(1)} must be an http(s) URL, a base64 data URI or a storage key.`,
      );
    }
    if (!v) throw badRequest(`An empty value is not ${KIND_ARTICLE[kind]}.`);
    return this.fromStorageKey(orgId, kind, v);
  }

  /**
   * A multipart file (or any stream). `declaredType` is informational: the bytes decide the type.
   * Past the kind's limit this is a 413 payload_too_large (the file is the request body itself).
   */
  async ingestStream(
    orgId: string,
    kind: MediaKind,
    stream: Readable,
    declaredType?: string,
    fileName?: string,
  ): Promise<IngestedMedia> {
    void declaredType;
    return this.store(orgId, kind, stream, fileName, 'multipart');
  }

  async discard(media: IngestedMedia): Promise<void> {
    await this.deps.blobs.delete(media.storageKey);
    this.deps.repo.delete(media.storageKey);
  }

  private async fromUrl(orgId: string, kind: MediaKind, url: string): Promise<IngestedMedia> {
    const maxBytes = MAX_BYTES[kind];
    const download = await startDownload(url, kind, maxBytes, this.deps.download);
    try {
      return await this.store(orgId, kind, download.stream, download.fileName, 'url');
    } catch (err) {
      download.stream.destroy();
      throw mapDownloadError(
        download.rejection() ?? err,
        kind,
        this.deps.download,
        download.onlyPublic(),
        this.deps.log,
      );
    }
  }

  private async fromDataUri(orgId: string, kind: MediaKind, uri: string): Promise<IngestedMedia> {
    const comma = uri.indexOf(',');
    const meta = comma > 0 ? uri.slice(5, comma) : '';
    if (comma < 0 || comma > 512) throw badRequest('The data URI is malformed: expected data:<type>;base64,<data>.');
    if (
      !meta
        .split(';')
        .slice(1)
        .some((p) => p.trim().toLowerCase() === 'base64')
    ) {
      throw badRequest('Data URIs must be base64-encoded: data:<type>;base64,<data>.');
    }
    let payload = uri.slice(comma + 1);
    if (/\s/.test(payload)) payload = payload.replace(/\s+/g, '');
    const maxBytes = MAX_BYTES[kind];
    const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
    if (Math.floor((payload.length * 3) / 4) - padding > maxBytes) throw tooLargeDownload(kind, maxBytes);
    if (payload.length % 4 === 1 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload))
      throw badRequest('The data URI does not contain valid base64.');
    const bytes = Buffer.from(payload, 'base64');
    const sniffed = sniffAs(bytes.subarray(0, SNIFF_BYTES), kind);
    if (!sniffed) throw badRequest(notOfKindMessage(kind, bytes.subarray(0, SNIFF_BYTES)));
    const key = newStorageKey(orgId, typeForKind(sniffed, kind), null);
    const check = this.decodesAs(kind);
    const { size } = await this.deps.blobs.put(key, bytes, typeForKind(sniffed, kind), { verify: check.verify });
    const contentType = check.type();
    this.record(orgId, kind, key, contentType, size, null, 'data_uri');
    return { storageKey: key, kind, contentType, size, source: 'data_uri' };
  }

  private async fromStorageKey(orgId: string, kind: MediaKind, key: string): Promise<IngestedMedia> {
    // Missing keys and other orgs' keys get the same answer, so nobody can probe for others' files.
    let row = this.deps.repo.getForOrg(orgId, key);
    if (!row) throw badRequest(`The storage key "${key}" does not refer to a file uploaded by this organization.`);
    if (row.kind !== kind)
      throw badRequest(`The file is not ${KIND_ARTICLE[kind]}: the storage key refers to ${KIND_ARTICLE[row.kind]}.`);
    if (row.status === 'pending') row = await this.completePending(row);
    else {
      const head = await this.deps.blobs.head(key);
      if (!head) throw badRequest('The file for this storage key no longer exists.');
      // S3 cannot make a presigned PUT single-use: refuse an object replaced after it was checked.
      if (row.verified_etag && head.etag && head.etag !== row.verified_etag) {
        throw badRequest(
          'The file for this storage key was replaced after it was checked (an S3 upload URL works until it expires). Upload the file again with a new URL.',
        );
      }
    }
    return { storageKey: key, kind, contentType: row.content_type, size: row.size ?? 0, source: 'storage_key' };
  }

  /**
   * A pending row whose bytes may have arrived without passing through this server (S3 presigned PUT):
   * check existence, size (S3 cannot enforce it on a presigned PUT) and content (a downloaded copy must
   * decode as the row's kind), then mark it complete with its real type and the ETag of the checked
   * bytes. An object that breaks the rules is deleted.
   */
  private async completePending(row: UploadRow): Promise<UploadRow> {
    if (this.deps.blobs.kind !== 's3') throw notUploaded();
    const head = await this.deps.blobs.head(row.s3_key);
    if (!head) throw notUploaded();
    const kind = row.kind;
    if (head.size > row.max_bytes) {
      await this.deps.blobs.delete(row.s3_key);
      throw badRequest(
        `The uploaded ${kind} is larger than the ${row.max_bytes} bytes allowed; it was deleted. Upload a smaller file.`,
      );
    }
    let checked: { result: { type: string; size: number }; etag?: string };
    try {
      // Type, size and ETag all of the bytes downloaded, even if the object changed after the HEAD.
      checked = await this.deps.blobs.withLocalFile(row.s3_key, row.max_bytes, async (file) => ({
        type: typeForKind(await this.deps.probe.expect(file, kind), kind),
        size: (await fs.promises.stat(file)).size,
      }));
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      await this.deps.blobs.delete(row.s3_key);
      throw badRequest(`${err.message} The uploaded object was deleted.`);
    }
    const { type, size } = checked.result;
    this.deps.repo.markComplete(row.s3_key, size, type, checked.etag);
    return { ...row, status: 'complete', size, content_type: type, verified_etag: checked.etag ?? null };
  }

  /** A verifier for BlobStore.put that decodes the file as `kind`, and the real type it found. */
  private decodesAs(kind: MediaKind): { verify: BlobVerifier; type: () => string } {
    let found: string | null = null;
    return {
      verify: async (file) => (found = typeForKind(await this.deps.probe.expect(file, kind), kind)),
      type: () => {
        if (!found) throw new Error('the stored file was not verified');
        return found;
      },
    };
  }

  /** Sniffs the first bytes, streams the rest through a byte limit, and decodes the whole file before storing it. */
  private async store(
    orgId: string,
    kind: MediaKind,
    source: Readable,
    fileName: string | undefined,
    via: 'url' | 'multipart',
  ) {
    const maxBytes = MAX_BYTES[kind];
    const { head, stream } = await peekStream(source, SNIFF_BYTES);
    const sniffed = sniffAs(head, kind);
    if (!sniffed) {
      stream.destroy();
      throw badRequest(notOfKindMessage(kind, head));
    }
    const key = newStorageKey(orgId, typeForKind(sniffed, kind), fileName);
    const gate = new ByteGate({
      maxBytes,
      tooLarge: () => (via === 'url' ? tooLargeDownload(kind, maxBytes) : payloadTooLarge(maxBytes)),
    });
    const gated = pipeline(stream, gate, () => {});
    const check = this.decodesAs(kind);
    const { size } = await this.deps.blobs.put(key, gated, typeForKind(sniffed, kind), { verify: check.verify });
    const contentType = check.type();
    this.record(orgId, kind, key, contentType, size, fileName ?? null, via);
    this.deps.log.info({ kind, size, contentType, source: via }, 'media ingested');
    return { storageKey: key, kind, contentType, size, source: via === 'url' ? ('url' as const) : ('upload' as const) };
  }

  private record(
    orgId: string,
    kind: MediaKind,
    key: string,
    contentType: string,
    size: number,
    fileName: string | null,
    source: UploadSource,
  ) {
    const now = Date.now();
    this.deps.repo.insert({
      s3_key: key,
      org_id: orgId,
      kind,
      content_type: contentType,
      max_bytes: MAX_BYTES[kind],
      file_name: fileName,
      source,
      status: 'complete',
      size,
      created_at: now,
      expires_at: null,
      completed_at: now,
    });
  }
}
