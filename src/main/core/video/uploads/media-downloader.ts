import type { Readable } from 'node:stream';
import got, { HTTPError, MaxRedirectsError, RequestError, TimeoutError } from 'got';
import { APP_VERSION } from '../../../../shared/version.js';
import { AppError, badRequest } from '../../errors.js';
import { formatBytes, KIND_ARTICLE, type MediaKind } from './media-types.js';

export interface DownloadOptions {
  /** Total time limit of the request, body included. */
  timeoutMs: number;
  maxRedirects: number;
}

export interface Download {
  stream: Readable;
  /** The last path segment of the URL, for the storage key's name. */
  fileName: string | undefined;
  /** The first AppError raised while downloading (e.g. Content-Length over the limit), if any. */
  rejection(): AppError | null;
}

/**
 * Starts an HTTP(S) GET of media with got: only http/https (redirects included), at most
 * maxRedirects redirects, no retries, one total time limit, and an early refusal when the
 * Content-Length already exceeds maxBytes. The caller counts bytes as they stream.
 *
 * Loopback and private addresses are allowed on purpose: this is a local tool whose callers are
 * processes on the same machine, and they (and the tests) host media on 127.0.0.1.
 */
export function startDownload(value: string, kind: MediaKind, maxBytes: number, opts: DownloadOptions): Download {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`The ${kind} URL is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest(`Only http and https URLs are accepted for ${KIND_ARTICLE[kind]}.`);
  let rejection: AppError | null = null;
  const stream = got.stream(url, {
    timeout: { request: opts.timeoutMs },
    maxRedirects: opts.maxRedirects,
    followRedirect: true,
    retry: { limit: 0 },
    headers: { 'user-agent': `AgentStudio/${APP_VERSION}`, accept: `${kind}/*, */*;q=0.5` },
  });
  stream.once('response', (res: { headers: Record<string, string | string[] | undefined> }) => {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      rejection = tooLargeDownload(kind, maxBytes);
      stream.destroy(rejection);
    }
  });
  let fileName: string | undefined;
  try {
    fileName = decodeURIComponent(url.pathname.split('/').pop() ?? '') || undefined;
  } catch {
    fileName = undefined;
  }
  return { stream, fileName, rejection: () => rejection };
}

export const tooLargeDownload = (kind: MediaKind, maxBytes: number) =>
  badRequest(`The ${kind} is larger than the ${formatBytes(maxBytes)} allowed for ${kind} files.`);

/** Turns a download failure into a 400 with the reason (never the URL: it may carry tokens). */
export function mapDownloadError(err: unknown, kind: MediaKind, opts: DownloadOptions): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof RequestError && err.cause instanceof AppError) return err.cause;
  const prefix = `Could not download the ${kind} URL:`;
  if (err instanceof HTTPError) return badRequest(`${prefix} the server answered HTTP ${err.response.statusCode}.`);
  if (err instanceof MaxRedirectsError)
    return badRequest(`${prefix} it redirected more than ${opts.maxRedirects} times.`);
  if (err instanceof TimeoutError)
    return badRequest(`${prefix} the download took longer than ${opts.timeoutMs / 1000} s.`);
  if (err instanceof RequestError) {
    const reason = err.code && err.code !== 'ERR_GOT_REQUEST_ERROR' ? err.code : err.message;
    return badRequest(`${prefix} ${reason}.`);
  }
  return err;
}
