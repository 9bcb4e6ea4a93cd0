import crypto from 'node:crypto';
import type { GenerateResponse, ResolvedInput, TemplateWrite } from '../../../../shared/video.schema.js';
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
import type { MediaKind } from '../../../../shared/media-types.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { RENDER_JOB_KIND } from '../pipeline/render-job.js';
import type { BlobStore } from '../uploads/storage/blob-store.js';
import { renderPrompt } from '../templates/template-validation.js';
import type { UsableTemplate } from '../templates/templates.service.js';

/** Longest text value of a variable without its own max_length. */
export const DEFAULT_TEXT_MAX = 10_000;

/** A generate request after transport decoding (JSON or multipart). */
export interface GenerateInput {
  /** Text values, and media references (http(s) URL, storage key, data URI). */
  variables: Record<string, string>;
  /** Multipart files, already stored (ingestStream). */
  files: Record<string, IngestedMedia>;
  character_variables: Record<string, string>;
  webhook_url?: string;
  num_videos: number;
}

export interface GenerateContext {
  orgId: string;
  template: UsableTemplate;
  input: GenerateInput;
  /** Hash of the request (template id + body) for Idempotency-Key comparisons. */
  requestHash: string;
  idempotencyKey?: string;
}

export interface GenerateResult {
  status: number;
  body: GenerateResponse;
  /** The stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

type Variable = TemplateWrite['input_variables'][number];

/** JSON with sorted object keys (so equal bodies hash equally whatever their key order). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(templateId: string, transport: 'json' | 'multipart', body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${transport}\n${templateId}\n${canonicalJson(body)}`)
    .digest('hex');
}

const nonEmpty = (v: string | undefined): v is string => typeof v === 'string' && v.length > 0;
/** Own properties only: a variable may be called `constructor` or `toString`. */
const own = <T>(map: Record<string, T>, key: string): T | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);

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
  constructor(private readonly deps: GenerateDeps) {}

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
    this.check(def, input);
    const characters = this.characters(orgId, def, input);
    if (characters.size) await this.deps.characters.ensurePublicImages();

    const inputs: Record<string, ResolvedInput> = {};
    const texts: Record<string, string> = {};
    const superseded: IngestedMedia[] = [];
    for (const v of def.input_variables) {
      if (v.type === 'text') {
        const given = own(input.variables, v.key);
        const value = nonEmpty(given) ? given : (v.default_value ?? '');
        texts[v.key] = value;
        inputs[v.key] = {
          type: 'text',
          source: nonEmpty(given) ? 'request' : v.default_value !== undefined ? 'default' : 'empty',
          value,
        };
        continue;
      }
      const slot = v.slot ? { slot: v.slot } : {};
      const character = characters.get(v.key);
      const file = own(input.files, v.key);
      if (character) {
        if (file) superseded.push(file);
        inputs[v.key] = {
          type: v.type,
          source: 'character',
          character_id: character.id,
          storage_key: character.key,
          ...slot,
        };
      } else if (file) {
        inputs[v.key] = {
          type: v.type,
          source: 'upload',
          storage_key: file.storageKey,
          content_type: file.contentType,
          size: file.size,
          ...slot,
        };
      } else {
        const given = own(input.variables, v.key);
        const value = nonEmpty(given) ? given : v.default_value;
        if (value === undefined) continue;
        const media = await this.resolveMedia(orgId, v.key, v.type as MediaKind, value);
        if (isNewObject(media)) created.push(media);
        const source = nonEmpty(given) ? media.source : 'default';
        inputs[v.key] = {
          type: v.type,
          source,
          storage_key: media.storageKey,
          content_type: media.contentType,
          size: media.size,
          ...slot,
        };
      }
    }

    const count = input.num_videos;
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
      inputs: JSON.stringify(inputs),
      prompt: renderPrompt(def.prompt_template, texts),
      model_config: JSON.stringify(modelConfig),
      webhook_url: webhookUrls[i],
      video_key: null,
      thumbnail_key: null,
      error: null,
      credits_charged: template.price.credits_per_video,
      credits_refunded: 0,
      created_at: now,
      updated_at: now,
      completed_at: null,
      finished_at: null,
      files_expired_at: null,
    }));
    const body: GenerateResponse = {
      generations: ids.map((generation_id) => ({ generation_id, status: 'generating' as const })),
      template_id: template.id,
      credits_charged: template.price.credits_per_video * count,
      latency_estimate_sec: def.latency_estimate_sec,
    };
    const providerName = typeof provider?.name === 'string' ? provider.name : 'local';
    this.deps.credits.charge(orgId, body.credits_charged, ids.join(','), () => {
      this.deps.generations.repo.insertBatch(rows);
      for (const id of ids) {
        this.deps.jobs.enqueue({ kind: RENDER_JOB_KIND, refId: id, orgId, payload: { provider: providerName } });
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
    const vars = new Map<string, Variable>(def.input_variables.map((v) => [v.key, v]));
    const known = def.input_variables.map((v) => v.key).join(', ') || '(none)';
    const problems: string[] = [];
    const unknown = [...new Set([...Object.keys(input.variables), ...Object.keys(input.files)])].filter(
      (k) => !vars.has(k),
    );
    if (unknown.length)
      problems.push(`unknown variable(s): ${unknown.join(', ')} (this template's variables: ${known})`);
    const charKeys = Object.keys(input.character_variables);
    if (charKeys.length && def.category !== 'ingredients-to-video') {
      problems.push(
        `character_variables are accepted by ingredients-to-video templates only (this template is ${def.category})`,
      );
    } else {
      for (const key of charKeys) {
        const v = vars.get(key);
        if (!v) problems.push(`character_variables.${key}: no such variable (this template's variables: ${known})`);
        else if (v.type !== 'image')
          problems.push(`character_variables.${key}: only image variables take a character (${key} is ${v.type})`);
      }
    }
    const missing: string[] = [];
    for (const v of def.input_variables) {
      const given = own(input.variables, v.key);
      const file = own(input.files, v.key);
      if (file && given !== undefined) problems.push(`variables.${v.key}: given both as a file and as a value`);
      if (v.type === 'text') {
        if (file) problems.push(`variables.${v.key}: a text variable takes text, not a file`);
        if (nonEmpty(given)) {
          const max = v.max_length ?? DEFAULT_TEXT_MAX;
          if (given.length > max) problems.push(`variables.${v.key}: at most ${max} characters (got ${given.length})`);
          if (v.min_length !== undefined && given.length < v.min_length) {
            problems.push(`variables.${v.key}: at least ${v.min_length} characters (got ${given.length})`);
          }
        } else if (v.required && v.default_value === undefined) missing.push(v.key);
        continue;
      }
      const character = v.type === 'image' && nonEmpty(own(input.character_variables, v.key));
      const has = character || !!file || nonEmpty(given) || v.default_value !== undefined;
      if (!has && v.required) missing.push(v.key);
    }
    // Only what needs no DNS (an IP address, a metadata name): the delivery's connection is the real check.
    const refused = input.webhook_url ? this.deps.outbound?.refusalOfUrl(input.webhook_url) : null;
    if (refused) problems.push(`webhook_url: ${refused.reason}`);
    if (missing.length) problems.unshift(`missing required variable(s): ${missing.join(', ')}`);
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

  private async resolveMedia(orgId: string, key: string, kind: MediaKind, value: string): Promise<IngestedMedia> {
    const ingest = this.deps.ingest;
    if (!ingest) throw new AppError(500, 'generation_error', 'Media ingestion is not available.');
    try {
      return await ingest.resolve(orgId, kind, value);
    } catch (err) {
      if (err instanceof AppError && err.status < 500)
        throw new AppError(err.status, err.code, `variables.${key}: ${err.message}`, err.details);
      throw err;
    }
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
