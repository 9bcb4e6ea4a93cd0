import type { Logger } from '../../../logger.js';
import {
  ProviderError,
  type ProviderContext,
  type ProviderJob,
  type ProviderResult,
  type VideoProvider,
} from '../video-provider.js';
import { downloadResult } from './download-result.js';
import type { HostedProviderDeps } from './fal.provider.js';
import { hostedInput, providerOptions } from './provider-input.js';
import { findVideoUrl, progressFromLogs } from './provider-output.js';
import { ProviderHttp, errorDetail, joinUrl, scrubText, waitFor } from './provider-http.js';

const LABEL = 'Replicate';

interface Prediction {
  id?: unknown;
  status?: unknown;
  output?: unknown;
  error?: unknown;
  logs?: unknown;
}

/** Where to create the prediction: an official model's endpoint, or a specific version. */
function createRequest(model: string, input: Record<string, unknown>): { path: string; body: Record<string, unknown> } {
  const [name, version] = model.includes('/') ? model.split(':') : [null, model];
  if (!version) return { path: `models/${name}/predictions`, body: { input } };
  return { path: 'predictions', body: { version, input } };
}

/**
 * Replicate's predictions API: `POST /predictions` (a version) or `/models/{owner}/{name}/predictions`
 * creates a prediction; `GET /predictions/{id}` reports starting / processing (with logs) / succeeded
 * (with output) / failed (with error) / canceled; `POST /predictions/{id}/cancel` stops it.
 * Authorization is `Bearer <token>`. Polled: a webhook would need an address Replicate can reach.
 */
export class ReplicateProvider implements VideoProvider {
  readonly name = 'replicate';
  readonly resumable = true;
  private readonly http: ProviderHttp;

  constructor(private readonly deps: HostedProviderDeps) {
    this.http = new ProviderHttp({ label: LABEL, keyHint: deps.keyHint, backoffMs: deps.pollIntervalMs, ...deps.http });
  }

  private url(path: string): string {
    return joinUrl(this.deps.baseUrl, path);
  }

  async submit(job: ProviderJob, ctx: ProviderContext): Promise<{ externalId: string }> {
    const options = providerOptions(job, 'replicate');
    const token = await this.deps.key();
    const { path, body } = createRequest(options.model, await hostedInput(job, options.input, LABEL));
    const res = await this.http.call({
      method: 'POST',
      url: this.url(path),
      headers: { authorization: `Bearer ${token}` },
      json: body,
      signal: ctx.signal,
      idempotent: false,
      secrets: [token],
    });
    const id = (res.body as Prediction | null)?.id;
    if (typeof id !== 'string' || !/^[\w-]{1,200}$/.test(id)) {
      throw new ProviderError(`${LABEL} accepted the job but answered without a prediction id.`, true);
    }
    ctx.onProgress({ progress: 0 });
    return { externalId: id };
  }

  async follow(externalId: string, _job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
    const token = await this.deps.key();
    for (;;) {
      const res = await this.http.call({
        method: 'GET',
        url: this.url(`predictions/${encodeURIComponent(externalId)}`),
        headers: { authorization: `Bearer ${token}` },
        signal: ctx.signal,
        idempotent: true,
        secrets: [token],
      });
      const p = (res.body ?? {}) as Prediction;
      const logs = typeof p.logs === 'string' ? p.logs.split('\n') : [];
      switch (p.status) {
        case 'succeeded': {
          const videoUrl = findVideoUrl(p.output);
          if (!videoUrl) throw new ProviderError(`${LABEL} finished the prediction but its output has no video.`);
          return { videoPath: await downloadResult(videoUrl, LABEL, ctx, this.deps.download) };
        }
        case 'failed': {
          const lastLog = logs.filter((l) => l.trim()).pop();
          const detail =
            errorDetail({ error: p.error }, [token]) ?? (lastLog ? scrubText(lastLog, [token]) : 'no reason given');
          throw new ProviderError(`${LABEL} could not make the video: ${detail.replace(/[.\s]+$/, '')}.`);
        }
        case 'canceled':
        case 'aborted':
          throw new ProviderError(`The prediction was canceled at ${LABEL}.`);
        case 'processing':
          ctx.onProgress({ progress: progressFromLogs(logs) ?? 1 });
          break;
        default:
          ctx.onProgress({ progress: 0 });
      }
      await waitFor(this.deps.pollIntervalMs, ctx.signal);
    }
  }

  async cancel(externalId: string, ctx: { log: Logger }): Promise<void> {
    try {
      const token = await this.deps.key();
      const res = await this.http.call({
        method: 'POST',
        url: this.url(`predictions/${encodeURIComponent(externalId)}/cancel`),
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(15_000),
        // Canceling twice does no harm, so a 5xx is tried again.
        idempotent: true,
        secrets: [token],
        accept: (status) => status === 404 || status === 409,
      });
      ctx.log.info({ provider: 'replicate', status: res.status }, 'provider job cancel requested');
    } catch (err) {
      ctx.log.warn({ provider: 'replicate', err: (err as Error).message }, 'provider job cancel failed');
    }
  }
}
