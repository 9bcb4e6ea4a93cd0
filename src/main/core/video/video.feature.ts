import type { BaseCore } from '../base-core.js';
import { createGenerationParts, type GenerationParts } from './generations/generation-parts.js';
import { MediaIngestService } from './uploads/media-ingest.service.js';
import { MediaProbe } from './uploads/media-probe.js';
import type { BlobStore } from './uploads/storage/blob-store.js';
import { createBlobStore } from './uploads/storage/create-blob-store.js';
import { UploadsRepo } from './uploads/uploads.repo.js';
import { UploadsService } from './uploads/uploads.service.js';
import { createPipeline } from './create-pipeline.js';
import type { ProviderKeyChecks } from './pipeline/providers/provider-key-check.js';
import { createWebhooks, type Webhooks } from './webhooks/webhooks.feature.js';

/**
 * The video service's parts, built by the composition root. Templates, characters, generate and
 * generations come from GenerationParts; the pipeline's render job and the webhook deliveries run on
 * the core's job queue.
 */
export interface VideoFeature extends GenerationParts {
  /** Where uploaded and generated media live (local disk or S3). */
  blobs: BlobStore;
  /** Presigned uploads (POST /api/s3/presign-upload and the local PUT). */
  uploads: UploadsService;
  /** URL / data URI / storage key / multipart media -> stored object of the org. */
  ingest: MediaIngestService;
  /** Signed callbacks of finished generations (deliveries, log, replay, secrets). */
  webhooks: Webhooks;
  /** Whether the stored fal.ai / Replicate keys work (the desktop's Video providers settings). */
  providerKeys: ProviderKeyChecks;
  /** Starts the pipeline's background work (see Core.startBackgroundWork). */
  start(): void;
  dispose(): Promise<void>;
}

/** How often expired presigned uploads and stale scratch templates are swept. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/** `now`: the templates' clock (CoreOverrides.now, tests only). */
export function createVideoFeature(base: BaseCore, opts: { now?: () => number } = {}): VideoFeature {
  const blobs = createBlobStore(base.config, base.secrets);
  base.onDispose(() => blobs.dispose());
  const probe = new MediaProbe();
  base.onDispose(() => probe.dispose());
  const uploadsRepo = new UploadsRepo(base.db);
  const uploads = new UploadsService({
    blobs,
    repo: uploadsRepo,
    log: base.log,
    probe,
    urlTtlSec: base.config.storage.urlTtlSec,
    // Bound late: the features that reference uploads are built from the ingest below.
    usedBy: (orgId, key) => {
      const character = parts.characters.nameUsingImage(orgId, key);
      if (character) return `the character "${character}"`;
      // A template's default (media or captions): deleting the file would break every video made without a value.
      const template = parts.templates.repo.titleUsingDefault(orgId, key);
      if (template) return `the template "${template}" (as a default)`;
      const generation = parts.generations.generatingWith(orgId, key);
      return generation ? `generation ${generation}, still generating` : null;
    },
  });
  // Media URLs and webhook receivers are the API key's choice: both obey network.outbound (core/net).
  const { outbound } = base;
  const ingest = new MediaIngestService({
    blobs,
    repo: uploadsRepo,
    log: base.log,
    download: { ...base.config.storage.download, outbound },
    probe,
  });
  // Swept by start(): temp files and PUT claims a killed process left (dead writers' only). Awaited on dispose.
  let leftovers: Promise<unknown> = Promise.resolve();
  base.onDispose(() => leftovers);
  const parts = createGenerationParts(base, { blobs, ingest }, { now: opts.now });
  // Scratch templates (preview copies) unchanged for a day: the editor deletes its own on close, this catches
  // those a quit or a crash left. Synchronous and cheap (a partial index), so a failure is only logged.
  const sweepScratchTemplates = () => {
    try {
      parts.templates.sweepScratch();
    } catch (err) {
      base.log.warn({ err: (err as Error).message }, 'scratch template sweep failed');
    }
  };
  // Expired, never-used presigned uploads and stale scratch templates are swept every 10 minutes.
  const sweeper = setInterval(() => {
    uploads.sweepExpired().catch((err: Error) => base.log.warn({ err: err.message }, 'upload sweep failed'));
    sweepScratchTemplates();
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  base.onDispose(() => clearInterval(sweeper));
  const webhooks = createWebhooks({
    db: base.db,
    secrets: base.secrets,
    log: base.log,
    config: base.config.webhooks,
    outbound,
    events: base.events,
    jobs: base.jobs,
    generation: (id) => parts.generations.webhookInfo(id),
    getWebhookUrl: (id) => parts.generations.webhookUrl(id),
    getVideoUrl: (id) => parts.generations.videoUrlFor(id),
  });
  base.jobs.register(webhooks.kind, webhooks.handler);
  const pipeline = createPipeline(base, {
    blobs,
    generations: parts.generations,
    finished: (id) => {
      try {
        if (webhooks.enqueueFor(id)) base.jobs.kick();
      } catch (err) {
        base.log.error({ err: (err as Error).message, generationId: id }, 'could not queue the webhook');
      }
    },
  });
  return {
    blobs,
    uploads,
    ingest,
    ...parts,
    webhooks,
    providerKeys: pipeline.providerKeys,
    start: () => {
      // At start-up too: copies that aged past their day while the app was closed go now, not at the first tick.
      sweepScratchTemplates();
      leftovers = uploads
        .sweepLeftovers()
        .catch((err: Error) => base.log.warn({ err: err.message }, 'sweeping leftovers failed'));
      pipeline.start();
    },
    dispose: async () => {},
  };
}
