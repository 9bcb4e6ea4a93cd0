import type { Readable } from 'node:stream';
import type { MediaKind } from '../../../../shared/media-types.js';

/** A media value made into a stored object (what MediaIngestService returns). */
export interface IngestedMedia {
  storageKey: string;
  kind: MediaKind;
  contentType: string;
  size: number;
  /** How it arrived: a storage key already uploaded, a re-hosted URL, a data URI or a file stream (multipart). */
  source: 'storage_key' | 'url' | 'data_uri' | 'upload';
}

/** The part of MediaIngestService that templates, characters and generate use. */
export interface MediaIngestPort {
  /** An http(s) URL (downloaded), a base64 data URI (decoded) or a storage key (checked): stored and typed. 400 on bad media. */
  resolve(orgId: string, kind: MediaKind, value: string): Promise<IngestedMedia>;
  /** A file stream (multipart part): stored and typed. 400 on bad media, 413 past the kind's limit. */
  ingestStream(
    orgId: string,
    kind: MediaKind,
    stream: Readable,
    declaredType?: string,
    fileName?: string,
  ): Promise<IngestedMedia>;
  /** Forgets an object this request made (its blob and its uploads row), when the request fails. */
  discard(media: IngestedMedia): Promise<void>;
}

/** Sources that made a new object for this request (safe to delete if the request fails): all but a storage key. */
export function isNewObject(m: IngestedMedia): boolean {
  return m.source !== 'storage_key';
}
