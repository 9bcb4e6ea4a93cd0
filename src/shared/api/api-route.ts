// The shape of one operation of the local HTTP API, as the route table (./index.ts) declares it. Everything
// that speaks the API reads these entries: the server registers its handlers against them, the OpenAPI
// document is rendered from them, the typed client, the MCP tools and the window's IPC channels call through
// them. Pure data + zod, so the client package and the renderer can import it.
import type { z } from 'zod';
import type { ErrorShape } from '../errors.js';
import type { RequiredScope } from '../scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One documented answer of a route. The lowest 2xx status is the route's success answer. */
export interface RouteResponse {
  description: string;
  /** The JSON body (success answers); error answers have the route's documented error body. */
  schema?: z.ZodType;
  /** Answer headers, by name, with what they say. */
  headers?: Record<string, string>;
}

export interface ApiRoute {
  method: HttpMethod;
  /** Fastify-style path: `:name` parameters, a trailing `*` for a storage key that may hold slashes. */
  path: string;
  /** Extra paths answering the same handler (e.g. POST /login for POST /api/login). */
  aliases?: readonly string[];
  /** Which documented error body the route renders. */
  api: ErrorShape;
  /** Required scope, or a list meaning all of them; `null` means no API key is needed (unless `keyOnly`). */
  scope: RequiredScope | null;
  /** A valid key is needed but no scope (the MCP endpoint: each tool checks its own route's scope). */
  keyOnly?: boolean;
  summary: string;
  description?: string;
  tags: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  /** The JSON body; on `rawBody` routes it documents (and the handler parses) what the route reads itself. */
  body?: z.ZodType;
  /** Request headers the route reads (lower-case names); the window passes them as `headers`. */
  headers?: z.ZodObject;
  /** Answer headers a caller may read back (lower-case names), parsed with this schema. */
  answerHeaders?: z.ZodObject;
  responses: Readonly<Record<number, RouteResponse>>;
  bodyLimit?: number;
  /** The route reads its own body stream (uploads, multipart). */
  rawBody?: boolean;
  /** Request content types documented for the body (default application/json). */
  contentTypes?: readonly string[];
  /** Not listed in the OpenAPI document (the document itself, the MCP transport). */
  undocumented?: boolean;
}

/** Keeps each entry's literal types (its schemas, its statuses) while checking it is an ApiRoute. */
export const defineApiRoutes = <const T extends Record<string, ApiRoute>>(routes: T): T => routes;

type SuccessStatus = 200 | 201 | 202 | 204;

/** The success status of a route: its lowest documented 2xx. */
export function successStatus(route: ApiRoute): SuccessStatus {
  const status = Object.keys(route.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b)[0];
  if (!status) throw new Error(`${route.method} ${route.path} documents no success answer`);
  return status as SuccessStatus;
}

/** The schema of a route's success body (undefined for a 204 or a file). */
export function successSchema(route: ApiRoute): z.ZodType | undefined {
  return route.responses[successStatus(route)]?.schema;
}

/** Type of a route's success body: the schema of its 200, 201 or 202 answer; `void` when there is none. */
export type SuccessBody<R> = R extends { responses: infer Rs }
  ? Rs extends { 200: { schema: infer S extends z.ZodType } }
    ? z.output<S>
    : Rs extends { 201: { schema: infer S extends z.ZodType } }
      ? z.output<S>
      : Rs extends { 202: { schema: infer S extends z.ZodType } }
        ? z.output<S>
        : void
  : void;

type Input<R, K extends string> = R extends { [P in K]: infer S extends z.ZodType } ? z.input<S> : undefined;
/** Parsed parts of a request to a route, as its handler receives them. */
type Output<R, K extends string> = R extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/** What a caller sends: the input types of the route's params, query, body and headers. */
export interface RouteCallInput<R> {
  params: Input<R, 'params'>;
  query: Input<R, 'query'>;
  body: Input<R, 'body'>;
  headers: Input<R, 'headers'>;
}

/** What a handler receives: the parsed (output) types of the route's params, query and body. */
export interface RouteParsedInput<R> {
  params: Output<R, 'params'>;
  query: Output<R, 'query'>;
  body: Output<R, 'body'>;
}

/** Parts of a call: only the ones the route takes; params and body required when it has them. */
export type RouteCallParts<R> = ([Input<R, 'params'>] extends [undefined] ? unknown : { params: Input<R, 'params'> }) &
  ([Input<R, 'query'>] extends [undefined] ? unknown : { query?: Input<R, 'query'> }) &
  ([Input<R, 'body'>] extends [undefined] ? unknown : { body: Input<R, 'body'> }) &
  ([Input<R, 'headers'>] extends [undefined] ? unknown : { headers?: Input<R, 'headers'> });

/**
 * One path segment, percent-encoded. encodeURIComponent throws on a lone surrogate (it has no UTF-8 form): it becomes
 * U+FFFD first, as URLSearchParams does for the query, so a caller's odd id is the server's 404, never a throw here.
 */
const encodeSegment = (value: string): string => encodeURIComponent(value.replace(/\p{Surrogate}/gu, '\ufffd'));

/**
 * The route's path with its parameters filled in (each percent-encoded as one segment) and the query string
 * (undefined and null values left out). A missing parameter is a programming error and throws.
 */
export function routeUrl(route: Pick<ApiRoute, 'path'>, parts: { params?: unknown; query?: unknown } = {}): string {
  const params = (parts.params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/:(\w+)|\*$/g, (match, name: string | undefined) => {
    const value = params[name ?? 'key'];
    if (value === undefined || value === null) throw new Error(`${route.path} needs the path parameter ${match}`);
    return name ? encodeSegment(String(value)) : String(value).split('/').map(encodeSegment).join('/');
  });
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries((parts.query ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null) query.set(k, String(v));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
