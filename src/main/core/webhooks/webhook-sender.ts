import { APP_VERSION } from '../../../shared/version.js';
import { type Got, httpGuard, loadGot } from '../net/outbound-http.js';
import { OutboundPolicy, outboundRefusal } from '../net/outbound-policy.js';
import { parseRetryAfter } from '../net/retry-after.js';

/** How one POST to a receiver went. `error` never holds the URL or the body (it reaches the log). */
export interface SendResult {
  /** 2xx: delivered. retry: time-out, connection error, 408, 429, 5xx. stop: 410, redirects, other 4xx. */
  outcome: 'delivered' | 'retry' | 'stop';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** From Retry-After on 429/503. */
  retryAfterMs: number | null;
  /** For the log only: what happened, when `error` does not say (a receiver at a non-public address). */
  logDetail?: string;
}

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where the receiver may be (the URL is the API key's choice); default: the default policy. */
  outbound?: OutboundPolicy;
}

/** The receiver's answer body is read (so the request ends cleanly) up to this size, then dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed (temporary)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

function classifyStatus(code: number): Pick<SendResult, 'outcome' | 'error'> {
  if (code >= 200 && code < 300) return { outcome: 'delivered', error: null };
  if (code >= 300 && code < 400) return { outcome: 'stop', error: `HTTP ${code}: redirects are not followed` };
  if (code === 410) return { outcome: 'stop', error: 'HTTP 410: the receiver is gone; no more attempts' };
  if (code === 408 || code === 429 || code >= 500) return { outcome: 'retry', error: `HTTP ${code}` };
  return { outcome: 'stop', error: `HTTP ${code}` };
}

/** Why no answer came, in detail. */
function describeFailure({ RequestError, TimeoutError }: Got, err: unknown, timeoutMs: number): string {
  if (err instanceof TimeoutError) return `no answer within ${timeoutMs} ms`;
  const code = (err as { code?: string })?.code;
  if (code && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
  if (err instanceof RequestError && code && code !== 'ERR_GOT_REQUEST_ERROR') return `request failed (${code})`;
  return 'request failed';
}

/**
 * One POST with got: no redirects followed, no retries of its own (the delivery job retries), one
 * total time limit, and any answer read only up to 64 KiB. The receiver's address obeys the outbound
 * policy (core/net): the URL is the API key's choice.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return {
      outcome: 'stop',
      statusCode: null,
      durationMs: 0,
      error: 'the webhook URL is not a valid URL',
      retryAfterMs: null,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      outcome: 'stop',
      statusCode: null,
      durationMs: 0,
      error: 'the webhook URL is not http(s)',
      retryAfterMs: null,
    };

  const gotModule = await loadGot();
  const got = gotModule.default;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let statusCode: number | null = null;
    let retryAfterMs: number | null = null;
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const guard = httpGuard(req.outbound ?? new OutboundPolicy());
    const stream = got.stream.post(url, {
      ...guard.got,
      body: req.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': `AgentStudio-Webhooks/${APP_VERSION}`,
        ...req.headers,
      },
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: req.timeoutMs },
      signal: req.signal,
    });
    let received = 0;
    stream.on('response', (res: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
      statusCode = res.statusCode;
      if (statusCode === 429 || statusCode === 503)
        retryAfterMs = parseRetryAfter(res.headers['retry-after'], Date.now());
    });
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_RESPONSE_BYTES && statusCode !== null) {
        // Enough: the status is what counts. Stop reading without counting it as a failure.
        finish({ ...classifyStatus(statusCode), statusCode, retryAfterMs });
        stream.destroy();
      }
    });
    stream.on('end', () => {
      if (statusCode === null)
        return finish({ outcome: 'retry', statusCode: null, error: 'no answer', retryAfterMs: null });
      finish({ ...classifyStatus(statusCode), statusCode, retryAfterMs });
    });
    stream.on('error', (err: unknown) => {
      // An answer whose body broke off (or came too slowly) still counts by its status.
      if (statusCode !== null) return finish({ ...classifyStatus(statusCode), statusCode, retryAfterMs });
      // Refused by the outbound policy: no attempt will ever be allowed, so no retries.
      const refused = outboundRefusal(err);
      if (refused)
        return finish({
          outcome: 'stop',
          statusCode: null,
          error: `receiver refused: ${refused.reason}`,
          retryAfterMs: null,
        });
      const detail = describeFailure(gotModule, err, req.timeoutMs);
      // For a receiver that is not (only) at public addresses the reasons read the same: refused, reset,
      // not HTTP and silent would otherwise map the ports of the machine or network the server sits in,
      // for anyone with a key. HTTP statuses are kept for every receiver: retries and stops depend on
      // them, and each probe costs a generation and answers only after it rendered. The log has the detail.
      if (!guard.onlyPublic())
        return finish({
          outcome: 'retry',
          statusCode: null,
          error: 'no HTTP answer from the receiver',
          retryAfterMs: null,
          logDetail: detail,
        });
      finish({ outcome: 'retry', statusCode: null, error: detail, retryAfterMs: null });
    });
  });
}
