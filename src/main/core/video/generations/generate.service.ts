import type { TemplateWrite } from '../../../../shared/video.schema.js';
import type { GenerateResponse, Quote } from '../../../../shared/video-generations.schema.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { CreditsService } from '../../tenancy/credits.service.js';
import type { CharactersService } from '../characters/characters.service.js';
import type { GenerationRow, ModelConfigSnapshot } from './generations.repo.js';
import type { GenerationsService } from './generations.service.js';
import type { IdempotencyRepo } from './idempotency.repo.js';
import { isNewObject, type IngestedMedia, type MediaIngestPort } from '../uploads/media-port.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { RENDER_JOB_KIND } from '../pipeline/render-job.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { renderPrompt } from '../templates/template-validation.js';
import type { UsableTemplate } from '../templates/templates.service.js';
import { DEADLINE_JOB_KIND } from './deadline.job.js';
import { DraftLimiter, inRow, mediaShapeProblem, optionProblems, rowInputs } from './generate-options.js';
import { requestPrice } from '../pricing.js';
import {
  DRAFT_RESOLUTION,
  nonEmpty,
  own,
  requestProblems,
  requestedOutputs,
  type GenerateInput,
} from './generate-input.js';
import { latencyEstimate, rendererOf } from '../renderer.js';
import { resolveInputs, type PlannedRow, type ResolvedRow } from './resolve-inputs.js';

export interface GenerateContext {
  orgId: string;
  template: UsableTemplate;
  input: GenerateInput;
  /** Hash of the request (template id + body) for Idempotency-Key comparisons. */
  requestHash: string;
  idempotencyKey?: string;
  /** The API key's id: drafts are rate-limited per key (the org's id when there is none). */
  keyId?: string;
}

export interface GenerateResult {
  status: number;
  body: GenerateResponse;
  /** The stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface GenerateDeps {
  db: Db;
  log: Logger;
  credits: CreditsService;
  characters: CharactersService;
  generations: GenerationsService;
  idempotency: IdempotencyRepo;
  /** Render jobs are enqueued in the charging transaction: charged <=> queued, even across a crash. */
  jobs: JobQueue;
  ingest?: MediaIngestPort;
  blobs?: BlobStore;
  /** Refuses at once a webhook_url whose literal address the outbound policy forbids (delivery checks again). */
  outbound?: OutboundPolicy;
}

/**
 * POST /api/templates/:id/generate. Validates everything and stores the media first; then ONE
 * IMMEDIATE transaction checks and charges the credits, inserts the generations and their jobs and
 * records the Idempotency-Key answer. Under any concurrency the balance never goes negative and a
 * request is never charged twice.
 */
export class GenerateService {
  private readonly drafts = new DraftLimiter();

  constructor(private readonly deps: GenerateDeps) {}

  /**
   * What generate would charge for this request, with nothing charged or stored: the same validation (the same
   * 400s) and the same price (requestPrice), but media values are checked for their shape only (not fetched or
   * looked up) and a draft takes nothing from the draft rate limit.
   */
  quote(ctx: Pick<GenerateContext, 'orgId' | 'template' | 'input'>): Quote {
    const { orgId, template, input } = ctx;
    const def = template.definition;
    const planned = this.plan(ctx);
    const problems: string[] = [];
    planned.forEach((row, i) => {
      for (const v of def.input_variables) {
        const given = v.type === 'text' || v.type === 'captions' ? undefined : own(row.input.variables, v.key);
        const problem = nonEmpty(given) ? mediaShapeProblem(v.key, given) : null;
        if (problem) problems.push(input.batch ? `batch[${i}]: ${problem}` : problem);
      }
    });
    if (problems.length) throw badRequest(`Invalid generate request: ${problems.join('; ')}`, { problems });
    const { perVideo, count, credits } = requestPrice(template.price, input);
    const renderer = rendererOf(def.provider, { draft: input.draft });
    return {
      credits,
      per_video: perVideo,
      num_videos: count,
      provider: renderer.name,
      model: template.price.model,
      resolution: input.draft ? DRAFT_RESOLUTION : template.price.resolution,
      duration_sec: template.price.duration_sec,
      latency_estimate_sec: latencyEstimate(
        {
          ...def,
          aspect_ratio: input.aspect_ratio ?? def.aspect_ratio,
          duration_sec: template.price.duration_sec,
        },
        { draft: input.draft },
      ),
      balance_after: this.deps.credits.balance(orgId) - credits,
      draft: input.draft === true,
      renderer,
    };
  }

  /** The request checked as a whole (every row of a batch, all-or-nothing) and its characters looked up. */
  private plan(ctx: Pick<GenerateContext, 'orgId' | 'template' | 'input'>): PlannedRow[] {
    const { orgId, template, input } = ctx;
    const def = template.definition;
    const options = optionProblems(input);
    if (options.length) throw badRequest(`Invalid generate request: ${options.join('; ')}`, { problems: options });
    const rows = rowInputs(input);
    if (!input.batch) {
      this.check(def, input);
      return [{ input, characters: this.characters(orgId, def, input) }];
    }
    const problems: string[] = [];
    rows.forEach((row, i) => {
      // The request's webhook_url is checked once, with the first row.
      const found = requestProblems(def, i === 0 ? row : { ...row, webhook_url: undefined }, this.deps.outbound);
      problems.push(...found.problems.map((p) => `batch[${i}]: ${p}`));
    });
    if (problems.length) throw badRequest(`Invalid generate request: ${problems.join('; ')}`, { problems });
    return rows.map((row, i) => {
      try {
        return { input: row, characters: this.characters(orgId, def, row) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        throw new AppError(err.status, err.code, `batch[${i}]: ${err.message}`, { ...err.details, row: i });
      }
    });
  }

  async generate(ctx: GenerateContext): Promise<GenerateResult> {
    const { orgId, idempotencyKey } = ctx;
    if (idempotencyKey) {
      const claim = this.deps.idempotency.claim(orgId, idempotencyKey, ctx.requestHash);
      if (claim.kind !== 'claimed') {
        await this.discard(Object.values(ctx.input.files));
        if (claim.kind === 'replay')
          return { status: claim.status, body: claim.body as GenerateResponse, replayed: true };
        if (claim.kind === 'conflict') {
          throw new AppError(
            409,
            'idempotency_conflict',
            'This Idempotency-Key was already used with a different request body.',
          );
        }
        throw new AppError(
          409,
          'idempotency_in_progress',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
        );
      }
    }
    const created: IngestedMedia[] = [];
    try {
      const result = await this.run(ctx, created);
      return { status: 200, body: result, replayed: false };
    } catch (err) {
      if (idempotencyKey) this.deps.idempotency.release(orgId, idempotencyKey);
      await this.discard([...Object.values(ctx.input.files), ...created]);
      throw err;
    }
  }

  private async run(ctx: GenerateContext, created: IngestedMedia[]): Promise<GenerateResponse> {
    const { orgId, template, input } = ctx;
    const def = template.definition;
    const planned = this.plan(ctx);
    if (input.draft) this.drafts.take(ctx.keyId ?? orgId);
    if (planned.some((row) => row.characters.size)) await this.deps.characters.ensurePublicImages();

    const superseded: IngestedMedia[] = [];
    const resolved: ResolvedRow[] = [];
    for (const [i, row] of planned.entries()) {
      resolved.push(
        await inRow(input.batch ? i : null, () =>
          resolveInputs(this.deps.ingest, orgId, def, row, { created, superseded }),
        ),
      );
    }
    if (input.batch) {
      // A shared file that every row replaced with its own value is not kept.
      const used = JSON.stringify(resolved.map((r) => r.inputs));
      superseded.push(...Object.values(input.files).filter((f) => !used.includes(JSON.stringify(f.storageKey))));
    }
    const { perVideo, count, credits } = requestPrice(template.price, input);
    const rowOf = (i: number) => resolved[input.batch ? i : 0];
    return this.commit(ctx, { perVideo, count, credits, rowOf }, superseded);
  }

  /** ONE transaction: check and charge the credits, insert the generations and their jobs, record the answer. */
  private async commit(
    ctx: GenerateContext,
    price: {
      perVideo: number;
      count: number;
      credits: number;
      rowOf: (i: number) => ResolvedRow;
    },
    superseded: IngestedMedia[],
  ): Promise<GenerateResponse> {
    const { orgId, template, input } = ctx;
    const def = template.definition;
    const { count, rowOf } = price;
    const now = Date.now();
    const batchId = newId('gbt');
    const ids = Array.from({ length: count }, () => newId('gen'));
    const provider = def.provider ?? null;
    const modelConfig: ModelConfigSnapshot = {
      model: template.price.model,
      resolution: template.price.resolution,
      duration_sec: template.price.duration_sec,
      category: def.category,
      provider,
      aspect_ratio: input.aspect_ratio ?? def.aspect_ratio,
      outputs: requestedOutputs(input.outputs),
    };
    // Sealed before the charging transaction (the key comes from the secret store, asynchronously).
    const webhookUrls = await Promise.all(
      ids.map((id) => (input.webhook_url ? this.deps.generations.sealWebhookUrl(id, input.webhook_url) : null)),
    );
    const rows: GenerationRow[] = ids.map((id, i) => ({
      id,
      org_id: orgId,
      batch_id: batchId,
      template_id: template.id,
      status: 'generating',
      progress: 0,
      inputs: JSON.stringify(rowOf(i).inputs),
      prompt: renderPrompt(def.prompt_template, rowOf(i).texts),
      model_config: JSON.stringify(modelConfig),
      webhook_url: webhookUrls[i],
      video_key: null,
      thumbnail_key: null,
      error: null,
      credits_charged: price.perVideo,
      credits_refunded: 0,
      created_at: now,
      updated_at: now,
      completed_at: null,
      finished_at: null,
      files_expired_at: null,
      draft: input.draft ? 1 : 0,
      deadline_at: input.deadline_sec ? now + input.deadline_sec * 1000 : null,
      started_at: null,
      batch_index: input.batch ? i : null,
      webhook_events: input.webhook_events ? JSON.stringify(input.webhook_events) : null,
    }));
    const body: GenerateResponse = {
      generations: ids.map((generation_id, i) => ({
        generation_id,
        status: 'generating' as const,
        ...(input.batch ? { batch_index: i } : {}),
      })),
      template_id: template.id,
      credits_charged: price.credits,
      latency_estimate_sec: latencyEstimate(
        {
          ...def,
          aspect_ratio: input.aspect_ratio ?? def.aspect_ratio,
          duration_sec: template.price.duration_sec,
        },
        { draft: input.draft },
      ),
      ...(input.batch ? { batch_id: batchId } : {}),
      ...(input.draft ? { draft: true as const } : {}),
    };
    // A draft is the local renderer's preview, never a hosted call.
    const providerName = !input.draft && typeof provider?.name === 'string' ? provider.name : 'local';
    // A batch is one charge (its ledger entry names the batch); otherwise the generation ids, as before.
    const chargeRef = input.batch ? batchId : ids.join(',');
    this.deps.credits.charge(orgId, body.credits_charged, chargeRef, () => {
      this.deps.generations.repo.insertBatch(rows);
      for (const id of ids) {
        this.deps.jobs.enqueue({ kind: RENDER_JOB_KIND, refId: id, orgId, payload: { provider: providerName } });
        if (input.deadline_sec) {
          this.deps.jobs.enqueue({ kind: DEADLINE_JOB_KIND, refId: id, orgId, delayMs: input.deadline_sec * 1000 });
        }
      }
      if (ctx.idempotencyKey) this.deps.idempotency.complete(orgId, ctx.idempotencyKey, 200, body);
    });
    // Committed: nothing below may undo it (discard swallows its own errors).
    this.deps.jobs.kick();
    this.deps.log.info({ orgId, templateId: template.id, count, credits: body.credits_charged }, 'generation accepted');
    await this.discard(superseded);
    return body;
  }

  /** Every request-shape problem at once: unknown keys, misplaced characters, missing values, lengths. */
  private check(def: TemplateWrite, input: GenerateInput): void {
    const { problems, missing } = requestProblems(def, input, this.deps.outbound);
    if (problems.length) throw badRequest(`Invalid generate request: ${problems.join('; ')}`, { problems, missing });
  }

  /** Characters by image key: visible to the org (public or its own private), else 400 as if they did not exist. */
  private characters(
    orgId: string,
    def: TemplateWrite,
    input: GenerateInput,
  ): Map<string, { id: string; key: string }> {
    const out = new Map<string, { id: string; key: string }>();
    const problems: string[] = [];
    for (const [key, id] of Object.entries(input.character_variables)) {
      if (!def.input_variables.some((v) => v.key === key)) continue;
      const character = this.deps.characters.visible(orgId, id);
      if (!character) problems.push(`character_variables.${key}: character "${id}" not found`);
      else if (!character.reference_image_keys.length)
        problems.push(`character_variables.${key}: character "${id}" has no reference image`);
      else out.set(key, { id: character.id, key: character.reference_image_keys[0] });
    }
    if (problems.length) throw badRequest(`Invalid generate request: ${problems.join('; ')}`);
    return out;
  }

  /** Deletes objects this request stored when the request does not go through (or no longer needs them). */
  async discard(media: IngestedMedia[]): Promise<void> {
    for (const m of media) {
      if (!isNewObject(m)) continue;
      const removal = this.deps.ingest ? this.deps.ingest.discard(m) : this.deps.blobs?.delete(m.storageKey);
      await removal?.catch((err: unknown) => {
        this.deps.log.warn({ err: (err as Error).message }, 'could not delete an unused ingested object');
      });
    }
  }
}
