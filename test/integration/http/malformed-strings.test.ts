/**
 * Puts each malformed string ("", "not a url", "http://", NUL, a lone surrogate, 100,000 characters) into every
 * string field of every route of the route table (API_ROUTES): top-level body fields, the fields of objects nested
 * one level down (cred.username, imap.host), arrays of strings (as their one element), and every query field.
 * A schema must answer each with a result, never a throw (a throw inside a refinement is a 500), and bound every
 * string's length; the server must answer below 500, in the route's documented error body, and a 4xx whenever the
 * field's own schema refuses the value. fuzz-api.test.ts covers wrong types, bad JSON and broken HTTP; this file
 * covers well-formed JSON whose strings are wrong. Bounded: ~900 sequential requests to 127.0.0.1 (~10 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_ROUTES, type ApiRoute, type ApiRouteName } from '../../../src/shared/api/index.js';
import { errorShapeProblem } from '../../helpers/error-shape.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  encodeQueryValue,
  literalFields,
  objectVariants,
  stringFields,
  unwrap,
  withValue,
  type StringField,
} from '../../helpers/zod-fields.js';

const MALFORMED: readonly [label: string, value: string][] = [
  ['empty', ''],
  ['not a url', 'not a url'],
  ['scheme only', 'http://'],
  ['NUL', 'a\u0000b'],
  ['lone surrogate', '\ud800'],
  ['100,000 characters', 'x'.repeat(100_000)],
];
const LONG = MALFORMED[MALFORMED.length - 1]![1];

const TEMPLATE = { title: 'Malformed strings', category: 'text-to-video', input_variables: [] };

/**
 * Bodies that pass validation as they are, so the malformed field is the one that decides. Logins, refreshes and
 * sign-ups name a saved login that does not exist: one that got past validation stops at a 404 before any browser
 * starts (each route runs in an organization of its own, so no saved login made by another route can match).
 */
const BODIES: Partial<Record<ApiRouteName, Record<string, unknown> | ((n: number) => Record<string, unknown>)>> = {
  login: { credential: 'cred_none' },
  refresh: { credential: 'cred_none' },
  signup: { credential: 'cred_none' },
  deliverToInbox: { to: 'ada@example.com', text: 'code 123456' },
  typeLoginCode: { code: '123456' },
  createMailbox: {
    addresses: ['ada@example.com'],
    imap: { host: '127.0.0.1', port: 9, username: 'ada', password: 'pw' },
  },
  // A label of its own per request (labels are unique), so an accepted value is stored rather than refused as taken.
  createCredential: (n) => ({ label: `Example ${n}`, loginUrl: 'https://example.com/login', password: 'pw' }),
  importCredentials: { format: 'chrome', content: 'name,url,username,password\n' },
  importSessions: { profile: 'bp_none', sites: ['https://example.com'] },
  setLoginWebhook: { url: 'https://example.com/hook' },
  createTemplate: TEMPLATE,
  replaceTemplate: TEMPLATE,
  quoteGeneration: { prompt: 'a cat', modelName: 'studio-v1' },
  createGeneration: { prompt: 'a cat', modelName: 'studio-v1' },
  presignUpload: { kind: 'upload', contentType: 'image/png' },
  createCharacter: { name: 'Ada', reference_image_keys: ['uploads/none/a.png'] },
};

// generate and quoteTemplate read their own body (JSON or multipart, rawBody): their schema is checked below, but
// the server test leaves their bodies to fuzz-api.test.ts and the generate tests, which speak both encodings.
const serverSendsBody = (route: ApiRoute) => !!route.body && !route.rawBody;

/** The route's valid body; `n` tells requests apart where a field must be unique. */
function baseBody(name: ApiRouteName, n = 0): Record<string, unknown> | undefined {
  const body = BODIES[name];
  return typeof body === 'function' ? body(n) : body;
}

interface Target {
  part: 'body' | 'query';
  schema: z.ZodType;
  base: Record<string, unknown>;
  field: StringField;
}

/** Every (part, variant, field) of a route a malformed string can go into. */
function targetsOf(name: ApiRouteName): Target[] {
  const route: ApiRoute = API_ROUTES[name];
  const out: Target[] = [];
  for (const part of ['body', 'query'] as const) {
    const schema = route[part];
    if (!schema) continue;
    for (const variant of objectVariants(schema)) {
      const base = { ...(part === 'body' ? baseBody(name) : {}), ...literalFields(variant) };
      // A query carries nothing but strings: every field of it gets them, whatever it parses them into.
      const fields =
        part === 'query'
          ? Object.entries(variant.shape).map(([key, s]) => ({ path: [key], schema: s, array: false }))
          : stringFields(variant);
      for (const field of fields) out.push({ part, schema, base, field });
    }
  }
  return out;
}

const fieldValue = (field: StringField, value: string) => (field.array ? [value] : value);
const describeField = (name: string, t: Target, label: string) =>
  `${name} ${t.part}.${t.field.path.join('.')}${t.field.array ? '[]' : ''} = ${label}`;

/** The longest string a field's schema takes (its `.max()`), or Infinity when nothing bounds it. */
function maxLength(field: StringField): number {
  let s = unwrap(field.schema);
  if (field.array) s = unwrap((s._zod.def as unknown as { element: z.ZodType }).element);
  return (s as Partial<z.ZodString>).maxLength ?? Infinity;
}

const ROUTE_NAMES = Object.keys(API_ROUTES) as ApiRouteName[];

describe('the route schemas with malformed strings', () => {
  it('answer every malformed string with a result (never a throw) and bound every string field', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const name of ROUTE_NAMES) {
      for (const t of targetsOf(name)) {
        for (const [label, value] of MALFORMED) {
          const v = fieldValue(t.field, value);
          checked++;
          let fieldResult;
          try {
            fieldResult = t.field.schema.safeParse(v);
            t.schema.safeParse(withValue(t.base, t.field.path, v));
          } catch (err) {
            problems.push(`${describeField(name, t, label)}: throws ${(err as Error).message}`);
            continue;
          }
          // A string no schema bounds reaches the services whole (a 100 kB label, a 1 MB login method).
          if (value === LONG && fieldResult.success && maxLength(t.field) === Infinity)
            problems.push(`${describeField(name, t, label)}: accepted, and the field has no max length`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(900);
  });
});

describe('the server with malformed strings in every string field', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      server: { rateLimit: { perKeyPerSecond: 100_000, perKeyBurst: 100_000, unauthenticatedPerMinute: 100_000 } },
    });
  });
  afterAll(() => t?.close());

  /** Ids that reach a route's handler: a saved login or a template of the route's own organization, else none. */
  async function pathFor(name: ApiRouteName, key: string): Promise<string> {
    const route: ApiRoute = API_ROUTES[name];
    let id = 'no-such-id';
    if (name === 'updateCredential') {
      const res = await t.request('/api/credentials', { method: 'POST', key, json: baseBody('createCredential') });
      expect(res.status).toBe(201);
      id = ((await res.json()) as { id: string }).id;
    } else if (name === 'updateTemplate' || name === 'replaceTemplate') {
      const res = await t.request('/api/templates', { method: 'POST', key, json: TEMPLATE });
      expect(res.status).toBe(200);
      id = ((await res.json()) as { id: string }).id;
    }
    return route.path.replace(/:\w+/g, id).replace(/\*$/, 'org_none/file.png');
  }

  it('answers below 500 in the documented error body, and 4xx where the field refuses the value', async () => {
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const name of ROUTE_NAMES) {
      const route: ApiRoute = API_ROUTES[name];
      const targets = targetsOf(name).filter((x) => x.part === 'query' || serverSendsBody(route));
      if (!targets.length) continue;
      // An organization per route: what one route stores (a saved login named "not a url") never reaches another.
      const { key } = t.newOrg(`malformed-${name}`);
      const path = await pathFor(name, key);
      for (const target of targets) {
        for (const [label, value] of MALFORMED) {
          const v = fieldValue(target.field, value);
          const where = describeField(name, target, label);
          const query = target.part === 'query' ? `?${target.field.path[0]}=${encodeQueryValue(value)}` : '';
          const fresh = baseBody(name, sent + 1);
          const body = target.part === 'body' ? withValue({ ...target.base, ...fresh }, target.field.path, v) : fresh;
          const res = await t.request(path + query, {
            method: route.method,
            key,
            ...(serverSendsBody(route) ? { json: body ?? {} } : {}),
          });
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const text = await res.text();
          if (res.status >= 500) {
            problems.push(`${where}: ${res.status} ${text.slice(0, 200)}`);
            continue;
          }
          // The field's own schema refuses the value: so must the server (a query's lone surrogate arrives as
          // replacement characters, another string, so only body fields are held to this).
          if (target.part === 'body' && res.status < 400 && !target.field.schema.safeParse(v).success)
            problems.push(`${where}: ${res.status}, but the field refuses the value`);
          if (res.status < 400) continue;
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON: errorShapeProblem says so */
          }
          const problem = errorShapeProblem(parsed, route.api);
          if (problem) problems.push(`${where}: ${res.status} ${problem}`);
        }
      }
    }
    const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`malformed strings: ${sent} requests; statuses ${counts.join(', ')}`);
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(800);
  }, 300_000);
});
