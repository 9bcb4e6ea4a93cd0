import fs from 'node:fs';
import path from 'node:path';
import type { CoreEventBus } from '../../events.js';
import { JobCanceledError, JobTimeoutError, type Job, type JobHandler, type JobOutcome } from '../../jobs/job-types.js';
import type { Logger } from '../../logger.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { buildProviderJob, type PipelineGeneration } from './provider-job.js';
import type { OutputFormat } from '../../../../shared/video.schema.js';
import { ProviderError, type ProviderContext, type ProviderJob, type VideoProvider } from './video-provider.js';

export const RENDER_JOB_KIND = 'render_generation';

/** What the render job needs from the generations feature (it never touches their table). */
export interface GenerationsPort {
  forPipeline(id: string): PipelineGeneration | null;
  progress(id: string, progress: number): void;
  complete(
    id: string,
    result: { videoKey: string; thumbnailKey: string; outputKeys?: Record<string, string> },
  ): boolean;
  /** generating -> failed with a refund; false when it was no longer generating. */
  fail(id: string, error: string): boolean;
}

export interface RenderJobDeps {
  generations: GenerationsPort;
  blobs: BlobStore;
  provider(name: string): VideoProvider;
  /** Checks the result really is a playable video and makes a thumbnail when the provider gave none. */
  finishResult(videoPath: string, workDir: string, thumbnailPath?: string): Promise<{ thumbnailPath: string }>;
  /** Draws a captions variable's cues into a video the local renderer did not make; returns the new file. */
  burnCaptions?(videoPath: string, job: ProviderJob, ctx: { workDir: string; signal: AbortSignal }): Promise<string>;
  /**
   * The requested files besides the MP4 (WebM, GIF preview, WebVTT captions), made from the finished MP4 and the
   * job, for every provider alike. Absent: only the MP4 is made.
   */
  makeOutputs?(
    videoPath: string,
    job: ProviderJob,
    formats: readonly OutputFormat[],
    ctx: { workDir: string; signal: AbortSignal },
  ): Promise<Partial<Record<OutputFormat, { path: string; contentType: string }>>>;
  events: CoreEventBus;
  log: Logger;
  /** Where attempts get their private work dirs (swept at start). */
  workRoot: string;
  /** Time limit of one attempt for a generation of this duration. */
  timeoutMs(durationSec: number, providerName: string): number;
  /** A generation reached completed or failed (webhook deliveries start here). */
  finished(generationId: string): void;
  /** Provider errors marked temporary are tried again this many times in all. */
  maxAttempts?: number;
}

const PROGRESS_WRITE_MS = 500;

function providerNameOf(gen: PipelineGeneration | null): string {
  if (gen?.draft) return 'local'; // a draft is the local renderer's preview, never a hosted call
  const name = gen?.provider?.name;
  return typeof name === 'string' ? name : 'local';
}

/** What a person reads in `error`: the provider's own words, never a stack trace. */
function readableError(err: unknown): string {
  if (err instanceof ProviderError) return err.message;
  return 'The video could not be made because of an internal error; the credits were refunded.';
}

/**
 * The job that makes one generation's video: materialize inputs, submit to the template's provider
 * (hosted providers' request ids are saved, so a restart resumes instead of paying twice), follow
 * progress, store the video and thumbnail through the BlobStore, then move the generation to completed.
 * Failures and time-outs move it to failed (refunded once, by the generations feature).
 */
export function createRenderJobHandler(deps: RenderJobDeps): JobHandler {
  const load = (job: Pick<Job, 'refId'>) => deps.generations.forPipeline(job.refId);
  return {
    lane: (payload) => (payload.provider === undefined || payload.provider === 'local' ? 'render' : 'io'),
    timeoutMs: (job) => {
      const gen = load(job);
      return deps.timeoutMs(gen?.durationSec ?? 60, providerNameOf(gen));
    },
    recover: () => 'rerun',
    run: (job, ctx) => run(job, ctx.signal, ctx.savePayload),
    onFinal: (job, status, error) => {
      if (status !== 'failed') return;
      const gen = load(job);
      if (gen && deps.generations.fail(job.refId, error ?? 'The generation failed.')) {
        deps.events.emit('generation.status', {
          orgId: gen.orgId,
          generationId: gen.id,
          status: 'failed',
          error: error ?? null,
        });
        deps.finished(gen.id);
      }
    },
  };

  async function run(job: Job, signal: AbortSignal, save: (p: Record<string, unknown>) => void): Promise<JobOutcome> {
    const gen = load(job);
    if (!gen || gen.status !== 'generating') return { status: 'done' };
    const provider = deps.provider(providerNameOf(gen));
    fs.mkdirSync(deps.workRoot, { recursive: true, mode: 0o700 });
    const workDir = fs.mkdtempSync(path.join(deps.workRoot, `${gen.id}-`));
    let lastWrite = 0;
    let lastProgress = -1;
    const pctx: ProviderContext = {
      signal,
      workDir,
      log: deps.log,
      onProgress: ({ progress, queuePosition }) => {
        const p = Math.max(0, Math.min(99, Math.round(progress ?? 0)));
        const now = Date.now();
        if (p === lastProgress || (now - lastWrite < PROGRESS_WRITE_MS && p - lastProgress < 10)) return;
        lastWrite = now;
        lastProgress = p;
        deps.generations.progress(gen.id, p);
        deps.events.emit('generation.progress', {
          orgId: gen.orgId,
          generationId: gen.id,
          progress: p,
          queuePosition: queuePosition ?? null,
        });
      },
    };
    let externalId = provider.resumable && typeof job.payload.externalId === 'string' ? job.payload.externalId : null;
    try {
      const providerJob = await buildProviderJob(gen, deps.blobs, workDir);
      if (!externalId) {
        externalId = (await provider.submit(providerJob, pctx)).externalId;
        if (provider.resumable) save({ externalId });
      }
      const result = await provider.follow(externalId, providerJob, pctx);
      // The local renderer draws captions itself; any other provider's video gets them here.
      if (providerJob.captions?.burn && provider.name !== 'local' && deps.burnCaptions) {
        result.videoPath = await deps.burnCaptions(result.videoPath, providerJob, { workDir, signal });
        delete result.thumbnailPath;
      }
      const { thumbnailPath } = await deps.finishResult(result.videoPath, workDir, result.thumbnailPath);
      const formats = (gen.outputs ?? []).filter((f) => f !== 'mp4');
      const extras =
        formats.length && deps.makeOutputs
          ? await deps.makeOutputs(result.videoPath, providerJob, formats, { workDir, signal })
          : {};
      const base = `generations/${gen.orgId}/${gen.id}`;
      const videoKey = `${base}/video.mp4`;
      const thumbnailKey = `${base}/thumbnail.jpg`;
      const outputKeys: Record<string, string> = {};
      await deps.blobs.put(videoKey, fs.createReadStream(result.videoPath), 'video/mp4');
      await deps.blobs.put(thumbnailKey, fs.createReadStream(thumbnailPath), 'image/jpeg');
      for (const [format, file] of Object.entries(extras)) {
        const key = `${base}/${format === 'vtt' ? 'captions' : 'video'}.${format}`;
        outputKeys[format] = key;
        await deps.blobs.put(key, fs.createReadStream(file.path), file.contentType);
      }
      if (!deps.generations.complete(gen.id, { videoKey, thumbnailKey, outputKeys })) {
        // Canceled while the files were stored: nothing refers to them.
        await Promise.allSettled(
          [videoKey, thumbnailKey, ...Object.values(outputKeys)].map((k) => deps.blobs.delete(k)),
        );
        return { status: 'done' };
      }
      deps.events.emit('generation.status', {
        orgId: gen.orgId,
        generationId: gen.id,
        status: 'completed',
        error: null,
      });
      deps.finished(gen.id);
      return { status: 'done' };
    } catch (err) {
      if (signal.aborted) {
        const reason: unknown = signal.reason;
        // Stop paying for work nobody wants; a shutdown keeps the provider's job to resume it.
        if (externalId && (reason instanceof JobCanceledError || reason instanceof JobTimeoutError)) {
          await provider.cancel(externalId, { log: deps.log }).catch(() => undefined);
        }
        throw reason instanceof Error ? reason : err;
      }
      if (!(err instanceof ProviderError)) {
        deps.log.error({ err: (err as Error)?.message, generationId: gen.id }, 'render failed unexpectedly');
      }
      if (err instanceof ProviderError && err.retryable && job.attempts < (deps.maxAttempts ?? 3)) {
        const waitSec = err.retryAfterSec ?? 5 * 2 ** (job.attempts - 1);
        return { status: 'retry', runAfterMs: waitSec * 1000, error: err.message };
      }
      return { status: 'failed', error: readableError(err) };
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }
}
