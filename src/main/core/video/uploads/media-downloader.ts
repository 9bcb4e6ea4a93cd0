import type { Readable } from 'node:stream';
import type { RequestError } from 'got';
import { APP_VERSION } from '../../../../shared/version.js';
import { AppError, badRequest } from '../../errors.js';
import { httpGuard, loadGot } from '../../net/outbound-http.js';
import { OutboundPolicy, outboundRefusal } from '../../net/outbound-policy.js';
import { formatBytes, KIND_ARTICLE, type MediaKind } from '../../../../shared/media-types.js';

export interface DownloadOptions {
  /** Total time limit of the request, body included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Where the URL (and every redirect) may lead; default: the default policy (private-ok). */
  outbound?: OutboundPolicy;
}

export interface Download {
  stream: Readable;
  /** The last path segment of the URL, for the storage key's name. */
  fileName: string | undefined;
  /** The first AppError raised while downloading (e.g. Content-Length over the limit), if any. */
  rejection(): AppError | null;
  /** Every address connected to was public: only then may a failure be described (see mapDownloadError). */
  onlyPublic(): boolean;
}

/**
 * Starts an HTTP(S) GET of media with got: only http/https (redirects included), at most
 * maxRedirects redirects, no retries, one total time limit, and an early refusal when the
 * Content-Length already exceeds maxBytes. The caller counts bytes as they stream.
 *
 * The URL is the API key's choice, so every hop obeys the outbound policy (core/net): by default
 * loopback and private addresses are allowed (a local tool whose callers share the machine host media
 * on 127.0.0.1), link-local and metadata addresses never; `network.outbound: public-only` allows
 * public addresses only.
 */
export async function startDownload(
  value: string,
  kind: MediaKind,
  maxBytes: number,
  opts: DownloadOptions,
): Promise<Download> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`The ${kind} URL is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest(`Only http and https URLs are accepted for ${KIND_ARTICLE[kind]}.`);
  let rejection: AppError | null = null;
  const { default: got } = await loadGot();
  const guard = httpGuard(opts.outbound ?? new OutboundPolicy());
  const stream = got.stream(url, {
    ...guard.got,
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
  return { stream, fileName, rejection: () => rejection, onlyPublic: guard.onlyPublic };
}

export const tooLargeDownload = (kind: MediaKind, maxBytes: number) =>
  badRequest(`The ${kind} is larger than the ${formatBytes(maxBytes)} allowed for ${kind} files.`);

/**
 * Turns a download failure into a 400 with the reason (never the URL: it may carry tokens). A refusal by
 * the outbound policy says why. Otherwise the reason is told only when every address connected to was
 * public: for a loopback or private one, "connection refused", "HTTP 404", "not an image: text/html",
 * a time-out or a size would tell a closed port from a web server from another service, so they all
 * read the same (the time a failure takes is not hidden). The log keeps the reason for the person.
 */
export function mapDownloadError(
  err: unknown,
  kind: MediaKind,
  opts: DownloadOptions,
  onlyPublic: boolean,
  log?: { info(obj: object, msg: string): void },
): unknown {
  // got is loaded by startDownload; until it is, no error can be one of its classes (so all of these are false).
  const got = loadGot.loaded();
  const isRequestError = (e: unknown): e is RequestError => got !== undefined && e instanceof got.RequestError;
  const prefix = `Could not download the ${kind} URL:`;
  const refused = outboundRefusal(err);
  if (refused) return badRequest(`${prefix} ${refused.reason}.`);
  const cause = isRequestError(err) && err.cause instanceof AppError ? err.cause : err;
  if (!onlyPublic && (isRequestError(cause) || (cause instanceof AppError && cause.status === 400))) {
    log?.info({ kind, reason: isRequestError(cause) ? cause.code : cause.message }, 'media download failed');
    return badRequest(`${prefix} no ${kind} file could be fetched from it.`);
  }
  if (cause instanceof AppError) return cause;
  if (got && err instanceof got.HTTPError)
    return badRequest(`${prefix} the server answered HTTP ${err.response.statusCode}.`);
  if (got && err instanceof got.MaxRedirectsError)
    return badRequest(`${prefix} it redirected more than ${opts.maxRedirects} times.`);
  if (got && err instanceof got.TimeoutError)
    return badRequest(`${prefix} the download took longer than ${opts.timeoutMs / 1000} s.`);
  if (isRequestError(err)) {
    const reason = err.code && err.code !== 'ERR_GOT_REQUEST_ERROR' ? err.code : err.message;
    return badRequest(`${prefix} ${reason}.`);
  }
  return err;
}
