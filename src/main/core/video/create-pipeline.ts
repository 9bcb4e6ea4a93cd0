import path from 'node:path';
import type { BaseCore } from '../base-core.js';
import type { GenerationsService } from './generations/generations.service.js';
import type { BlobStore } from './uploads/storage/blob-store.js';
import { sweepRenderLeftovers } from './pipeline/leftovers.js';
import { ProviderKeyChecks } from './pipeline/providers/provider-key-check.js';
import { createProviderRegistry } from './pipeline/providers/provider-registry.js';
import { LocalRenderer } from './pipeline/renderers/ffmpeg/local-renderer.js';
import { makeOutputs } from './pipeline/output-files.js';
import { burnCaptions } from './pipeline/renderers/ffmpeg/burn-captions.js';
import { extractThumbnail } from './pipeline/renderers/ffmpeg/thumbnail.js';
import { createRenderJobHandler, RENDER_JOB_KIND } from './pipeline/render-job.js';

const RETENTION_SWEEP_MS = 60 * 60_000;

export interface Pipeline {
  /** Sweeps what a crashed run left (renderer processes, work dirs) and starts the retention sweep. */
  start(): void;
  /** Whether the stored fal.ai / Replicate keys work, asked of the providers. */
  providerKeys: ProviderKeyChecks;
}

/**
 * The generation pipeline: the render job (registered with the core's job queue), the providers it
 * can use, and the retention of finished results. Built by the video feature.
 */
export function createPipeline(
  base: BaseCore,
  deps: {
    blobs: BlobStore;
    generations: GenerationsService;
    /** A generation reached completed or failed. */
    finished: (generationId: string) => void;
  },
): Pipeline {
  const { config, log } = base;
  const workRoot = path.join(config.dataDir, 'tmp', 'renders');
  const local = new LocalRenderer();
  // `local` is the embedded ffmpeg renderer; fal, replicate and comfyui are built on first use.
  const providers = createProviderRegistry({
    config: config.providers,
    secrets: base.secrets,
    local,
    outbound: base.outbound,
  });
  base.onDispose(async () => {
    providers.dispose();
    await local.dispose();
  });
  base.jobs.register(
    RENDER_JOB_KIND,
    createRenderJobHandler({
      generations: deps.generations,
      blobs: deps.blobs,
      provider: (name) => providers.get(name),
      events: base.events,
      log,
      workRoot,
      timeoutMs: () => config.generation.timeoutSec * 1000,
      finished: deps.finished,
      makeOutputs: (videoPath, job, formats, ctx) => makeOutputs('ffmpeg', videoPath, job, formats, ctx),
      burnCaptions: (videoPath, job, ctx) =>
        burnCaptions({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, videoPath, job.captions?.cues ?? [], {
          ...ctx,
          fontsDir: local.fontsDirOrThrow(),
        }),
      finishResult: async (videoPath, workDir, thumbnailPath) => ({
        thumbnailPath:
          thumbnailPath ??
          (await extractThumbnail('ffmpeg', videoPath, path.join(workDir, 'thumbnail.jpg'), {
            signal: AbortSignal.timeout(60_000),
            hidePaths: [workDir],
          })),
      }),
    }),
  );

  let timer: NodeJS.Timeout | null = null;
  const expire = () => {
    const before = Date.now() - config.generation.retentionDays * 86_400_000;
    deps.generations.expireFiles(before).then(
      (count) => count && log.info({ count }, 'retention: removed the files of old generations'),
      (err: Error) => log.warn({ err: err.message }, 'retention sweep failed'),
    );
  };
  base.onDispose(() => timer && clearInterval(timer));
  return {
    providerKeys: new ProviderKeyChecks({
      secrets: base.secrets,
      baseUrl: (name) => config.providers[name].baseUrl,
    }),
    start() {
      sweepRenderLeftovers(workRoot, log);
      expire();
      timer = setInterval(expire, RETENTION_SWEEP_MS);
      timer.unref();
    },
  };
}
