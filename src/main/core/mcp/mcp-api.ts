// The MCP tools' only way into the core: the local HTTP API's own routes, called in process with the caller's key.
import type { FastifyInstance } from 'fastify';

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON body (null for an empty body, e.g. a 204). */
  body: unknown;
}

/** A 4xx/5xx answer of the API, carrying its documented `error` code and `message` (never a secret). */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  headers?: Record<string, string>;
}

export interface LocalApi {
  /** The answer's JSON; a 4xx/5xx answer throws ApiCallError with the API's code and message. */
  call(req: ApiRequest): Promise<ApiAnswer>;
}

export interface LocalApiOptions {
  app: FastifyInstance;
  /** The caller's API key: every route checks its own scope against it, as over HTTP. */
  apiKey: string;
  /**
   * Host header of the calls (loopback, or the host guard refuses them). Presigned URLs are built from it, so it
   * names the address the server really listens on.
   */
  host: string;
}

function queryString(query: ApiRequest['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function errorOf(status: number, body: unknown): ApiCallError {
  const shaped = body && typeof body === 'object' ? (body as { error?: unknown; message?: unknown }) : {};
  const code = typeof shaped.error === 'string' ? shaped.error : `http_${status}`;
  const message = typeof shaped.message === 'string' ? shaped.message : `The API answered ${status}.`;
  return new ApiCallError(status, code, message);
}

/**
 * Calls the routes through Fastify's `inject`: host guard, Bearer key, scopes, zod validation, rate limits and
 * error shapes are exactly the HTTP API's, and no service is implemented twice.
 */
export function createLocalApi(opts: LocalApiOptions): LocalApi {
  return {
    async call(req) {
      const headers: Record<string, string> = {
        ...req.headers,
        host: opts.host,
        authorization: `Bearer ${opts.apiKey}`,
      };
      if (req.json !== undefined) headers['content-type'] = 'application/json';
      const res = await opts.app.inject({
        method: req.method,
        url: req.url + queryString(req.query),
        headers,
        payload: req.json === undefined ? undefined : JSON.stringify(req.json),
      });
      let body: unknown = null;
      if (res.body) {
        try {
          body = JSON.parse(res.body);
        } catch {
          body = null;
        }
      }
      if (res.statusCode >= 400) throw errorOf(res.statusCode, body);
      return { status: res.statusCode, headers: res.headers, body };
    },
  };
}
