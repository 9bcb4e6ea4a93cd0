import { setTimeout as sleep } from 'node:timers/promises';
import type { Headers } from 'got';
import { APP_VERSION } from '../../../../../shared/version.js';
import { loadGot, type Got } from '../../../net/outbound-http.js';
import { parseRetryAfter } from '../../../net/retry-after.js';
import { ProviderError } from '../video-provider.js';

export interface ProviderHttpOptions {
  /** Who is answering, in messages: `fal.ai`, `Replicate`, `ComfyUI`. */
  label: string;
  /** Time limit of one request. */
  requestTimeoutMs?: number;
  /** Tries of one call when the answer is 429, a 5xx or a dropped connection (the first one included). */
  maxAttempts?: number;
  /** Wait before a retry when the answer has no Retry-After; doubles each time (at most 30 s). */
  backoffMs?: number;
  /** A Retry-After longer than this is not waited out here: the retryable error goes back to the pipeline. */
  maxRetryAfterSec?: number;
  /** Added to the message of a refused key (401): how to set a valid one. */
  keyHint?: string;
}

export interface ProviderCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: FormData;
  signal: AbortSignal;
  /** Safe to send again after a 5xx or a dropped connection (reads, cancels); a POST that starts paid work is not. */
  idempotent: boolean;
  /** Strings that must never appear in a message or log (the key). */
  secrets?: string[];
  /** Return these non-2xx answers instead of throwing (the caller reads them as the job's outcome). */
  accept?: (status: number, headers: Headers) => boolean;
  timeoutMs?: number;
}

export interface ProviderResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

const MAX_DETAIL = 300;
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
/** Connection errors where nothing reached the server, so even a POST may be sent again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The reason to reject with once the context's signal has fired (the pipeline reads signal.reason). */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ProviderError('The work was stopped.');
}

/** Waits `ms`, rejecting at once with the abort reason when the signal fires. */
export async function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw abortReason(signal);
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    throw abortReason(signal);
  }
}

/**
 * Makes provider text fit for a person and for the log: the key and URL query strings (signed URLs)
 * removed, a Python traceback reduced to its last line, JS stack lines dropped, whitespace collapsed,
 * and cut to a few hundred characters.
 */
export function scrubText(text: string, secrets: readonly string[] = []): string {
  let t = text;
  for (const s of secrets) if (s) t = t.split(s).join('***');
  if (/Traceback \(most recent call last\)/.test(t)) {
    const lines = t.split('\n').filter((l) => l.trim() && !/^\s/.test(l) && !/^Traceback/.test(l));
    t = lines[lines.length - 1] ?? '';
  }
  t = t
    .split('\n')
    .filter((l) => !/^\s+at\s/.test(l))
    .join(' ');
  t = t.replace(/(https?:\/\/[^\s?#"']+)\?[^\s"']*/gi, '$1?…');
  t = t
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > MAX_DETAIL ? `${t.slice(0, MAX_DETAIL - 1)}…` : t;
}

/** The provider's own words from an error body: FastAPI `detail` (string or list), `error`, `title`, `message`. */
export function errorDetail(body: unknown, secrets: readonly string[] = []): string | undefined {
  const pick = (): string | undefined => {
    if (typeof body === 'string') return /^\s*</.test(body) ? undefined : body;
    if (!body || typeof body !== 'object') return undefined;
    const b = body as Record<string, unknown>;
    if (typeof b.detail === 'string') return b.detail;
    if (Array.isArray(b.detail)) {
      return b.detail
        .map((d) => {
          if (!d || typeof d !== 'object') return String(d);
          const { loc, msg } = d as { loc?: unknown; msg?: unknown };
          const where = Array.isArray(loc) ? loc.filter((p) => p !== 'body').join('.') : '';
          return where ? `${where}: ${String(msg)}` : String(msg);
        })
        .join('; ');
    }
    if (typeof b.error === 'string') return b.error;
    if (b.error && typeof b.error === 'object' && typeof (b.error as { message?: unknown }).message === 'string')
      return (b.error as { message: string }).message;
    if (typeof b.message === 'string') return b.message;
    if (typeof b.title === 'string') return b.title;
    return undefined;
  };
  const text = pick();
  if (!text) return undefined;
  return scrubText(text, secrets).replace(/[.\s]+$/, '') || undefined;
}

/** A non-2xx answer as a ProviderError: 429 and 5xx are temporary (retryable), other 4xx are not. */
export function httpFailure(
  opts: { label: string; keyHint?: string; secrets?: readonly string[] },
  status: number,
  body: unknown,
  headers: Headers,
): ProviderError {
  const detail = errorDetail(body, opts.secrets);
  const said = detail ? `: ${detail}` : '';
  const retryAfterMs = parseRetryAfter(headers['retry-after']);
  const retryAfterSec = retryAfterMs === null ? undefined : Math.ceil(retryAfterMs / 1000);
  if (status === 401) {
    const hint = opts.keyHint ? ` ${opts.keyHint}` : '';
    return new ProviderError(`${opts.label} refused the API key (HTTP 401${said}).${hint}`);
  }
  if (status === 429) {
    const when = retryAfterSec !== undefined ? `in ${retryAfterSec} s` : 'later';
    return new ProviderError(
      `${opts.label} is limiting requests (HTTP 429${said}); it asked to try again ${when}.`,
      true,
      retryAfterSec,
    );
  }
  if (status >= 500) {
    return new ProviderError(`${opts.label} had a server error (HTTP ${status}${said}).`, true, retryAfterSec);
  }
  return new ProviderError(`${opts.label} rejected the request (HTTP ${status}${said}).`);
}

/** A request that got no answer: refused, reset, unresolvable, or too slow. Always temporary. */
function connectionFailure(
  { TimeoutError }: Got,
  label: string,
  url: string,
  err: unknown,
  timeoutMs: number,
): ProviderError {
  if (err instanceof TimeoutError)
    return new ProviderError(`${label} did not answer within ${timeoutMs / 1000} s.`, true);
  const code = (err as { code?: string }).code;
  const reason = code && code !== 'ERR_GOT_REQUEST_ERROR' ? code : 'the connection failed';
  // The origin only: a path or query could carry an id or a token.
  return new ProviderError(`Could not reach ${label} at ${new URL(url).origin} (${reason}).`, true);
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * HTTP for provider APIs with got: no automatic retries of got's own; instead 429 (any method) and
 * 5xx / dropped connections (idempotent calls, or a POST that never reached the server) are tried
 * again a bounded number of times, waiting what Retry-After asks (or a doubling back-off). What
 * remains becomes a ProviderError a person can read: the provider's detail, never the key.
 *
 * No outbound policy here (core/net): every call goes to the provider's base URL, which is the person's
 * own configuration (`providers.*.baseUrl`, ComfyUI on 127.0.0.1 by default), never an address an API
 * key chose, and no redirect is followed. A result URL a provider answers with is fetched by
 * downloadResult, which does obey the policy.
 */
export class ProviderHttp {
  readonly label: string;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly maxRetryAfterSec: number;

  constructor(private readonly opts: ProviderHttpOptions) {
    this.label = opts.label;
    this.timeoutMs = opts.requestTimeoutMs ?? 30_000;
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
    this.backoffMs = opts.backoffMs ?? 1000;
    this.maxRetryAfterSec = opts.maxRetryAfterSec ?? 60;
  }

  async call(c: ProviderCall): Promise<ProviderResponse> {
    const timeoutMs = c.timeoutMs ?? this.timeoutMs;
    const gotModule = await loadGot();
    const got = gotModule.default;
    for (let attempt = 1; ; attempt++) {
      if (c.signal.aborted) throw abortReason(c.signal);
      const backoff = Math.min(30_000, this.backoffMs * 2 ** (attempt - 1));
      let res;
      try {
        res = await got(c.url, {
          method: c.method,
          headers: { 'user-agent': `AgentStudio/${APP_VERSION}`, accept: 'application/json', ...c.headers },
          ...(c.json !== undefined ? { json: c.json } : {}),
          ...(c.form ? { body: c.form } : {}),
          signal: c.signal,
          throwHttpErrors: false,
          followRedirect: false,
          retry: { limit: 0 },
          timeout: { request: timeoutMs },
          responseType: 'text',
        });
      } catch (err) {
        if (c.signal.aborted) throw abortReason(c.signal);
        const failure = connectionFailure(gotModule, this.label, c.url, err, timeoutMs);
        const code = (err as { code?: string }).code ?? '';
        if (attempt >= this.maxAttempts || !(c.idempotent || NOT_SENT_CODES.has(code))) throw failure;
        await waitFor(backoff, c.signal);
        continue;
      }
      const status = res.statusCode;
      const body = parseBody(res.body);
      if ((status >= 200 && status < 300) || c.accept?.(status, res.headers)) {
        return { status, headers: res.headers, body };
      }
      const failure = httpFailure({ ...this.opts, secrets: c.secrets }, status, body, res.headers);
      const temporary = status === 429 || (c.idempotent && RETRY_STATUSES.has(status));
      const asked = failure.retryAfterSec;
      if (!temporary || attempt >= this.maxAttempts || (asked !== undefined && asked > this.maxRetryAfterSec)) {
        throw failure;
      }
      await waitFor(asked !== undefined ? asked * 1000 : backoff, c.signal);
    }
  }
}

/** `base` + `path`, keeping a path prefix the base URL may have (a reverse proxy's). */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
