// The one in-process caller of the core's HTTP API: the desktop window's IPC and the MCP tools make their requests
// to the same Fastify app that serves agents (app.inject) with their API key, so they get exactly the HTTP API's
// host guard, scopes, validation, rate limits and error bodies, and no service is called twice. Routes are called
// by their name in the route table (src/shared/api), never by a hand-written path. Plain Node: never imports
// electron.
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  API_ROUTES,
  routeUrl,
  successSchema,
  type ApiRoute,
  type ApiRouteName,
  type ApiRoutes,
  type HttpMethod,
  type RouteCallParts,
  type SuccessBody,
} from '../../../shared/api/index.js';
import { zodMessage } from './route.js';

export interface ApiRequest {
  method: HttpMethod;
  /** Path and query string, e.g. `/api/templates?limit=10`. */
  url: string;
  headers?: Record<string, string>;
  body?: string | Readable;
}

export interface ApiAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The core's HTTP API as its in-process callers use it (in process here; over HTTP in the e2e bridge). */
export interface CoreApi {
  request(req: ApiRequest): Promise<ApiAnswer>;
  /** Whether an absolute URL the API answered (a presigned upload URL) is served by this same API. */
  serves(url: URL): boolean;
}

export interface InProcessApiOptions {
  app: FastifyInstance;
  /** The caller's API key, sent as the bearer token of every request: each route checks its own scope. */
  key: string;
  /**
   * Host header of the requests (loopback, or the host guard refuses them): `127.0.0.1:<port>` when the API
   * listens, so the URLs the service builds from it (upload and video URLs) point at the real server. A function
   * is asked before each request (the stdio MCP server: the running server of its data dir, when there is one).
   */
  host?: string | (() => Promise<string>);
}

export function createInProcessApi(opts: InProcessApiOptions): CoreApi {
  const given = opts.host ?? '127.0.0.1';
  /** The Host of the latest request: what `serves` compares with. */
  let host = typeof given === 'string' ? given : '127.0.0.1';
  return {
    async request(req) {
      const now = typeof given === 'function' ? await given() : given;
      host = now;
      const res = await opts.app.inject({
        method: req.method,
        url: req.url,
        headers: { ...req.headers, authorization: `Bearer ${opts.key}`, host: now },
        payload: req.body,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    },
    serves: (url) => url.protocol === 'http:' && url.host === host,
  };
}

/** The success answer of a route: its body parsed with the table's schema (null for a 204), and its answer headers. */
export interface RouteSuccess<N extends ApiRouteName> {
  ok: true;
  status: number;
  body: SuccessBody<ApiRoutes[N]>;
  /** The route's declared answer headers (answerHeaders), parsed; empty when it declares none. */
  headers: Record<string, string>;
}

/** A refusal of the API (its documented `error` code, message and details), or an answer of the wrong shape. */
export interface RouteFailure {
  ok: false;
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Either API's error body: login `{ error: "UPPER_CODE", message, details }`, video `{ error, message }`. */
const ApiErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: text ? JSON.parse(text) : undefined };
  } catch {
    return { ok: false };
  }
}

const headerValue = (v: ApiAnswer['headers'][string]) => (Array.isArray(v) ? v[0] : v === undefined ? v : String(v));

/** What the route's answer means: its success body and headers parsed with the table's schemas, or a failure. */
export function readRouteAnswer(route: ApiRoute, res: ApiAnswer): RouteSuccess<ApiRouteName> | RouteFailure {
  const what = `${route.method} ${route.path}`;
  const body = parseJson(res.body);
  if (res.status < 200 || res.status >= 300) {
    const err = body.ok ? ApiErrorBody.safeParse(body.value) : null;
    if (err?.success) {
      const { error: code, message, details } = err.data;
      return { ok: false, status: res.status, code, message, ...(details ? { details } : {}) };
    }
    return {
      ok: false,
      status: res.status,
      code: `http_${res.status}`,
      message: `The local service answered ${res.status} to ${what}.`,
    };
  }
  const unexpected = (detail: string): RouteFailure => ({
    ok: false,
    status: res.status,
    code: 'invalid_response',
    message: `The local service answered ${what} with an unexpected body: ${detail}`,
  });
  const schema = successSchema(route);
  let value: unknown = null;
  if (schema) {
    if (!body.ok) return unexpected('not JSON');
    const parsed = schema.safeParse(body.value);
    if (!parsed.success) return unexpected(zodMessage(parsed.error, 'body'));
    value = parsed.data;
  }
  let headers: Record<string, string> = {};
  if (route.answerHeaders) {
    const named = Object.fromEntries(
      Object.keys(route.answerHeaders.shape).map((h) => [h, headerValue(res.headers[h])]),
    );
    const parsed = route.answerHeaders.safeParse(named);
    if (!parsed.success) return unexpected(zodMessage(parsed.error, 'headers'));
    headers = parsed.data as Record<string, string>;
  }
  return { ok: true, status: res.status, body: value as never, headers };
}

/** The request for a call of a route: its URL from the table, the JSON body, the headers the route declares. */
export function routeRequest(
  route: ApiRoute,
  parts: { params?: unknown; query?: unknown; body?: unknown; headers?: unknown },
): ApiRequest {
  const headers: Record<string, string> = { ...(route.headers ? (parts.headers as Record<string, string>) : {}) };
  const hasBody = route.body !== undefined && parts.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  return {
    method: route.method,
    url: routeUrl(route, parts),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(hasBody ? { body: JSON.stringify(parts.body) } : {}),
  };
}

/** Calls a route by its name in the table; never throws for an answer of the API (a failure is a value). */
export async function sendRoute<N extends ApiRouteName>(
  api: CoreApi,
  name: N,
  ...[parts]: Record<never, never> extends RouteCallParts<ApiRoutes[N]>
    ? [parts?: RouteCallParts<ApiRoutes[N]>]
    : [parts: RouteCallParts<ApiRoutes[N]>]
): Promise<RouteSuccess<N> | RouteFailure> {
  const route: ApiRoute = API_ROUTES[name];
  const res = await api.request(routeRequest(route, (parts ?? {}) as object));
  return readRouteAnswer(route, res) as RouteSuccess<N> | RouteFailure;
}

/** A 4xx/5xx answer of the API, carrying its documented `error` code and `message` (never a secret). */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

/** sendRoute for callers that throw: the success answer, or an ApiCallError with the API's code and message. */
export async function callRoute<N extends ApiRouteName>(
  api: CoreApi,
  name: N,
  ...args: Record<never, never> extends RouteCallParts<ApiRoutes[N]>
    ? [parts?: RouteCallParts<ApiRoutes[N]>]
    : [parts: RouteCallParts<ApiRoutes[N]>]
): Promise<RouteSuccess<N>> {
  const answer = await sendRoute(api, name, ...args);
  if (!answer.ok) throw new ApiCallError(answer.status, answer.code, answer.message, answer.details);
  return answer;
}
