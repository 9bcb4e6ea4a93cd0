import type { AspectRatio, GenerationStatus, OutputFormat } from '../../../../shared/video.schema.js';
import type { Db } from '../../db/database.js';

/** What GET /api/generations filters by (GenerationListQuerySchema). */
export interface GenerationListFilter {
  status?: string;
  template_id?: string;
  batch_id?: string;
  draft?: 'true' | 'false';
}

/** Marks a sealed webhook_url; no http(s) URL starts with it, so a clear legacy value is never mistaken. */
export const SEALED_WEBHOOK_PREFIX = 'aead1:';

export interface GenerationRow {
  id: string;
  org_id: string;
  batch_id: string;
  template_id: string;
  status: GenerationStatus;
  progress: number;
  /** JSON of Record<key, ResolvedInput>. */
  inputs: string;
  prompt: string | null;
  /** JSON of ModelConfigSnapshot. */
  model_config: string;
  /**
   * AES-256-GCM sealed (SEALED_WEBHOOK_PREFIX + base64, see GenerationsService); rows written before
   * webhook URLs were encrypted hold the URL in clear until the start-up sweep seals them.
   */
  webhook_url: string | null;
  video_key: string | null;
  thumbnail_key: string | null;
  error: string | null;
  credits_charged: number;
  credits_refunded: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  finished_at: number | null;
  /** When retention (or DELETE) removed the video and thumbnail files. */
  files_expired_at: number | null;
  /** 1: a free draft render (migration 0018). */
  draft: number;
  /** created_at + deadline_sec x 1000, or null. */
  deadline_at: number | null;
  /** When the render job picked it up. */
  started_at: number | null;
  /** Its row of a batch request, or null. */
  batch_index: number | null;
  /** JSON array of webhook event names; null: the default ones. */
  webhook_events: string | null;
  /** JSON `{webm?, gif?, vtt?}` of storage keys of the extra output files (set on completion; migration 0019). */
  output_keys?: string | null;
}

export interface ModelConfigSnapshot {
  model: string;
  resolution: string;
  duration_sec: number;
  category: string;
  /** The template's `provider` block (absent: the local renderer). */
  provider?: Record<string, unknown> | null;
  /** Absent in rows made before aspect ratios: 16:9. */
  aspect_ratio?: AspectRatio;
  /** Requested files, mp4 first (absent: mp4 only). */
  outputs?: OutputFormat[];
}

const GEN_COLUMNS = [
  'id',
  'org_id',
  'batch_id',
  'template_id',
  'status',
  'progress',
  'inputs',
  'prompt',
  'model_config',
  'webhook_url',
  'video_key',
  'thumbnail_key',
  'error',
  'credits_charged',
  'credits_refunded',
  'created_at',
  'updated_at',
  'completed_at',
  'finished_at',
  'files_expired_at',
  'draft',
  'deadline_at',
  'started_at',
  'batch_index',
  'webhook_events',
] as const;

export class GenerationsRepo {
  private readonly stmts;
  private readonly listStmts = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO generations (${GEN_COLUMNS.join(', ')}) VALUES (${GEN_COLUMNS.map((c) => '@' + c).join(', ')})`,
      ),
      get: db.prepare('SELECT * FROM generations WHERE id = ? AND org_id = ?'),
      getAny: db.prepare('SELECT * FROM generations WHERE id = ?'),
      cancel: db.prepare(
        "UPDATE generations SET status = 'canceled', credits_refunded = credits_charged, updated_at = @now, finished_at = @now " +
          "WHERE id = @id AND org_id = @orgId AND status = 'generating'",
      ),
      abort: db.prepare(
        "UPDATE generations SET status = 'aborted', error = @error, credits_refunded = credits_charged, updated_at = @now, finished_at = @now " +
          "WHERE id = @id AND status = 'generating'",
      ),
      markStarted: db.prepare(
        "UPDATE generations SET started_at = @now, updated_at = @now WHERE id = @id AND status = 'generating' AND started_at IS NULL",
      ),
      generatingInBatch: db.prepare(
        "SELECT id FROM generations WHERE org_id = ? AND batch_id = ? AND status = 'generating' ORDER BY batch_index, rowid",
      ),
      batchExists: db.prepare('SELECT 1 FROM generations WHERE org_id = ? AND batch_id = ? LIMIT 1'),
      progress: db.prepare(
        "UPDATE generations SET progress = @progress, updated_at = @now WHERE id = @id AND status = 'generating'",
      ),
      complete: db.prepare(
        "UPDATE generations SET status = 'completed', progress = 100, video_key = @videoKey, thumbnail_key = @thumbnailKey, output_keys = @outputKeys, updated_at = @now, completed_at = @now, finished_at = @now " +
          "WHERE id = @id AND status = 'generating'",
      ),
      fail: db.prepare(
        "UPDATE generations SET status = 'failed', error = @error, credits_refunded = @refunded, updated_at = @now, finished_at = @now " +
          "WHERE id = @id AND status = 'generating'",
      ),
      expireFiles: db.prepare(
        'UPDATE generations SET video_key = NULL, thumbnail_key = NULL, output_keys = NULL, files_expired_at = @now WHERE id = @id AND finished_at IS NOT NULL',
      ),
      expiring: db.prepare(
        'SELECT id, video_key, thumbnail_key, output_keys FROM generations WHERE finished_at IS NOT NULL AND finished_at < ? AND files_expired_at IS NULL LIMIT ?',
      ),
      remove: db.prepare("DELETE FROM generations WHERE id = @id AND org_id = @orgId AND status != 'generating'"),
      clearWebhookUrls: db.prepare(
        `SELECT id, webhook_url FROM generations WHERE webhook_url IS NOT NULL AND webhook_url NOT LIKE '${SEALED_WEBHOOK_PREFIX}%'`,
      ),
      replaceWebhookUrl: db.prepare(
        'UPDATE generations SET webhook_url = @next WHERE id = @id AND webhook_url = @prev',
      ),
    };
  }

  /** Inserts the generations (call inside the charging transaction, next to enqueuing their render jobs). */
  insertBatch(rows: GenerationRow[]): void {
    for (const row of rows) this.stmts.insert.run(row);
  }

  get(orgId: string, id: string): GenerationRow | undefined {
    return this.stmts.get.get(id, orgId) as GenerationRow | undefined;
  }

  /** Any org's generation (for the pipeline, which has no org context). */
  getAny(id: string): GenerationRow | undefined {
    return this.stmts.getAny.get(id) as GenerationRow | undefined;
  }

  list(orgId: string, f: GenerationListFilter & { limit: number; offset: number }): GenerationRow[] {
    const where = ['org_id = @orgId'];
    if (f.status) where.push('status = @status');
    if (f.draft) where.push(f.draft === 'true' ? 'draft = 1' : 'draft = 0');
    if (f.template_id) where.push('template_id = @template_id');
    if (f.batch_id) where.push('batch_id = @batch_id');
    const sql = `SELECT * FROM generations WHERE ${where.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`;
    let stmt = this.listStmts.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listStmts.set(sql, stmt);
    }
    const params: Record<string, unknown> = { orgId, limit: f.limit, offset: f.offset };
    if (f.status) params.status = f.status;
    if (f.template_id) params.template_id = f.template_id;
    if (f.batch_id) params.batch_id = f.batch_id;
    return stmt.all(params) as GenerationRow[];
  }

  /** generating -> aborted with its whole charge refunded (recorded); false when it was not generating. */
  abort(id: string, error: string, now: number): boolean {
    return this.stmts.abort.run({ id, error, now }).changes === 1;
  }

  /** Records when the render began; true only the first time (while generating). */
  markStarted(id: string, now: number): boolean {
    return this.stmts.markStarted.run({ id, now }).changes === 1;
  }

  /** Generating generations whose render (or provider job) began, in every organization. */
  countStarted(): number {
    const row = this.db
      .prepare("SELECT COUNT(*) AS n FROM generations WHERE status = 'generating' AND started_at IS NOT NULL")
      .get() as { n: number };
    return row.n;
  }

  /** Ids of the batch's generations that are still generating, in row order. */
  generatingInBatch(orgId: string, batchId: string): string[] {
    return (this.stmts.generatingInBatch.all(orgId, batchId) as { id: string }[]).map((r) => r.id);
  }

  batchExists(orgId: string, batchId: string): boolean {
    return this.stmts.batchExists.get(orgId, batchId) !== undefined;
  }

  /** generating -> canceled; false when it was not generating. */
  cancel(orgId: string, id: string, now: number): boolean {
    return this.stmts.cancel.run({ id, orgId, now }).changes === 1;
  }

  setProgress(id: string, progress: number, now: number): boolean {
    return this.stmts.progress.run({ id, progress, now }).changes === 1;
  }

  complete(
    id: string,
    result: { videoKey: string; thumbnailKey: string; outputKeys?: Record<string, string> },
    now: number,
  ): boolean {
    const outputKeys =
      result.outputKeys && Object.keys(result.outputKeys).length ? JSON.stringify(result.outputKeys) : null;
    return (
      this.stmts.complete.run({ id, videoKey: result.videoKey, thumbnailKey: result.thumbnailKey, outputKeys, now })
        .changes === 1
    );
  }

  fail(id: string, error: string, refunded: number, now: number): boolean {
    return this.stmts.fail.run({ id, error, refunded, now }).changes === 1;
  }

  /** Finished generations whose files are older than `before` (retention). */
  expiring(before: number, limit: number): Pick<GenerationRow, 'id' | 'video_key' | 'thumbnail_key' | 'output_keys'>[] {
    return this.stmts.expiring.all(before, limit) as Pick<
      GenerationRow,
      'id' | 'video_key' | 'thumbnail_key' | 'output_keys'
    >[];
  }

  expireFiles(id: string, now: number): void {
    this.stmts.expireFiles.run({ id, now });
  }

  /** Removes a finished generation's record; false when it is still generating (or not the org's). */
  remove(orgId: string, id: string): boolean {
    return this.stmts.remove.run({ id, orgId }).changes === 1;
  }

  /** A generating generation of the org whose resolved inputs name `storageKey` (uploads ask before deleting one). */
  generatingWith(orgId: string, storageKey: string): string | null {
    const row = this.db
      .prepare("SELECT id FROM generations WHERE org_id = ? AND status = 'generating' AND instr(inputs, ?) > 0 LIMIT 1")
      .get(orgId, JSON.stringify(storageKey)) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** Webhook URLs stored in clear (by versions before they were sealed). */
  clearWebhookUrls(): { id: string; webhook_url: string }[] {
    return this.stmts.clearWebhookUrls.all() as { id: string; webhook_url: string }[];
  }

  /** Swaps the stored webhook URL only if it is still `prev` (no lost update). */
  replaceWebhookUrl(id: string, prev: string, next: string): boolean {
    return this.stmts.replaceWebhookUrl.run({ id, prev, next }).changes === 1;
  }
}
