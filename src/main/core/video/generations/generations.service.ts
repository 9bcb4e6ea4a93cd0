import type { OutputFormat } from '../../../../shared/video.schema.js';
import type { Generation, ResolvedInput } from '../../../../shared/video-generations.schema.js';
import type { Db } from '../../db/database.js';
import { AppError, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { CreditsService } from '../../tenancy/credits.service.js';
import {
  GenerationsRepo,
  type GenerationListFilter,
  type GenerationRow,
  type ModelConfigSnapshot,
} from './generations.repo.js';
import { SealedWebhookUrls, UnreadableWebhookUrlError } from './sealed-webhook-urls.js';
import type { CoreEventBus } from '../../events.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { RENDER_JOB_KIND } from '../pipeline/render-job.js';
import type { PipelineGeneration } from '../pipeline/provider-job.js';
import type { WebhookGeneration } from '../webhooks/webhook-types.js';
import { maskWebhookUrl } from '../../webhooks/webhook-url.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { page, type Page } from '../templates/templates.service.js';
import {
  DEFAULT_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_NAMES,
  type WebhookEventName,
} from '../../../../shared/webhooks.schema.js';
import { rendererOf } from '../renderer.js';
import { DRAFT_RESOLUTION } from './generate-input.js';

/** The webhook events a generation's receiver asked for (the default ones when it did not say). */
function webhookEventsOf(row: Pick<GenerationRow, 'webhook_events'>): WebhookEventName[] {
  const stored = row.webhook_events ? parse<unknown>(row.webhook_events, null) : null;
  if (!Array.isArray(stored)) return [...DEFAULT_WEBHOOK_EVENTS];
  return stored.filter((e): e is WebhookEventName => WEBHOOK_EVENT_NAMES.includes(e as WebhookEventName));
}

function parse<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/** The storage keys of a generation's extra files (WebM, GIF, VTT) by format. */
function outputKeysOf(row: Pick<GenerationRow, 'output_keys'>): Partial<Record<OutputFormat, string>> {
  return row.output_keys ? parse<Partial<Record<OutputFormat, string>>>(row.output_keys, {}) : {};
}

export interface GenerationsDeps {
  db: Db;
  log: Logger;
  /** Holds the key that seals webhook URLs at rest (they carry user info and query tokens). */
  secrets: SecretStore;
  credits: CreditsService;
  /** The render jobs (queue position while queued; cancel stops the work). */
  jobs: JobQueue;
  events: CoreEventBus;
  /** For the time-limited video_url of completed generations. */
  blobs?: BlobStore;
  urlTtlSec: number;
}

/**
 * Generation records: the org's own only (another org's id answers 404). States: generating ->
 * completed | failed (by the pipeline) | canceled (POST cancel; the charge is refunded).
 */
export class GenerationsService {
  readonly repo: GenerationsRepo;
  private readonly webhookUrls: SealedWebhookUrls;

  constructor(private readonly deps: GenerationsDeps) {
    this.repo = new GenerationsRepo(deps.db);
    this.webhookUrls = new SealedWebhookUrls(deps.secrets);
  }

  /** The form of a webhook URL stored in generations.webhook_url (see SealedWebhookUrls). */
  sealWebhookUrl(generationId: string, url: string): Promise<string> {
    return this.webhookUrls.seal(generationId, url);
  }

  /** The webhook URL of a generation in clear (for the webhook sender), or null when it has none. */
  async webhookUrl(generationId: string): Promise<string | null> {
    const row = this.repo.getAny(generationId);
    return row ? this.webhookUrls.open(row) : null;
  }

  /**
   * Seals webhook URLs that versions before this one stored in clear; run once at start (a no-op, and
   * no secret-store access, when there are none). Then the database is rebuilt once (VACUUM) and its
   * WAL emptied: an UPDATE leaves the old text in freed page space (even with secure_delete, a page
   * split keeps it in the unused part of an interior page), and only a rebuild drops it for sure.
   */
  async sealClearWebhookUrls(): Promise<number> {
    const clear = this.repo.clearWebhookUrls();
    if (!clear.length) return 0;
    const sealed = await Promise.all(
      clear.map(async (r) => ({ ...r, next: await this.sealWebhookUrl(r.id, r.webhook_url) })),
    );
    const db = this.deps.db;
    const count = db.transaction(
      () => sealed.filter((r) => this.repo.replaceWebhookUrl(r.id, r.webhook_url, r.next)).length,
    )();
    try {
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message }, 'could not compact the database after sealing webhook URLs');
    }
    return count;
  }

  /** `baseUrl`: this server as the caller reached it (local blob store download URLs). */
  async get(orgId: string, id: string, opts: { baseUrl?: string } = {}): Promise<Generation> {
    const row = this.repo.get(orgId, id);
    if (!row) throw notFound(`Generation "${id}" not found.`);
    return this.view(row, opts.baseUrl);
  }

  async list(
    orgId: string,
    f: GenerationListFilter & { limit: number; offset: number },
    opts: { baseUrl?: string } = {},
  ): Promise<Page<Generation>> {
    const rows = this.repo.list(orgId, { ...f, limit: f.limit + 1 });
    const views = await Promise.all(rows.map((r) => this.view(r, opts.baseUrl)));
    return page(views, f.limit, f.offset);
  }

  /** generating -> canceled, refunding its charge in the same transaction; 409 from any other state. */
  async cancel(orgId: string, id: string, opts: { baseUrl?: string } = {}): Promise<Generation> {
    const row = this.deps.db
      .transaction(() => {
        const current = this.repo.get(orgId, id);
        if (!current) throw notFound(`Generation "${id}" not found.`);
        if (current.status !== 'generating') {
          throw new AppError(
            409,
            'conflict',
            `Generation "${id}" is ${current.status}; only a generating generation can be canceled.`,
          );
        }
        this.repo.cancel(orgId, id, Date.now());
        this.deps.credits.refund(orgId, current.credits_charged, id, 'generation canceled');
        return this.repo.get(orgId, id) as GenerationRow;
      })
      .immediate();
    this.deps.jobs.cancelByRef(id, RENDER_JOB_KIND);
    this.deps.events.emit('generation.status', { orgId, generationId: id, status: 'canceled', error: null });
    return this.view(row, opts.baseUrl);
  }

  /**
   * Cancels every still-generating generation of a batch (each refunded, as POST …/cancel does); the ones that
   * finished meanwhile are left as they are. 404 when the org has no such batch.
   */
  cancelBatch(orgId: string, batchId: string): { batch_id: string; canceled: string[]; credits_refunded: number } {
    if (!this.repo.batchExists(orgId, batchId)) throw notFound(`Batch "${batchId}" not found.`);
    const canceled: { id: string; refunded: number }[] = this.deps.db
      .transaction(() => {
        const now = Date.now();
        const done: { id: string; refunded: number }[] = [];
        for (const id of this.repo.generatingInBatch(orgId, batchId)) {
          const row = this.repo.get(orgId, id);
          if (!row || !this.repo.cancel(orgId, id, now)) continue;
          this.deps.credits.refund(orgId, row.credits_charged, id, 'generation canceled (batch)');
          done.push({ id, refunded: row.credits_charged });
        }
        return done;
      })
      .immediate();
    for (const { id } of canceled) {
      this.deps.jobs.cancelByRef(id, RENDER_JOB_KIND);
      this.deps.events.emit('generation.status', { orgId, generationId: id, status: 'canceled', error: null });
    }
    return {
      batch_id: batchId,
      canceled: canceled.map((c) => c.id),
      credits_refunded: canceled.reduce((sum, c) => sum + c.refunded, 0),
    };
  }

  /**
   * The generation's deadline passed (its deadline job runs): not started -> aborted with its whole charge
   * refunded; started and still rendering -> failed (time-out), refunded as any failure. Null when it had finished.
   */
  passDeadline(id: string): 'aborted' | 'failed' | null {
    const outcome = this.deps.db
      .transaction(() => {
        const row = this.repo.getAny(id);
        if (!row || row.status !== 'generating') return null;
        const sec = row.deadline_at === null ? 0 : Math.round((row.deadline_at - row.created_at) / 1000);
        const now = Date.now();
        if (row.started_at === null) {
          const why = `Aborted: the render had not started when deadline_sec (${sec} s) passed; the credits were refunded.`;
          this.repo.abort(id, why, now);
          this.deps.credits.refund(row.org_id, row.credits_charged, id, 'generation aborted (deadline)');
          return { row, status: 'aborted' as const, error: why };
        }
        const why = `Timed out: still rendering when deadline_sec (${sec} s) passed; the credits were refunded.`;
        this.repo.fail(id, why, row.credits_charged, now);
        this.deps.credits.refund(row.org_id, row.credits_charged, id, 'generation failed (deadline)');
        return { row, status: 'failed' as const, error: why };
      })
      .immediate();
    if (!outcome) return null;
    this.deps.jobs.cancelByRef(id, RENDER_JOB_KIND);
    this.deps.events.emit('generation.status', {
      orgId: outcome.row.org_id,
      generationId: id,
      status: outcome.status,
      error: outcome.error,
    });
    return outcome.status;
  }

  /**
   * Videos being made now, in every organization: their render or provider job has begun. A restart would cut them
   * off; queued ones wait in the persistent job queue and start after one.
   */
  startedCount(): number {
    return this.repo.countStarted();
  }

  /** The id of a generating generation of the org that uses the stored file `key` as an input, or null. */
  generatingWith(orgId: string, key: string): string | null {
    return this.repo.generatingWith(orgId, key);
  }

  /** Removes a finished generation and its files; 409 while it is still generating. */
  async remove(orgId: string, id: string): Promise<void> {
    const row = this.repo.get(orgId, id);
    if (!row) throw notFound(`Generation "${id}" not found.`);
    if (row.status === 'generating' || !this.repo.remove(orgId, id)) {
      throw new AppError(409, 'conflict', `Generation "${id}" is still generating; cancel it first.`);
    }
    await this.deleteFiles(row);
  }

  /** Retention: the video and thumbnail of generations finished before `before` are deleted. */
  async expireFiles(before: number): Promise<number> {
    let count = 0;
    for (;;) {
      const batch = this.repo.expiring(before, 100);
      for (const row of batch) {
        await this.deleteFiles(row);
        this.repo.expireFiles(row.id, Date.now());
      }
      count += batch.length;
      if (batch.length < 100) return count;
    }
  }

  private async deleteFiles(
    row: Pick<GenerationRow, 'id' | 'video_key' | 'thumbnail_key' | 'output_keys'>,
  ): Promise<void> {
    for (const key of [row.video_key, row.thumbnail_key, ...Object.values(outputKeysOf(row))]) {
      if (!key || !this.deps.blobs) continue;
      await this.deps.blobs.delete(key).catch((err: Error) => {
        this.deps.log.warn({ err: err.message, generationId: row.id }, 'could not delete a generation file');
      });
    }
  }

  // ---- for the rendering pipeline: transitions allowed only from `generating`.

  /** The generation as the render job sees it (any org: the job carries the id). */
  forPipeline(id: string): PipelineGeneration | null {
    const row = this.repo.getAny(id);
    if (!row) return null;
    // The render job loads the generation when it picks it up: from now on it has started (deadline, webhooks).
    if (row.status === 'generating' && row.started_at === null && this.repo.markStarted(id, Date.now())) {
      this.deps.events.emit('generation.status', {
        orgId: row.org_id,
        generationId: id,
        status: 'generating',
        error: null,
      });
    }
    const config = parse<Partial<ModelConfigSnapshot>>(row.model_config, {});
    const draft = row.draft === 1;
    return {
      id: row.id,
      orgId: row.org_id,
      templateId: row.template_id,
      // The pipeline tells only generating from finished: an aborted generation is as done as a canceled one.
      status: row.status === 'aborted' ? 'canceled' : row.status,
      inputs: parse<Record<string, ResolvedInput>>(row.inputs, {}),
      prompt: row.prompt,
      model: config.model ?? '',
      resolution: config.resolution ?? '720p',
      durationSec: config.duration_sec ?? 8,
      category: (config.category ?? 'text-to-video') as PipelineGeneration['category'],
      // A draft is the local renderer's preview, whatever the template names.
      provider: draft ? null : (config.provider ?? null),
      draft,
      aspectRatio: config.aspect_ratio ?? '16:9',
      outputs: config.outputs ?? ['mp4'],
    };
  }

  /** What a webhook delivery needs to know of a generation (any org: deliveries carry the id). */
  webhookInfo(id: string): WebhookGeneration | null {
    const row = this.repo.getAny(id);
    if (!row) return null;
    return {
      id: row.id,
      orgId: row.org_id,
      status: row.status,
      templateId: row.template_id,
      error: row.status === 'failed' || row.status === 'aborted' ? (row.error ?? 'Generation failed.') : null,
      hasWebhook: row.webhook_url !== null,
      events: webhookEventsOf(row),
      draft: row.draft === 1,
      batchId: row.batch_id,
      batchIndex: row.batch_index ?? null,
      progress: row.progress,
      started: row.started_at !== null,
    };
  }

  /** A fresh time-limited URL of a completed generation's video (webhook bodies), or null. */
  async videoUrlFor(id: string): Promise<string | null> {
    const row = this.repo.getAny(id);
    return row ? this.signedUrl(row, row.video_key, `${row.id}.mp4`) : null;
  }

  progress(id: string, progress: number): boolean {
    return this.repo.setProgress(id, Math.max(0, Math.min(100, Math.round(progress))), Date.now());
  }

  complete(
    id: string,
    result: { videoKey: string; thumbnailKey: string; outputKeys?: Record<string, string> },
  ): boolean {
    return this.repo.complete(id, result, Date.now());
  }

  /** generating -> failed; by default the charge is refunded (a failed video costs nothing). */
  fail(id: string, error: string, opts: { refund?: boolean } = {}): boolean {
    const refund = opts.refund ?? true;
    return this.deps.db
      .transaction(() => {
        const row = this.repo.getAny(id);
        if (!row || row.status !== 'generating') return false;
        const refunded = refund ? row.credits_charged : 0;
        this.repo.fail(id, error.slice(0, 2000), refunded, Date.now());
        this.deps.credits.refund(row.org_id, refunded, id, 'generation failed');
        return true;
      })
      .immediate();
  }

  /** For the masked view: an unreadable URL shows as none rather than failing the whole record. */
  private async maskableWebhookUrl(row: GenerationRow): Promise<string | null> {
    try {
      return await this.webhookUrls.open(row);
    } catch (err) {
      if (!(err instanceof UnreadableWebhookUrlError)) throw err;
      this.deps.log.warn({ generationId: row.id }, 'webhook URL cannot be decrypted; shown as none');
      return null;
    }
  }

  async view(row: GenerationRow, baseUrl?: string): Promise<Generation> {
    const config = parse<Partial<ModelConfigSnapshot>>(row.model_config, {});
    const ttl = this.deps.urlTtlSec;
    const videoUrl = await this.signedUrl(row, row.video_key, `${row.id}.mp4`, baseUrl);
    const thumbnailUrl = await this.signedUrl(row, row.thumbnail_key, `${row.id}.jpg`, baseUrl);
    const expiresAt = videoUrl ? Date.now() + ttl * 1000 : null;
    const outputs: Generation['outputs'] = { mp4: videoUrl };
    const extraKeys = outputKeysOf(row);
    for (const format of config.outputs ?? ['mp4']) {
      if (format === 'mp4') continue;
      outputs[format] = await this.signedUrl(row, extraKeys[format] ?? null, `${row.id}.${format}`, baseUrl);
    }
    return {
      id: row.id,
      generation_id: row.id,
      status: row.status,
      template_id: row.template_id,
      batch_id: row.batch_id,
      batch_index: row.batch_index ?? null,
      draft: row.draft === 1,
      renderer: rendererOf(config.provider, { draft: row.draft === 1 }),
      deadline_at: row.deadline_at ?? null,
      started_at: row.started_at ?? null,
      webhook_events: webhookEventsOf(row),
      inputs: parse<Record<string, ResolvedInput>>(row.inputs, {}),
      prompt: row.prompt,
      model: config.model ?? '',
      resolution: row.draft === 1 ? DRAFT_RESOLUTION : (config.resolution ?? ''),
      aspect_ratio: config.aspect_ratio ?? '16:9',
      duration_sec: config.duration_sec ?? 0,
      progress: row.progress,
      video_url: videoUrl,
      video_url_expires_at: expiresAt,
      thumbnail_url: thumbnailUrl,
      outputs,
      queue_position: row.status === 'generating' ? this.deps.jobs.queuePositionByRef(row.id, RENDER_JOB_KIND) : null,
      files_expired_at: row.files_expired_at ?? null,
      error: row.status === 'failed' || row.status === 'aborted' ? (row.error ?? 'Generation failed.') : null,
      webhook_url: maskWebhookUrl(await this.maskableWebhookUrl(row)),
      credits_charged: row.credits_charged,
      credits_refunded: row.credits_refunded,
      created_at: row.created_at,
      updated_at: row.updated_at,
      completed_at: row.completed_at,
      finished_at: row.finished_at,
    };
  }

  /** A time-limited GET URL of a completed generation's file (local: on this server as the caller reached it). */
  private async signedUrl(row: GenerationRow, key: string | null, fileName: string, baseUrl?: string) {
    if (row.status !== 'completed' || !key || !this.deps.blobs) return null;
    try {
      return await this.deps.blobs.presignDownload(key, { expiresInSec: this.deps.urlTtlSec, fileName, baseUrl });
    } catch (err) {
      this.deps.log.warn({ err: (err as Error).message, generationId: row.id }, 'could not presign a result URL');
      return null;
    }
  }
}
