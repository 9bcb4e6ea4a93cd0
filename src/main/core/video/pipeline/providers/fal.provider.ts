import type { Logger } from '../../../logger.js';
import {
  ProviderError,
  type ProviderContext,
  type ProviderJob,
  type ProviderResult,
  type VideoProvider,
} from '../video-provider.js';
import { downloadResult, type DownloadResultOptions } from './download-result.js';
import { hostedInput, providerOptions } from './provider-input.js';
import { findVideoUrl, progressFromLogs } from './provider-output.js';
import {
  ProviderHttp,
  errorDetail,
  joinUrl,
  waitFor,
  type ProviderHttpOptions,
  type ProviderResponse,
} from './provider-http.js';

export interface HostedProviderDeps {
  baseUrl: string;
  pollIntervalMs: number;
  /** The API key, read from the secret store when needed; rejects with a ProviderError saying how to set it. */
  key(): Promise<string>;
  /** Added to a refused-key message: how to set a valid key. */
  keyHint: string;
  http?: Partial<ProviderHttpOptions>;
  download?: DownloadResultOptions;
}

const LABEL = 'fal.ai';
/** fal namespaces whose app ids have three segments (`workflows/owner/name`). */
const THREE_PART = new Set(['workflows', 'comfy']);

/**
 * The app id of an endpoint id: status, result and cancel live under the app, without the sub-path
 * (`fal-ai/kling-video/v2/master/text-to-video` -> `fal-ai/kling-video`).
 */
export function falAppId(model: string): string {
  const parts = model.split('/');
  return parts.slice(0, THREE_PART.has(parts[0]) ? 3 : 2).join('/');
}

/** The external id is `<app id>/<request id>`: cancel gets no template, yet needs the app's URL. */
function splitExternalId(externalId: string): { app: string; requestId: string } {
  const cut = externalId.lastIndexOf('/');
  if (cut <= 0) throw new ProviderError('The saved fal.ai request id is not readable; the generation cannot resume.');
  return { app: externalId.slice(0, cut), requestId: externalId.slice(cut + 1) };
}

interface FalStatus {
  status?: unknown;
  queue_position?: unknown;
  logs?: unknown;
  error?: unknown;
  error_type?: unknown;
}

/**
 * fal.ai's queue API: `POST {base}/{endpoint id}` queues the job; `GET .../requests/{id}/status?logs=1`
 * reports IN_QUEUE (with queue_position), IN_PROGRESS (with logs) or COMPLETED; `GET .../requests/{id}`
 * gives the result (`{ video: { url } }`) or the error; `PUT .../requests/{id}/cancel` stops it.
 * Authorization is `Key <key>`.
 */
export class FalProvider implements VideoProvider {
  readonly name = 'fal';
  readonly resumable = true;
  private readonly http: ProviderHttp;

  constructor(private readonly deps: HostedProviderDeps) {
    this.http = new ProviderHttp({ label: LABEL, keyHint: deps.keyHint, backoffMs: deps.pollIntervalMs, ...deps.http });
  }

  private url(path: string): string {
    return joinUrl(this.deps.baseUrl, path);
  }

  async submit(job: ProviderJob, ctx: ProviderContext): Promise<{ externalId: string }> {
    const options = providerOptions(job, 'fal');
    const key = await this.deps.key();
    const input = await hostedInput(job, options.input, LABEL);
    const res = await this.http.call({
      method: 'POST',
      url: this.url(options.model),
      headers: { authorization: `Key ${key}` },
      json: input,
      signal: ctx.signal,
      idempotent: false,
      secrets: [key],
    });
    const requestId = (res.body as { request_id?: unknown } | null)?.request_id;
    if (typeof requestId !== 'string' || !/^[\w-]{1,200}$/.test(requestId)) {
      throw new ProviderError(`${LABEL} accepted the job but answered without a request id.`, true);
    }
    ctx.onProgress({ progress: 0 });
    return { externalId: `${falAppId(options.model)}/${requestId}` };
  }

  async follow(externalId: string, _job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
    const { app, requestId } = splitExternalId(externalId);
    const key = await this.deps.key();
    const base = this.url(`${app}/requests/${encodeURIComponent(requestId)}`);
    const auth = { authorization: `Key ${key}` };
    for (;;) {
      const res = await this.http.call({
        method: 'GET',
        url: `${base}/status?logs=1`,
        headers: auth,
        signal: ctx.signal,
        idempotent: true,
        secrets: [key],
      });
      const s = (res.body ?? {}) as FalStatus;
      if (s.status === 'COMPLETED') {
        if (s.error) throw this.jobFailure(s.error_type, { detail: s.error }, [key]);
        break;
      }
      if (s.status === 'IN_QUEUE') {
        const position = typeof s.queue_position === 'number' ? s.queue_position : undefined;
        ctx.onProgress({ progress: 0, queuePosition: position });
      } else if (s.status === 'IN_PROGRESS') {
        const lines = Array.isArray(s.logs)
          ? s.logs.map((l) => String((l as { message?: unknown })?.message ?? ''))
          : [];
        ctx.onProgress({ progress: progressFromLogs(lines) ?? 1 });
      }
      await waitFor(this.deps.pollIntervalMs, ctx.signal);
    }
    // A failed job answers its error here with the HTTP status it failed with.
    const result = await this.http.call({
      method: 'GET',
      url: base,
      headers: auth,
      signal: ctx.signal,
      idempotent: true,
      secrets: [key],
      accept: (status, headers) =>
        status >= 400 && status !== 401 && status !== 429 && (status < 500 || !!headers['x-fal-error-type']),
    });
    if (result.status >= 400) throw this.resultFailure(result, [key]);
    const videoUrl = findVideoUrl(result.body);
    if (!videoUrl) throw new ProviderError(`${LABEL} finished the job but its result has no video.`);
    return { videoPath: await downloadResult(videoUrl, LABEL, ctx, this.deps.download) };
  }

  private resultFailure(res: ProviderResponse, secrets: string[]): ProviderError {
    const errorType = res.headers['x-fal-error-type'] ?? (res.body as { error_type?: unknown } | null)?.error_type;
    return this.jobFailure(errorType, res.body, secrets, res.status);
  }

  /** The model's own failure: validation (4xx) is final; infrastructure errors (5xx, error_type) are temporary. */
  private jobFailure(errorType: unknown, body: unknown, secrets: string[], status?: number): ProviderError {
    const detail = errorDetail(body, secrets) ?? 'no reason given';
    const temporary = (status !== undefined && status >= 500) || (status === undefined && !!errorType);
    return new ProviderError(
      `${LABEL} could not make the video${status ? ` (HTTP ${status})` : ''}: ${detail}.`,
      temporary,
    );
  }

  async cancel(externalId: string, ctx: { log: Logger }): Promise<void> {
    try {
      const { app, requestId } = splitExternalId(externalId);
      const key = await this.deps.key();
      const res = await this.http.call({
        method: 'PUT',
        url: this.url(`${app}/requests/${encodeURIComponent(requestId)}/cancel`),
        headers: { authorization: `Key ${key}` },
        signal: AbortSignal.timeout(15_000),
        idempotent: true,
        secrets: [key],
        // 400: already completed; 404: unknown. Nothing left to stop either way.
        accept: (status) => status === 400 || status === 404,
      });
      ctx.log.info({ provider: 'fal', status: res.status }, 'provider job cancel requested');
    } catch (err) {
      ctx.log.warn({ provider: 'fal', err: (err as Error).message }, 'provider job cancel failed');
    }
  }
}
