// The OpenAPI 3.1 document of the local API, rendered from the route table (src/shared/api) and the same zod
// schemas the routes parse with.
import { z } from 'zod';
import { API_ROUTES, type ApiRoute } from '../../../shared/api/index.js';
import { requiredScopes } from '../../../shared/scopes.js';

type AnySpec = ApiRoute;

const LoginErrorBody = z.object({
  error: z.string().describe('UPPER_CASE code, e.g. AUTHENTICATION_FAILED'),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});
const VideoErrorBody = z.object({
  error: z.string().describe('lower_case code, e.g. validation_error'),
  message: z.string(),
});

/**
 * JSON Schema of a zod schema. Named schemas (`.meta({ id })`) are hoisted into `components`
 * (input and output variants can differ, so inputs get an `Input` suffix) and referenced.
 */
function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components?: Record<string, unknown>,
): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, unknown>;
  delete out.$defs;
  const suffix = io === 'input' ? 'Input' : '';
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, val]) => [
          k,
          k === '$ref' && typeof val === 'string'
            ? val.replace('#/$defs/', '#/components/schemas/').concat(suffix)
            : rewrite(val),
        ]),
      );
    }
    return v;
  };
  for (const [name, def] of Object.entries(defs)) if (components) components[name + suffix] = rewrite(def);
  return rewrite(out) as Record<string, unknown>;
}

/** Renders (once) the OpenAPI document of every documented entry of the route table. */
export class OpenApiDocument {
  private readonly routes: AnySpec[] = Object.values(API_ROUTES).filter((r: ApiRoute) => !r.undocumented);
  private cached: Record<string, unknown> | null = null;
  private components: Record<string, unknown> = {};

  /**
   * The document, rendered once; `servers` names the address this request reached (the API reference page calls the
   * API there: the same origin as the page, whichever of 127.0.0.1, localhost or [::1] the person opened).
   */
  document(info: { version: string; serverUrl?: string }): Record<string, unknown> {
    const doc = this.rendered(info.version);
    // Listed in the usual order: openapi, info, servers, then the rest.
    return {
      openapi: doc.openapi,
      info: doc.info,
      servers: [{ url: info.serverUrl ?? 'http://127.0.0.1:4780' }],
      ...doc,
    };
  }

  private rendered(version: string): Record<string, unknown> {
    if (this.cached) return this.cached;
    this.components = {};
    const paths: Record<string, Record<string, unknown>> = {};
    for (const spec of this.routes) {
      for (const url of [spec.path, ...(spec.aliases ?? [])]) {
        const path = url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{key}');
        paths[path] ??= {};
        paths[path][spec.method.toLowerCase()] = this.operation(spec, url !== spec.path);
      }
    }
    this.cached = {
      openapi: '3.1.0',
      info: {
        title: 'Agent Studio local API',
        version,
        description:
          'Local implementations of the login service and the video service. Login-service routes answer errors as ' +
          '{ error: "UPPER_CODE", message, details }; video-service routes as { error: "lower_code", message }. ' +
          'Every response to an authenticated request carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; ' +
          'a 429 also carries Retry-After (seconds).',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key: pk_ followed by 40 base62 characters' },
        },
        schemas: {
          ...this.components,
          LoginError: jsonSchema(LoginErrorBody, 'output'),
          VideoError: jsonSchema(VideoErrorBody, 'output'),
        },
      },
      paths,
    };
    return this.cached;
  }

  private operation(spec: AnySpec, isAlias: boolean): Record<string, unknown> {
    const parameters: unknown[] = [];
    if (spec.path.endsWith('*')) {
      parameters.push({
        name: 'key',
        in: 'path',
        required: true,
        description: 'The storage key (may contain slashes)',
        schema: { type: 'string' },
      });
    }
    // Request headers too, from the same schemas the server checks them with (the Idempotency-Key's pattern).
    for (const [where, schema] of [
      ['path', spec.params],
      ['query', spec.query],
      ['header', spec.headers],
    ] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema, 'input', this.components) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, s] of Object.entries(js.properties ?? {})) {
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (js.required ?? []).includes(name),
          schema: s,
        });
      }
    }
    const errorRef = {
      $ref: spec.api === 'login' ? '#/components/schemas/LoginError' : '#/components/schemas/VideoError',
    };
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(spec.responses)) {
      const isError = Number(status) >= 400;
      const schema = r.schema ? jsonSchema(r.schema, 'output', this.components) : isError ? errorRef : undefined;
      responses[status] = {
        description: r.description,
        ...(schema ? { content: { 'application/json': { schema } } } : {}),
        ...(r.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
              ),
            }
          : {}),
      };
    }
    if (spec.scope) {
      responses['401'] ??= {
        description: 'Missing, invalid, expired or revoked API key',
        content: { 'application/json': { schema: errorRef } },
      };
      responses['403'] ??= {
        description: `Key lacks the scope ${requiredScopes(spec.scope).join(' or ')}`,
        content: { 'application/json': { schema: errorRef } },
      };
      responses['429'] ??= {
        description: 'Rate limit exceeded; see Retry-After',
        content: { 'application/json': { schema: errorRef } },
      };
    }
    // Every error of the route, listed above or not (malformed request, oversized headers...), has this body.
    responses.default = { description: 'Any error', content: { 'application/json': { schema: errorRef } } };
    return {
      summary: spec.summary + (isAlias ? ' (alias)' : ''),
      ...(spec.description ? { description: spec.description } : {}),
      tags: spec.tags,
      operationId: `${spec.method.toLowerCase()}${(isAlias ? spec.aliases?.[0] : spec.path)?.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      // One scope as a string; a route that needs several lists them all (each one is required).
      ...(spec.scope ? { security: [{ bearer: [] }], 'x-required-scope': spec.scope } : { security: [] }),
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                (spec.contentTypes ?? ['application/json']).map((ct) => [
                  ct,
                  { schema: jsonSchema(spec.body as z.ZodType, 'input', this.components) },
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
}
