import type { ScannedField } from './form-scan.js';

/** Lower-case word tokens: "companyId", "company_id", "Company ID" all give ["company", "id"]. */
export function tokens(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff]+/)
    .filter(Boolean)
    .map((t) => (t.length > 3 && t.endsWith('s') ? t.slice(0, -1) : t));
}

const compact = (s: string): string => tokens(s).join('');

/** How well a key like "tenant_id" names a field text like "Tenant ID" (0 = not at all). */
export function matchScore(key: string, text: string): number {
  const k = compact(key);
  const t = compact(text);
  if (!k || !t) return 0;
  if (k === t) return 100;
  if (k.length >= 3 && t.includes(k)) return 70 - Math.min(20, t.length - k.length);
  if (t.length >= 3 && k.includes(t)) return 50 - Math.min(20, k.length - t.length);
  const kt = new Set(tokens(key));
  const tt = new Set(tokens(text));
  let common = 0;
  for (const x of kt) if (tt.has(x)) common++;
  if (!common) return 0;
  const ratio = common / kt.size;
  return ratio >= 0.5 ? Math.round(45 * ratio * (common / Math.max(kt.size, tt.size)) + 10 * ratio) : 0;
}

export function fieldScore(key: string, field: ScannedField): number {
  const texts = [field.name, field.htmlId, field.label, field.placeholder, field.ariaLabel];
  return Math.max(0, ...texts.map((t) => matchScore(key, t)));
}

export const MIN_FIELD_SCORE = 25;

export interface FieldAssignment {
  key: string;
  field: ScannedField;
  score: number;
}

/**
 * Assigns each additional-field key to at most one field (and each field to at most one key),
 * best matches first. Radio options are matched by group name or label; the caller picks the
 * option whose value/label equals the requested value.
 */
export function matchAdditionalFields(keys: string[], fields: ScannedField[]): FieldAssignment[] {
  const pairs: FieldAssignment[] = [];
  for (const key of keys) {
    for (const field of fields) {
      const score = fieldScore(key, field);
      if (score >= MIN_FIELD_SCORE) pairs.push({ key, field, score });
    }
  }
  pairs.sort((a, b) => b.score - a.score);
  const usedKeys = new Set<string>();
  const usedFields = new Set<string>();
  const out: FieldAssignment[] = [];
  for (const p of pairs) {
    const fieldKey = p.field.kind === 'radio' ? `radio:${p.field.name || p.field.id}` : p.field.id;
    if (usedKeys.has(p.key) || usedFields.has(fieldKey)) continue;
    usedKeys.add(p.key);
    usedFields.add(fieldKey);
    out.push(p);
  }
  return out;
}

/** 'true'/'on'/'1'/'yes' -> true, 'false'/'off'/'0'/'no' -> false, otherwise undefined. */
export function parseCheckboxValue(v: string): boolean | undefined {
  const s = v.trim().toLowerCase();
  if (['true', 'on', '1', 'yes', 'checked', 'y'].includes(s)) return true;
  if (['false', 'off', '0', 'no', 'unchecked', 'n', ''].includes(s)) return false;
  return undefined;
}
