// Introspection of the route table's zod (v4) schemas: which fields of a body or query take a string, so a test can
// put a malformed string into each of them. Reads `_zod.def` (zod 4's public definition of a schema), never a value.
import type { z } from 'zod';

/** The parts of a zod 4 definition this walker reads (each schema kind has a few of them). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const def = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

/** Wrappers whose input is their inner schema's (a transform's pipe reads what its `in` side reads). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The schema under optional/nullable/default/... wrappers, transform pipes and lazies: what the input must be. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let depth = 0; depth < 32; depth++) {
    const d = def(s);
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else if (d.type === 'lazy' && d.getter) s = d.getter();
    else return s;
  }
  return s;
}

/** Whether the schema's input may be a JSON string (a string, a string enum or literal, a union with one). */
export function takesString(schema: z.ZodType): boolean {
  const d = def(unwrap(schema));
  switch (d.type) {
    case 'string':
    case 'template_literal':
      return true;
    case 'enum':
      return Object.values(d.entries ?? {}).some((v) => typeof v === 'string');
    case 'literal':
      return (d.values ?? []).some((v) => typeof v === 'string');
    case 'union':
      return (d.options ?? []).some(takesString);
    default:
      return false;
  }
}

/** The object schemas a body may be: the object itself, or each object option of a (discriminated) union. */
export function objectVariants(schema: z.ZodType): z.ZodObject[] {
  const u = unwrap(schema);
  const d = def(u);
  if (d.type === 'object') return [u as z.ZodObject];
  if (d.type === 'union') return (d.options ?? []).flatMap(objectVariants);
  return [];
}

/** The literal fields of an object (a discriminated union's tag): the body needs them to reach its option. */
export function literalFields(obj: z.ZodObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(obj.shape)) {
    const d = def(unwrap(field));
    if (d.type === 'literal' && d.values?.length === 1) out[name] = d.values[0];
  }
  return out;
}

/** A field a string can be put into: its path, its own schema, and whether it is an array of strings. */
export interface StringField {
  path: string[];
  schema: z.ZodType;
  /** An array of strings: the malformed string goes in as its one element. */
  array: boolean;
}

/** The string fields of an object, and of the objects nested in it up to `depth` levels (cred.username…). */
export function stringFields(obj: z.ZodObject, depth = 1, prefix: string[] = []): StringField[] {
  return Object.entries(obj.shape).flatMap(([name, field]): StringField[] => {
    const path = [...prefix, name];
    if (takesString(field)) return [{ path, schema: field, array: false }];
    const u = unwrap(field);
    const d = def(u);
    if (d.type === 'array' && d.element && takesString(d.element)) return [{ path, schema: field, array: true }];
    if (d.type === 'object' && depth > 0) return stringFields(u as z.ZodObject, depth - 1, path);
    return [];
  });
}

/** A copy of `base` with `value` at `path` (objects on the way are made as needed). */
export function withValue(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let at = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    at = at[key] = next && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
  }
  at[path[path.length - 1]!] = value;
  return copy;
}

/**
 * A query value as the URL carries it. A lone surrogate has no UTF-8 form (encodeURIComponent throws on it), so it
 * goes as the three bytes a careless encoder would write (WTF-8): the server must refuse or replace them.
 */
export function encodeQueryValue(value: string): string {
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const bytes = [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}
