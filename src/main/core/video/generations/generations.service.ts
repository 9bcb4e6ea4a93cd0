import crypto from 'node:crypto';
import type { Generation, ResolvedInput } from '../../../../shared/video.schema.js';
import type { Db } from '../../db/database.js';
import { AppError, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { open, seal } from '../../secrets/aead.js';
import { setIfAbsent, type SecretStore } from '../../secrets/secret-store.js';
import type { CreditsService } from '../../tenancy/credits.service.js';
import {
  GenerationsRepo,
  SEALED_WEBHOOK_PREFIX,
  type GenerationRow,
  type ModelConfigSnapshot,
} from './generations.repo.js';
import type { CoreEventBus } from '../../events.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { RENDER_JOB_KIND } from '../pipeline/render-job.js';
import type { PipelineGeneration } from '../pipeline/provider-job.js';
import type { WebhookGeneration } from '../webhooks/webhook-types.js';
import { maskWebhookUrl } from '../../webhooks/webhook-url.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { page, type Page } from '../templates/templates.service.js';

function parse<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/** Secret-store account of the webhook URL key (its own key: nothing else is sealed with it). */
const WEBHOOK_KEY_ACCOUNT = 'webhook-url-key';
/** Binds a sealed webhook URL to its generation: copied onto another row it does not open. */
const webhookAad = (generationId: string) => `generation:${generationId}:webhook_url`;

class UnreadableWebhookUrlError extends Error {
  constructor(generationId: string) {
    super(`The webhook URL of generation ${generationId} cannot be decrypted (key changed or data altered).`);
  }
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
  /** One load per process: concurrent first calls must not each create (and store) a different key. */
  private webhookKeyLoad: Promise<Buffer> | null = null;

  constructor(private readonly deps: GenerationsDeps) {
    this.repo = new GenerationsRepo(deps.db);
  }

  private webhookKey(): Promise<Buffer> {
    this.webhookKeyLoad ??= (async () => {
      // Create-once across processes: a URL sealed by one process must open in every other.
      const stored =
        (await this.deps.secrets.get(WEBHOOK_KEY_ACCOUNT)) ??
        (await setIfAbsent(this.deps.secrets, WEBHOOK_KEY_ACCOUNT, crypto.randomBytes(32).toString('base64')));
      return Buffer.from(stored, 'base64');
    })().catch((err: unknown) => {
      this.webhookKeyLoad = null; // the secret store may come back: try again next time
      throw err;
    });
    return this.webhookKeyLoad;
  }

  /** The form of a webhook URL stored in generations.webhook_url: AES-256-GCM, bound to the generation. */
  async sealWebhookUrl(generationId: string, url: string): Promise<string> {
    const sealed = seal(await this.webhookKey(), url, webhookAad(generationId));
    return SEALED_WEBHOOK_PREFIX + sealed.toString('base64');
  }

  /** The webhook URL of a generation in clear (for the webhook sender), or null when it has none. */
  async webhookUrl(generationId: string): Promise<string | null> {
    const row = this.repo.getAny(generationId);
    return row ? this.openWebhookUrl(row) : null;
  }

  private async openWebhookUrl(row: Pick<GenerationRow, 'id' | 'webhook_url'>): Promise<string | null> {
    const stored = row.webhook_url;
    if (!stored) return null;
    if (!stored.startsWith(SEALED_WEBHOOK_PREFIX)) return stored; // written in clear by an older version
    const sealed = Buffer.from(stored.slice(SEALED_WEBHOOK_PREFIX.length), 'base64');
    const key = await this.webhookKey();
    try {
      return open(key, sealed, webhookAad(row.id)).toString('utf8');
    } catch {
      throw new UnreadableWebhookUrlError(row.id);
    }
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
    f: { status?: string; template_id?: string; limit: number; offset: number },
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

  private async deleteFiles(row: Pick<GenerationRow, 'id' | 'video_key' | 'thumbnail_key'>): Promise<void> {
    for (const key of [row.video_key, row.thumbnail_key]) {
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
    const config = parse<Partial<ModelConfigSnapshot>>(row.model_config, {});
    return {
      id: row.id,
      orgId: row.org_id,
      templateId: row.template_id,
      status: row.status,
      inputs: parse<Record<string, ResolvedInput>>(row.inputs, {}),
      prompt: row.prompt,
      model: config.model ?? '',
      resolution: config.resolution ?? '720p',
      durationSec: config.duration_sec ?? 8,
      category: (config.category ?? 'text-to-video') as PipelineGeneration['category'],
      provider: config.provider ?? null,
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
      error: row.status === 'failed' ? (row.error ?? 'Generation failed.') : null,
      hasWebhook: row.webhook_url !== null,
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

  complete(id: string, result: { videoKey: string; thumbnailKey: string }): boolean {
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
      return await this.openWebhookUrl(row);
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
    return {
      id: row.id,
      generation_id: row.id,
      status: row.status,
      template_id: row.template_id,
      batch_id: row.batch_id,
      inputs: parse<Record<string, ResolvedInput>>(row.inputs, {}),
      prompt: row.prompt,
      model: config.model ?? '',
      resolution: config.resolution ?? '',
      duration_sec: config.duration_sec ?? 0,
      progress: row.progress,
      video_url: videoUrl,
      video_url_expires_at: expiresAt,
      thumbnail_url: thumbnailUrl,
      queue_position: row.status === 'generating' ? this.deps.jobs.queuePositionByRef(row.id, RENDER_JOB_KIND) : null,
      files_expired_at: row.files_expired_at ?? null,
      error: row.status === 'failed' ? (row.error ?? 'Generation failed.') : null,
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
