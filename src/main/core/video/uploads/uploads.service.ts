import { pipeline, type Readable } from 'node:stream';
import type { UploadInfo } from '../../../../shared/uploads.schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { randomBase62 } from '../../ids.js';
import type { Logger } from '../../logger.js';
import {
  extensionOf,
  formatBytes,
  MAX_BYTES,
  MEDIA_TYPES,
  normalizeType,
  sameType,
  sanitizeBaseName,
  type MediaKind,
  type SupportedType,
} from '../../../../shared/media-types.js';
import { typeForKind, type MediaProbe } from './media-probe.js';
import { notOfKindMessage, sniffAs, SNIFF_BYTES } from './media-sniffer.js';
import type { BlobStore, SelfServedBlobStore, SignedQuery } from './storage/blob-store.js';
import { ByteGate } from './storage/stream-guards.js';
import { writerIsGone } from './storage/temp-files.js';
import type { UploadGrant } from './storage/url-signer.js';
import type { UploadRow, UploadsRepo } from './uploads.repo.js';
import { page, type Page } from '../templates/templates.service.js';

export interface PresignedUpload {
  s3_key: string;
  upload_url: string;
  content_type: string;
  max_bytes: number;
}

/** `uploads/<org_id>/<random>/<sanitized file name or "file">.<ext>` */
export function newStorageKey(orgId: string, contentType: string, fileName?: string | null): string {
  return `uploads/${orgId}/${randomBase62(22)}/${sanitizeBaseName(fileName)}.${extensionOf(contentType)}`;
}

export const payloadTooLarge = (maxBytes: number) =>
  new AppError(
    413,
    'payload_too_large',
    `The file is larger than the ${formatBytes(maxBytes)} allowed for this upload.`,
  );

export interface UploadsServiceDeps {
  blobs: BlobStore;
  repo: UploadsRepo;
  log: Logger;
  /** Decodes received files (ffprobe) to accept only real media and record its real type. */
  probe: MediaProbe;
  /** Lifetime of presigned URLs (config storage.urlTtlSec). */
  urlTtlSec: number;
  /**
   * What still needs a stored file (a character's reference image, a video being made), named for the
   * 409 message, or null. The composition root wires the features that reference uploads.
   */
  usedBy?: (orgId: string, key: string) => string | null;
}

/** An authorized local PUT: what the URL grants plus the claim that makes this PUT the only one. */
export interface LocalPutGrant extends UploadGrant {
  claim: string;
}

const alreadyUsed = () =>
  new AppError(
    409,
    'upload_already_used',
    'This upload URL has already been used: a file was stored for its key. Request a new URL from POST /api/s3/presign-upload to upload another file.',
  );
const inProgress = () =>
  new AppError(
    409,
    'upload_in_progress',
    'Another upload to this URL is in progress. An upload URL takes one file; if that upload fails, this URL can be used again.',
  );

/**
 * Presigned uploads: issues URLs (recording a pending row) and, for the local store, receives the PUT.
 * A URL is single-use: the PUT claims the row before reading the body; the claim is given back if
 * the PUT fails, so the client may retry, and after a complete PUT every further PUT is a 409.
 */
export class UploadsService {
  constructor(private readonly deps: UploadsServiceDeps) {}

  get repo(): UploadsRepo {
    return this.deps.repo;
  }

  /** `baseUrl` is this server as the caller reached it (local store only). */
  async presign(
    orgId: string,
    input: { contentType: SupportedType; fileName?: string },
    opts: { baseUrl?: string } = {},
  ): Promise<PresignedUpload> {
    const contentType = input.contentType;
    const kind = MEDIA_TYPES[contentType].kind;
    const maxBytes = MAX_BYTES[kind];
    const key = newStorageKey(orgId, contentType, input.fileName);
    const now = Date.now();
    const uploadUrl = await this.deps.blobs.presignUpload({
      key,
      contentType,
      maxBytes,
      expiresInSec: this.deps.urlTtlSec,
      baseUrl: opts.baseUrl,
    });
    this.deps.repo.insert({
      s3_key: key,
      org_id: orgId,
      kind,
      content_type: contentType,
      max_bytes: maxBytes,
      file_name: input.fileName ?? null,
      source: 'presign',
      status: 'pending',
      size: null,
      created_at: now,
      expires_at: now + this.deps.urlTtlSec * 1000,
    });
    return { s3_key: key, upload_url: uploadUrl, content_type: contentType, max_bytes: maxBytes };
  }

  /** The org's stored files, newest first, each with a time-limited download URL (`baseUrl`: see presign). */
  async list(
    orgId: string,
    q: { kind?: MediaKind; limit: number; offset: number },
    opts: { baseUrl?: string } = {},
  ): Promise<Page<UploadInfo>> {
    const rows = this.deps.repo.listComplete(orgId, { ...q, limit: q.limit + 1 });
    const views = await Promise.all(rows.map((row) => this.view(row, opts.baseUrl)));
    return page(views, q.limit, q.offset);
  }

  private async view(row: UploadRow, baseUrl?: string): Promise<UploadInfo> {
    return {
      s3_key: row.s3_key,
      file_name: row.file_name,
      kind: row.kind,
      content_type: row.content_type,
      size: row.size ?? 0,
      source: row.source,
      created_at: row.created_at,
      url: await this.downloadUrl(row.s3_key, row.file_name, baseUrl),
      used_by: this.deps.usedBy?.(row.org_id, row.s3_key) ?? null,
    };
  }

  /** A time-limited GET URL of a stored object (local store: on this server as the caller reached it). */
  async downloadUrl(key: string, fileName: string | null, baseUrl?: string): Promise<string | null> {
    const opts = { expiresInSec: this.deps.urlTtlSec, ...(fileName ? { fileName } : {}) };
    try {
      return await this.deps.blobs.presignDownload(key, { ...opts, baseUrl });
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message }, 'could not presign an upload URL');
      return null;
    }
  }

  /**
   * Deletes a stored file of the org (its record, then its bytes). 404 for another org's key or none;
   * 409 while something still needs it (usedBy) or while a PUT is receiving it.
   */
  async remove(orgId: string, key: string): Promise<void> {
    const row = this.deps.repo.getForOrg(orgId, key);
    if (!row) throw notFound(`No upload "${key}" in this organization.`);
    const user = this.deps.usedBy?.(orgId, key);
    if (user) {
      throw new AppError(409, 'upload_in_use', `The file is used by ${user}; remove it there first.`, {
        used_by: user,
      });
    }
    if (row.put_claim) throw inProgress();
    this.deps.repo.delete(key);
    await this.deps.blobs.delete(key).catch((err: Error) => {
      // The record is gone, so the key no longer resolves; a leftover file is only disk space.
      this.deps.log.warn({ err: err.message }, 'could not delete an upload file');
    });
  }

  /**
   * Forgets presigned uploads whose URL expired without an upload. An object that does exist (an S3
   * PUT this server never sees) is kept pending: it is verified when first used.
   */
  async sweepExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const row of this.deps.repo.expiredPending(now)) {
      if (await this.deps.blobs.head(row.s3_key)) continue;
      this.deps.repo.delete(row.s3_key);
      removed++;
    }
    if (removed) this.deps.log.info({ removed }, 'removed expired pending uploads');
    return removed;
  }

  /** The store, when this server receives its uploads and serves its files (local); else 404. */
  private local(): SelfServedBlobStore {
    const store = this.deps.blobs.selfServed;
    if (!store) throw notFound('This server stores uploads in S3; PUT the file to the upload_url S3 returned.');
    return store;
  }

  /**
   * Checks a PUT to a presigned local URL before any body byte is read: signature and expiry (403),
   * Content-Type equal to the signed type (400), declared Content-Length within the limit (413), then
   * claims the upload (409 if it was already uploaded or another PUT is receiving it).
   */
  async authorizeLocalPut(
    key: string,
    query: SignedQuery,
    headers: { contentType?: string; contentLength?: string },
  ): Promise<LocalPutGrant> {
    const grant = await this.local().verifyUpload(key, query);
    const sent = headers.contentType ? normalizeType(headers.contentType) : '';
    if (sent !== grant.contentType) {
      throw badRequest(
        `The Content-Type header must be "${grant.contentType}", the type this upload URL was created for${sent ? ` (got "${sent}")` : ''}.`,
      );
    }
    const declared = headers.contentLength === undefined ? undefined : Number(headers.contentLength);
    if (declared !== undefined && Number.isFinite(declared) && declared > grant.maxBytes)
      throw payloadTooLarge(grant.maxBytes);
    const claim = `${process.pid}:${randomBase62(16)}`;
    const claimed = this.deps.repo.claimPut(key, claim);
    if (claimed === 'complete') throw alreadyUsed();
    if (claimed === 'in_progress') throw inProgress();
    if (claimed === 'missing')
      throw notFound('This upload no longer exists; request a new URL from POST /api/s3/presign-upload.');
    return { ...grant, claim };
  }

  /**
   * Streams an authorized PUT body into the local store: counted (413 past max_bytes), first bytes
   * checked against the signed kind (400 early), then the complete file decoded with ffprobe (400 if
   * it does not decode as that kind) before it is moved into place. Records the real type (GIF bytes
   * sent to a PNG URL are stored as image/gif). On any failure nothing is kept and the claim is given back.
   */
  async storeLocalPut(
    grant: LocalPutGrant,
    body: Readable,
  ): Promise<{ s3_key: string; size: number; content_type: string }> {
    try {
      const kind = MEDIA_TYPES[grant.contentType as SupportedType]?.kind;
      if (!kind) throw badRequest(`Uploads of "${grant.contentType}" are not supported.`);
      const gate = new ByteGate({
        maxBytes: grant.maxBytes,
        tooLarge: () => payloadTooLarge(grant.maxBytes),
        inspectBytes: SNIFF_BYTES,
        inspect: (head) => {
          if (!sniffAs(head, kind)) throw badRequest(notOfKindMessage(kind, head));
        },
      });
      let contentType = grant.contentType;
      const { size } = await this.local().put(
        grant.key,
        pipeline(body, gate, () => {}),
        grant.contentType,
        {
          verify: async (file) => {
            const real = typeForKind(await this.deps.probe.expect(file, kind), kind);
            // An alias of the signed type (audio/x-wav for audio/wav) keeps the name the client chose.
            contentType = sameType(real, grant.contentType) ? grant.contentType : real;
            return contentType;
          },
        },
      );
      if (!this.deps.repo.completePut(grant.key, grant.claim, size, contentType)) {
        // The row went away while the body streamed (its org was deleted): keep nothing.
        await this.deps.blobs.delete(grant.key);
        throw notFound('This upload no longer exists; request a new URL from POST /api/s3/presign-upload.');
      }
      this.deps.log.info({ kind, size, contentType }, 'upload stored');
      return { s3_key: grant.key, size, content_type: contentType };
    } catch (err) {
      this.deps.repo.releasePut(grant.key, grant.claim);
      throw err;
    }
  }

  /**
   * What a killed process left behind, removed at start: the store's temp files (in-flight uploads,
   * downloads, spools) and the PUT claims of dead processes (so those URLs can be used again).
   */
  async sweepLeftovers(): Promise<{ tempFiles: number; claims: number }> {
    let claims = 0;
    for (const row of this.deps.repo.claimedPending()) {
      const pid = Number(row.put_claim?.split(':')[0]);
      if (!Number.isSafeInteger(pid) || !writerIsGone(pid, row.put_claimed_at ?? 0)) continue;
      this.deps.repo.releasePut(row.s3_key, row.put_claim ?? '');
      claims++;
    }
    const tempFiles = await this.deps.blobs.sweepTempFiles();
    this.deps.log.info({ tempFiles, claims }, 'swept leftovers of stopped processes');
    return { tempFiles, claims };
  }

  /** Streams a stored object for a signed local download URL (optionally a byte range). */
  async openLocalDownload(
    key: string,
    query: SignedQuery,
    range: string | undefined,
    opts: { headOnly?: boolean } = {},
  ) {
    const store = this.local();
    const grant = await store.verifyDownload(key, query);
    const head = await store.head(key);
    if (!head) throw notFound('The file does not exist (it may have been deleted).');
    const r = parseRange(range, head.size);
    if (r === 'unsatisfiable') {
      throw new AppError(
        416,
        'range_not_satisfiable',
        `The requested range is outside the file (${head.size} bytes).`,
        {},
        {
          'Content-Range': `bytes */${head.size}`,
        },
      );
    }
    const stream = opts.headOnly ? null : await store.getStream(key, r ?? undefined);
    return { stream, size: head.size, contentType: head.contentType, range: r, fileName: grant.fileName };
  }
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; null for none/ignored (multi-range), 'unsatisfiable' when out of bounds. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
