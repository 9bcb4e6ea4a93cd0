import { TemplateProviderSchema } from '../../../../shared/provider.schema.js';
import {
  ASPECT_RATIOS,
  SCRATCH_TEMPLATE_TTL_MS,
  type AspectRatio,
  type Template,
  type TemplateWrite,
} from '../../../../shared/video.schema.js';
import { KeptRows } from '../../db/change-stamp.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { priceFor, tryPriceFor, type Price } from '../pricing.js';
import { latencyEstimate, rendererOf } from '../renderer.js';
import { readJsonResources } from '../resources.js';
import { validateTemplate } from './template-validation.js';
import { TemplatesRepo, definitionOf, rowOf, type TemplateRow } from './templates.repo.js';

const BUILTIN_ID = /^[a-z0-9][a-z0-9-]{1,63}$/;
const PAGE_CACHE_MAX = 1000;
type Variable = Template['input_variables'][number];
/** A request body: the definition, and `scratch` beside it (see TemplateWriteBodySchema). */
type TemplateBody = Record<string, unknown> & { scratch?: boolean };

/** A template ready to generate from: its validated definition and its price. */
export interface UsableTemplate {
  id: string;
  definition: TemplateWrite;
  price: Price;
}

export interface Page<T> {
  data: T[];
  pagination: { offset: number; limit: number; has_more: boolean };
}

function variablesOf(row: TemplateRow): Variable[] {
  let raw: unknown;
  try {
    raw = JSON.parse(row.input_variables);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return raw
    .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object')
    .map((v) => {
      const out: Variable = {
        key: String(v.key ?? ''),
        label: String(v.label ?? ''),
        type: String(v.type ?? ''),
        required: v.required === true,
      };
      const opt = {
        placeholder: str(v.placeholder),
        description: str(v.description),
        default_value: str(v.default_value),
        max_length: num(v.max_length),
        min_length: num(v.min_length),
        slot: str(v.slot),
        role: str(v.role),
      };
      for (const [k, val] of Object.entries(opt)) if (val !== undefined) (out as Record<string, unknown>)[k] = val;
      return out;
    });
}

function providerOf(row: TemplateRow): Template['provider'] {
  const parsed = TemplateProviderSchema.nullable().safeParse(row.provider === null ? null : JSON.parse(row.provider));
  return parsed.success ? parsed.data : null;
}

/** The API view of a row; it tolerates stored rows that today's rules reject. */
export function templateView(row: TemplateRow): Template {
  const price = tryPriceFor({ model: row.model, resolution: row.resolution, duration_sec: row.duration_sec });
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    duration_sec: row.duration_sec ?? price?.duration_sec ?? null,
    // The renderer that will run it says how long it takes (the local renderer: its speed on this machine).
    latency_estimate_sec: latencyEstimate({
      provider: providerOf(row),
      resolution: row.resolution,
      aspect_ratio: row.aspect_ratio,
      duration_sec: row.duration_sec ?? price?.duration_sec ?? null,
      latency_estimate_sec:
        row.latency_typical_sec === null || row.latency_busy_sec === null
          ? null
          : { typical: row.latency_typical_sec, busy: row.latency_busy_sec },
    }),
    input_variables: variablesOf(row),
    prompt_template: row.prompt_template,
    model: row.model,
    resolution: row.resolution,
    aspect_ratio: (ASPECT_RATIOS as readonly string[]).includes(row.aspect_ratio)
      ? (row.aspect_ratio as AspectRatio)
      : '16:9',
    provider: providerOf(row),
    credits_per_video: price?.credits_per_video ?? null,
    renderer: rendererOf(providerOf(row)),
    builtin: row.org_id === null,
    scratch: row.scratch === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function page<T>(rows: T[], limit: number, offset: number): Page<T> {
  return { data: rows.slice(0, limit), pagination: { offset, limit, has_more: rows.length > limit } };
}

const invalid = (reasons: string[]) => badRequest(`Invalid template: ${reasons.join('; ')}`, { reasons });

/**
 * Templates: the built-ins shipped in resources/templates (read-only, every org sees them) and each
 * org's own (visible to that org only; another org's template answers 404 as if it did not exist).
 */
export class TemplatesService {
  readonly repo: TemplatesRepo;
  /**
   * List pages as UTF-8 JSON bytes (the hot read path), dropped on any write of this process or another
   * (change-stamp.ts). Bytes, not text: a string answer is measured (Content-Length) and encoded again on every send.
   */
  private readonly pages: KeptRows<Buffer>;

  private readonly now: () => number;

  constructor(
    private readonly deps: {
      db: Db;
      log: Logger;
      resourcesDir: string | null;
      /** The clock of created_at/updated_at and of the scratch sweep (tests age a template without waiting). */
      now?: () => number;
    },
  ) {
    this.now = deps.now ?? Date.now;
    this.repo = new TemplatesRepo(deps.db);
    this.pages = new KeptRows(deps.db, PAGE_CACHE_MAX);
  }

  /** Loads resources/templates/*.json into the table, replacing the previous built-ins. Invalid files are skipped and logged. */
  seedBuiltins(): { loaded: string[]; skipped: { file: string; reasons: string[] }[] } {
    const rows: TemplateRow[] = [];
    const skipped: { file: string; reasons: string[] }[] = [];
    for (const [position, { file, value, error }] of readJsonResources(this.deps.resourcesDir, 'templates').entries()) {
      const { id, ...definition } = (value ?? {}) as Record<string, unknown>;
      const reasons = error ? [error] : [];
      if (!error && (typeof id !== 'string' || !BUILTIN_ID.test(id)))
        reasons.push('id must be 2-64 lower-case letters, digits or dashes');
      const checked = error ? null : validateTemplate(definition);
      if (checked && !checked.ok) reasons.push(...checked.reasons);
      if (reasons.length || !checked?.ok) {
        skipped.push({ file, reasons });
        continue;
      }
      rows.push(rowOf(id as string, null, checked.value, { position, created_at: null, updated_at: null }));
    }
    this.repo.replaceBuiltins(rows);
    for (const s of skipped)
      this.deps.log.error({ file: s.file, reasons: s.reasons }, 'built-in template skipped: invalid');
    return { loaded: rows.map((r) => r.id), skipped };
  }

  list(orgId: string, opts: { category?: string; limit: number; offset: number }): Page<Template> {
    const rows = this.repo.list(orgId, { ...opts, limit: opts.limit + 1 });
    return page(rows.map(templateView), opts.limit, opts.offset);
  }

  /** The same page as UTF-8 JSON, kept while no write happened (never written to: every answer sends these bytes). */
  listJson(orgId: string, opts: { category?: string; limit: number; offset: number }): Buffer {
    const key = `${orgId}\u0000${opts.category ?? ''}\u0000${opts.limit}\u0000${opts.offset}`;
    return this.pages.get(key, () => Buffer.from(JSON.stringify(this.list(orgId, opts))))!;
  }

  get(orgId: string, id: string): Template {
    return templateView(this.row(orgId, id));
  }

  /** For generate: 404 when not visible, 422 invalid_template when the stored configuration is invalid, 400 pricing_error when unpriced. */
  usable(orgId: string, id: string): UsableTemplate {
    const row = this.row(orgId, id);
    const checked = validateTemplate(definitionOf(row));
    if (!checked.ok) {
      throw new AppError(
        422,
        'invalid_template',
        `Template "${id}" has an invalid configuration: ${checked.reasons.join('; ')}`,
        {
          reasons: checked.reasons,
        },
      );
    }
    const price = priceFor({
      model: checked.value.model,
      resolution: checked.value.resolution,
      duration_sec: checked.value.duration_sec,
    });
    return { id: row.id, definition: checked.value, price };
  }

  create(orgId: string, { scratch = false, ...body }: TemplateBody): Template {
    const checked = validateTemplate(body);
    if (!checked.ok) throw invalid(checked.reasons);
    const now = this.now();
    const row = rowOf(newId('tpl'), orgId, checked.value, { scratch, created_at: now, updated_at: now });
    this.repo.insert(row);
    return templateView(row);
  }

  /** PUT: replaces the whole definition (`scratch` absent: the template stays what it was). */
  replace(orgId: string, id: string, { scratch, ...body }: TemplateBody): Template {
    const current = this.writable(orgId, id);
    return this.save(current, body, scratch);
  }

  /** PATCH: the given fields over the stored ones; the result must be a valid template. */
  patch(orgId: string, id: string, { scratch, ...patch }: TemplateBody): Template {
    const current = this.writable(orgId, id);
    return this.save(current, { ...definitionOf(current), ...patch }, scratch);
  }

  /**
   * Deletes the scratch templates of every organization unchanged for SCRATCH_TEMPLATE_TTL_MS: the preview copies
   * an editor closed without deleting (quit, crash). Run at start-up and periodically (video.feature.ts).
   */
  sweepScratch(now = this.now()): number {
    const removed = this.repo.deleteStaleScratch(now - SCRATCH_TEMPLATE_TTL_MS);
    if (removed) this.deps.log.info({ removed }, 'removed scratch templates unchanged for a day');
    return removed;
  }

  delete(orgId: string, id: string): void {
    this.writable(orgId, id);
    this.repo.delete(orgId, id);
  }

  private save(current: TemplateRow, body: unknown, scratch: boolean | undefined): Template {
    // A saved template made scratch would leave the list and be deleted a day later: only a new one starts as scratch.
    if (scratch === true && current.scratch !== 1) {
      throw badRequest(
        `Template "${current.id}" is not a scratch template and cannot become one; create a scratch copy with POST /api/templates and "scratch": true.`,
      );
    }
    const checked = validateTemplate(body);
    if (!checked.ok) throw invalid(checked.reasons);
    const row = rowOf(current.id, current.org_id, checked.value, {
      scratch: scratch ?? current.scratch === 1,
      created_at: current.created_at,
      updated_at: this.now(),
    });
    this.repo.update(row);
    return templateView(row);
  }

  private row(orgId: string, id: string): TemplateRow {
    const row = this.repo.get(orgId, id);
    if (!row) throw notFound(`Template "${id}" not found.`);
    return row;
  }

  /** Built-ins are read-only: 403 forbidden (copy one with POST /api/templates to change it). */
  private writable(orgId: string, id: string): TemplateRow {
    const row = this.row(orgId, id);
    if (row.org_id === null) {
      throw new AppError(
        403,
        'forbidden',
        `Template "${id}" is built-in and read-only; create your own copy with POST /api/templates.`,
      );
    }
    return row;
  }
}
