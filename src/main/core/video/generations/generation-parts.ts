import type { BaseCore } from '../../base-core.js';
import { OutboundPolicy } from '../../net/outbound-policy.js';
import { CharactersService } from '../characters/characters.service.js';
import { createDeadlineJobHandler, DEADLINE_JOB_KIND } from './deadline.job.js';
import { GenerateService } from './generate.service.js';
import { GenerationsService } from './generations.service.js';
import { IdempotencyRepo } from './idempotency.repo.js';
import type { MediaIngestPort } from '../uploads/media-port.js';
import { resolveResourcesDir } from '../resources.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { TemplatesService } from '../templates/templates.service.js';

/** Templates, characters, generate and generations: the part of the video feature that charges credits. */
export interface GenerationParts {
  templates: TemplatesService;
  characters: CharactersService;
  generations: GenerationsService;
  generate: GenerateService;
}

export function createGenerationParts(
  base: BaseCore,
  media: { blobs: BlobStore; ingest: MediaIngestPort },
  opts: { resourcesDir?: string | null; now?: () => number } = {},
): GenerationParts {
  const resourcesDir = opts.resourcesDir === undefined ? resolveResourcesDir() : opts.resourcesDir;
  if (!resourcesDir) base.log.warn('resources folder not found: no built-in templates or public characters');
  const templates = new TemplatesService({ db: base.db, log: base.log, resourcesDir, now: opts.now });
  templates.seedBuiltins();
  const characters = new CharactersService({
    db: base.db,
    log: base.log,
    resourcesDir,
    blobs: media.blobs,
    ingest: media.ingest,
    urlTtlSec: base.config.storage.urlTtlSec,
  });
  characters.seedPublic();
  const generations = new GenerationsService({
    db: base.db,
    log: base.log,
    secrets: base.secrets,
    credits: base.credits,
    jobs: base.jobs,
    events: base.events,
    blobs: media.blobs,
    urlTtlSec: base.config.storage.urlTtlSec,
  });
  // Webhook URLs stored in clear by older versions are sealed in the background at start; disposal
  // waits for it so the database is not closed under it.
  const sealing = generations.sealClearWebhookUrls().then(
    (count) => {
      if (count) base.log.info({ count }, 'webhook URLs stored in clear were encrypted');
    },
    (err: unknown) => base.log.warn({ err: (err as Error).message }, 'could not encrypt stored webhook URLs yet'),
  );
  base.onDispose(() => sealing);
  base.jobs.register(DEADLINE_JOB_KIND, createDeadlineJobHandler(generations));
  const generate = new GenerateService({
    db: base.db,
    log: base.log,
    credits: base.credits,
    characters,
    generations,
    idempotency: new IdempotencyRepo(base.db),
    jobs: base.jobs,
    ingest: media.ingest,
    blobs: media.blobs,
    outbound: new OutboundPolicy({ mode: base.config.network.outbound }),
  });
  return { templates, characters, generations, generate };
}
