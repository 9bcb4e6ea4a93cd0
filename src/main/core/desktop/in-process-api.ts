// The desktop UI's way into the core: requests to the same Fastify app that serves agents, made in
// process (app.inject) with the desktop API key. So the UI gets exactly the HTTP API's validation,
// scopes, rate limits and error bodies. Plain Node: never imports electron.
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { HttpMethod } from '../../../shared/ipc-contract.js';

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

/** The core's HTTP API as the desktop IPC layer uses it (in process here; over HTTP in the e2e bridge). */
export interface CoreApi {
  request(req: ApiRequest): Promise<ApiAnswer>;
  /** Whether an absolute URL the API answered (a presigned upload URL) is served by this same API. */
  serves(url: URL): boolean;
}

export interface InProcessApiOptions {
  app: FastifyInstance;
  /** The desktop API key (desktop-key.ts); sent as the bearer token of every request. */
  key: string;
  /**
   * Host header of the requests: `127.0.0.1:<port>` when the API listens, so the URLs the service
   * builds from it (upload and video URLs) point at the real server.
   */
  host?: string;
}

export function createInProcessApi(opts: InProcessApiOptions): CoreApi {
  const host = opts.host ?? '127.0.0.1';
  return {
    async request(req) {
      const res = await opts.app.inject({
        method: req.method,
        url: req.url,
        headers: { ...req.headers, authorization: `Bearer ${opts.key}`, host },
        payload: req.body,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    },
    serves: (url) => url.protocol === 'http:' && url.host === host,
  };
}
