import type { BaseCore } from '../create-core.js';
import { createGenerationParts, type GenerationParts } from './generation-parts.js';
import { MediaIngestService } from './media-ingest.service.js';
import type { BlobStore } from './storage/blob-store.js';
import { createBlobStore } from './storage/create-blob-store.js';
import { UploadsRepo } from './uploads.repo.js';
import { UploadsService } from './uploads.service.js';

/**
 * The video service's parts, built by the composition root. Templates, characters, generate,
 * generations and the pipeline hooks come from GenerationParts.
 */
export interface VideoFeature extends GenerationParts {
  /** Where uploaded and generated media live (local disk or S3). */
  blobs: BlobStore;
  /** Presigned uploads (POST /api/s3/presign-upload and the local PUT). */
  uploads: UploadsService;
  /** URL / data URI / storage key / multipart media -> stored object of the org. */
  ingest: MediaIngestService;
  dispose(): Promise<void>;
}

export function createVideoFeature(base: BaseCore): VideoFeature {
  const blobs = createBlobStore(base.config, base.secrets);
  base.onDispose(() => blobs.dispose());
  const uploadsRepo = new UploadsRepo(base.db);
  const uploads = new UploadsService({
    blobs,
    repo: uploadsRepo,
    log: base.log,
    urlTtlSec: base.config.storage.urlTtlSec,
  });
  const ingest = new MediaIngestService({
    blobs,
    repo: uploadsRepo,
    log: base.log,
    download: base.config.storage.download,
  });
  const parts = createGenerationParts(base, { blobs, ingest });
  // Expired, never-used presigned uploads are swept every 10 minutes.
  const sweeper = setInterval(() => {
    uploads.sweepExpired().catch((err: Error) => base.log.warn({ err: err.message }, 'upload sweep failed'));
  }, 10 * 60_000);
  sweeper.unref();
  base.onDispose(() => clearInterval(sweeper));
  return { blobs, uploads, ingest, ...parts, dispose: async () => {} };
}
