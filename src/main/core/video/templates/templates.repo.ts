import type { TemplateWrite } from '../../../../shared/video.schema.js';
import type { Db } from '../../db/database.js';

export interface TemplateRow {
  id: string;
  /** null: built-in. */
  org_id: string | null;
  title: string;
  description: string | null;
  category: string;
  duration_sec: number | null;
  latency_typical_sec: number | null;
  latency_busy_sec: number | null;
  input_variables: string;
  prompt_template: string | null;
  model: string;
  resolution: string;
  /** Frame shape, '16:9' unless set (migration 0019). */
  aspect_ratio: string;
  /** JSON of the template's provider block, or null (the local renderer). */
  provider: string | null;
  position: number;
  /** 1: a scratch template (a preview copy): not listed, swept once unchanged for a day (migration 0021). */
  scratch: number;
  created_at: number | null;
  updated_at: number | null;
}

/** The stored definition as the validator sees it (it may be invalid: rows can predate today's rules). */
export function definitionOf(row: TemplateRow): Record<string, unknown> {
  let variables: unknown;
  try {
    variables = JSON.parse(row.input_variables);
  } catch {
    variables = row.input_variables;
  }
  return {
    title: row.title,
    description: row.description,
    category: row.category,
    duration_sec: row.duration_sec,
    latency_estimate_sec:
      row.latency_typical_sec === null || row.latency_busy_sec === null
        ? null
        : { typical: row.latency_typical_sec, busy: row.latency_busy_sec },
    input_variables: variables,
    prompt_template: row.prompt_template,
    model: row.model,
    resolution: row.resolution,
    aspect_ratio: row.aspect_ratio ?? '16:9',
    provider: parseProvider(row.provider),
  };
}

function parseProvider(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

export function rowOf(
  id: string,
  orgId: string | null,
  t: TemplateWrite,
  meta: { position?: number; scratch?: boolean; created_at: number | null; updated_at: number | null },
): TemplateRow {
  return {
    id,
    org_id: orgId,
    title: t.title,
    description: t.description,
    category: t.category,
    duration_sec: t.duration_sec,
    latency_typical_sec: t.latency_estimate_sec?.typical ?? null,
    latency_busy_sec: t.latency_estimate_sec?.busy ?? null,
    input_variables: JSON.stringify(t.input_variables),
    prompt_template: t.prompt_template,
    model: t.model,
    resolution: t.resolution,
    aspect_ratio: t.aspect_ratio,
    provider: t.provider ? JSON.stringify(t.provider) : null,
    position: meta.position ?? 0,
    scratch: meta.scratch ? 1 : 0,
    created_at: meta.created_at,
    updated_at: meta.updated_at,
  };
}

const COLUMNS = [
  'id',
  'org_id',
  'title',
  'description',
  'category',
  'duration_sec',
  'latency_typical_sec',
  'latency_busy_sec',
  'input_variables',
  'prompt_template',
  'model',
  'resolution',
  'aspect_ratio',
  'provider',
  'position',
  'scratch',
  'created_at',
  'updated_at',
] as const;

/** Built-ins first (by position), then the org's own templates, oldest first. */
const VISIBLE = '(org_id IS NULL OR org_id = @orgId)';
/** Scratch templates are read by id only: the list (and its pages' has_more) never counts them. */
const LISTED = `${VISIBLE} AND scratch = 0`;
const ORDER = 'ORDER BY (org_id IS NOT NULL), position, created_at, rowid';

export class TemplatesRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      get: db.prepare(`SELECT * FROM templates WHERE id = @id AND ${VISIBLE}`),
      list: db.prepare(`SELECT * FROM templates WHERE ${LISTED} ${ORDER} LIMIT @limit OFFSET @offset`),
      listByCategory: db.prepare(
        `SELECT * FROM templates WHERE ${LISTED} AND category = @category ${ORDER} LIMIT @limit OFFSET @offset`,
      ),
      insert: db.prepare(
        `INSERT INTO templates (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`,
      ),
      update: db.prepare(
        `UPDATE templates SET ${COLUMNS.filter((c) => !['id', 'org_id', 'position', 'created_at'].includes(c))
          .map((c) => `${c} = @${c}`)
          .join(', ')} WHERE id = @id AND org_id = @org_id`,
      ),
      delete: db.prepare('DELETE FROM templates WHERE id = ? AND org_id = ?'),
      deleteBuiltins: db.prepare('DELETE FROM templates WHERE org_id IS NULL'),
      deleteStaleScratch: db.prepare('DELETE FROM templates WHERE scratch = 1 AND updated_at < ?'),
      // Exact match on one variable's default (no LIKE, so no pattern characters in a key can widen it).
      usingDefault: db.prepare(
        `SELECT t.title FROM templates t, json_each(t.input_variables) v
         WHERE t.org_id = ? AND t.scratch = 0 AND json_extract(v.value, '$.default_value') = ? LIMIT 1`,
      ),
    };
  }

  /** A template the org can see (built-in or its own); another org's is undefined. */
  get(orgId: string, id: string): TemplateRow | undefined {
    return this.stmts.get.get({ id, orgId }) as TemplateRow | undefined;
  }

  list(orgId: string, opts: { category?: string; limit: number; offset: number }): TemplateRow[] {
    const params = { orgId, limit: opts.limit, offset: opts.offset, category: opts.category };
    return (opts.category ? this.stmts.listByCategory.all(params) : this.stmts.list.all(params)) as TemplateRow[];
  }

  insert(row: TemplateRow): void {
    this.stmts.insert.run(row);
  }

  update(row: TemplateRow): boolean {
    return this.stmts.update.run(row).changes === 1;
  }

  delete(orgId: string, id: string): boolean {
    return this.stmts.delete.run(id, orgId).changes === 1;
  }

  /** The title of an org template (not a scratch copy) whose variable has `value` as its default, or null. */
  titleUsingDefault(orgId: string, value: string): string | null {
    const row = this.stmts.usingDefault.get(orgId, value) as { title: string } | undefined;
    return row ? row.title : null;
  }

  /** Deletes the scratch templates of every org last changed before `changedBefore` (ms); how many. */
  deleteStaleScratch(changedBefore: number): number {
    return this.stmts.deleteStaleScratch.run(changedBefore).changes;
  }

  /** Replaces every built-in row in one transaction (the shipped files are the source of truth). */
  replaceBuiltins(rows: TemplateRow[]): void {
    this.db.transaction(() => {
      this.stmts.deleteBuiltins.run();
      for (const row of rows) this.stmts.insert.run(row);
    })();
  }
}
