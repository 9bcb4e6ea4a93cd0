import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../../logger.js';
import {
  ProviderError,
  type ProviderContext,
  type ProviderJob,
  type ProviderMedia,
  type ProviderResult,
  type VideoProvider,
} from '../video-provider.js';
import { openWatch, type ComfyOutcome, type ComfyWatch } from './comfyui-watch.js';
import { downloadResult, type DownloadResultOptions } from './download-result.js';
import { comfyWorkflow, providerOptions } from './provider-input.js';
import { ProviderHttp, abortReason, joinUrl, scrubText, waitFor, type ProviderHttpOptions } from './provider-http.js';

export interface ComfyUiProviderDeps {
  baseUrl: string;
  pollIntervalMs: number;
  http?: Partial<ProviderHttpOptions>;
  download?: DownloadResultOptions;
}

const LABEL = 'ComfyUI';
/** Input files we upload go to this sub-folder of ComfyUI's input folder. */
const UPLOAD_SUBFOLDER = 'agent-studio';
const VIDEO_FILE = /\.(mp4|webm|mov|mkv|m4v)$/i;
/** With the socket open, /history is still checked now and then (a missed message must not hang the job). */
const LIVE_POLL_FACTOR = 5;
/** How long submit waits for the socket before queuing anyway (progress then comes from polling). */
const SOCKET_OPEN_WAIT_MS = 2000;
/** A socket opened by submit that no follow claims (the process is going down) is closed after this. */
const UNCLAIMED_SOCKET_MS = 60_000;

interface OutputFile {
  filename?: unknown;
  subfolder?: unknown;
  type?: unknown;
  format?: unknown;
}

interface HistoryEntry {
  outputs?: Record<string, Record<string, unknown>>;
  status?: { status_str?: unknown; messages?: unknown };
}

type QueueItem = [number, string, ...unknown[]];

/** The client id a generation's prompt is queued with: the same after a restart, so its socket messages still reach us. */
const clientIdOf = (job: ProviderJob) => `agent-studio-${job.generationId}`;

function refusal(body: unknown): ProviderError {
  const b = (body ?? {}) as { error?: unknown; node_errors?: unknown };
  const top = typeof b.error === 'string' ? b.error : (b.error as { message?: unknown } | undefined)?.message;
  const nodes: string[] = [];
  if (b.node_errors && typeof b.node_errors === 'object') {
    for (const [id, ne] of Object.entries(b.node_errors as Record<string, unknown>).slice(0, 3)) {
      const { class_type: cls, errors } = (ne ?? {}) as { class_type?: unknown; errors?: unknown };
      for (const e of (Array.isArray(errors) ? errors : []).slice(0, 2)) {
        const { message, details } = (e ?? {}) as { message?: unknown; details?: unknown };
        nodes.push(
          `node ${id}${cls ? ` (${String(cls)})` : ''}: ${String(message)}${details ? ` - ${String(details)}` : ''}`,
        );
      }
    }
  }
  const text = [String(top ?? 'the workflow is not valid'), ...nodes].join('; ');
  return new ProviderError(`${LABEL} refused the workflow: ${scrubText(text).replace(/[.\s]+$/, '')}.`);
}

/** The first video file among a node's outputs (`videos`, `gifs` from VideoHelperSuite, `images` from SaveVideo). */
function videoOutput(entry: HistoryEntry, outputNode: string | undefined): OutputFile | null {
  const outputs = entry.outputs ?? {};
  const nodes = outputNode ? [outputNode] : Object.keys(outputs);
  for (const node of nodes) {
    for (const list of Object.values(outputs[node] ?? {})) {
      if (!Array.isArray(list)) continue;
      for (const f of list as OutputFile[]) {
        if (typeof f?.filename !== 'string') continue;
        if (VIDEO_FILE.test(f.filename) || (typeof f.format === 'string' && f.format.startsWith('video/'))) return f;
      }
    }
  }
  return null;
}

/** How a finished history entry failed, if it did (the execution_error message's exception text). */
function historyFailure(entry: HistoryEntry): ComfyOutcome | null {
  const messages = Array.isArray(entry.status?.messages) ? (entry.status.messages as unknown[]) : [];
  for (const m of messages) {
    if (!Array.isArray(m)) continue;
    const [type, data] = m as [unknown, Record<string, unknown> | undefined];
    if (type === 'execution_interrupted') return { kind: 'interrupted' };
    if (type === 'execution_error') {
      const where = data?.node_id
        ? `node ${String(data.node_id)}${data.node_type ? ` (${String(data.node_type)})` : ''}: `
        : '';
      return { kind: 'error', message: `${where}${String(data?.exception_message ?? 'the workflow failed')}` };
    }
  }
  return entry.status?.status_str === 'error' ? { kind: 'error', message: 'the workflow failed' } : null;
}

function outcomeError(o: Exclude<ComfyOutcome, { kind: 'done' }>): ProviderError {
  if (o.kind === 'interrupted') return new ProviderError(`The ${LABEL} job was interrupted.`);
  return new ProviderError(`${LABEL} could not make the video: ${scrubText(o.message).replace(/[.\s]+$/, '')}.`);
}

/**
 * A local ComfyUI server (open video models on the user's own GPU): media inputs go up with
 * `POST /upload/image`, the template's API-format workflow (placeholders filled) is queued with
 * `POST /prompt`, progress comes over `/ws` with `/history/{id}` polled as a fallback, the video is
 * fetched from `/view`. Cancel deletes the prompt from the queue, or interrupts it when it is running.
 */
export class ComfyUiProvider implements VideoProvider {
  readonly name = 'comfyui';
  readonly resumable = true;
  private readonly http: ProviderHttp;
  /** Sockets opened by submit, by client id, until follow takes them over. */
  private readonly opened = new Map<string, { watch: ComfyWatch; timer: NodeJS.Timeout }>();

  constructor(private readonly deps: ComfyUiProviderDeps) {
    this.http = new ProviderHttp({ label: LABEL, backoffMs: deps.pollIntervalMs, ...deps.http });
  }

  private url(p: string): string {
    return joinUrl(this.deps.baseUrl, p);
  }

  private watch(job: ProviderJob, nodeCount: number): ComfyWatch {
    const url = new URL(this.url(`ws?clientId=${encodeURIComponent(clientIdOf(job))}`));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return openWatch(url.href, nodeCount);
  }

  private keep(job: ProviderJob, watch: ComfyWatch): void {
    const id = clientIdOf(job);
    this.opened.get(id)?.watch.close();
    const timer = setTimeout(() => this.claim(job)?.close(), UNCLAIMED_SOCKET_MS).unref();
    this.opened.set(id, { watch, timer });
  }

  private claim(job: ProviderJob): ComfyWatch | undefined {
    const id = clientIdOf(job);
    const kept = this.opened.get(id);
    if (!kept) return undefined;
    clearTimeout(kept.timer);
    this.opened.delete(id);
    return kept.watch;
  }

  async submit(job: ProviderJob, ctx: ProviderContext): Promise<{ externalId: string }> {
    const options = providerOptions(job, 'comfyui');
    // Listen before queuing: a short prompt can start, and even finish, before follow() is called.
    const watch = this.watch(job, Object.keys(options.workflow).length);
    try {
      const prompt = await comfyWorkflow(job, options.workflow, (m) => this.upload(m, job, ctx.signal));
      await watch.opened(SOCKET_OPEN_WAIT_MS);
      const res = await this.http.call({
        method: 'POST',
        url: this.url('prompt'),
        json: { prompt, client_id: clientIdOf(job) },
        signal: ctx.signal,
        idempotent: false,
        accept: (status) => status === 400,
      });
      if (res.status === 400) throw refusal(res.body);
      const promptId = (res.body as { prompt_id?: unknown } | null)?.prompt_id;
      if (typeof promptId !== 'string' || !/^[\w-]{1,200}$/.test(promptId)) {
        throw new ProviderError(`${LABEL} accepted the workflow but answered without a prompt id.`, true);
      }
      this.keep(job, watch);
      ctx.onProgress({ progress: 0 });
      return { externalId: promptId };
    } catch (err) {
      watch.close();
      throw err;
    }
  }

  /** Puts a media input into ComfyUI's input folder; returns the name its loader nodes take. */
  private async upload(media: ProviderMedia, job: ProviderJob, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    const fileName = `${job.generationId}-${media.key}${path.extname(media.path)}`;
    form.set('image', await fs.openAsBlob(media.path, { type: media.contentType }), fileName);
    form.set('type', 'input');
    form.set('subfolder', UPLOAD_SUBFOLDER);
    // The same name on a retried attempt replaces the file instead of adding "name (1).png".
    form.set('overwrite', 'true');
    const res = await this.http.call({
      method: 'POST',
      url: this.url('upload/image'),
      form,
      signal,
      idempotent: true,
      timeoutMs: 5 * 60_000,
    });
    const { name, subfolder } = (res.body ?? {}) as { name?: unknown; subfolder?: unknown };
    if (typeof name !== 'string' || !name)
      throw new ProviderError(`${LABEL} did not say where it stored an input file.`, true);
    return typeof subfolder === 'string' && subfolder ? `${subfolder}/${name}` : name;
  }

  async follow(promptId: string, job: ProviderJob, ctx: ProviderContext): Promise<ProviderResult> {
    const options = providerOptions(job, 'comfyui');
    // After a restart there is no socket from submit: a new one gets the messages from now on.
    const watch = this.claim(job) ?? this.watch(job, Object.keys(options.workflow).length);
    watch.follow(promptId, (progress) => ctx.onProgress({ progress }));
    const interval = this.deps.pollIntervalMs;
    let running = false;
    let ended = false;
    try {
      for (;;) {
        const entry = await this.history(promptId, ctx.signal);
        if (entry) return await this.finish(entry, options.output_node, ctx);
        if (!running && !watch.started) {
          const position = await this.queuePosition(promptId, ctx.signal);
          if (position === null) {
            // It may have finished between the two reads.
            if (await this.history(promptId, ctx.signal)) continue;
            throw new ProviderError(
              `${LABEL} no longer has this job (it was deleted from its queue, or the server restarted).`,
            );
          }
          if (position === 'running') running = true;
          else ctx.onProgress({ progress: 0, queuePosition: position });
        }
        if (ended) {
          // The socket said it is over; the history entry is written right after.
          await waitFor(interval, ctx.signal);
          continue;
        }
        const o = await this.waitOrOutcome(watch.live ? interval * LIVE_POLL_FACTOR : interval, watch, ctx.signal);
        if (o && o.kind !== 'done') throw outcomeError(o);
        if (o) ended = true;
      }
    } finally {
      watch.close();
    }
  }

  /** The socket's report of the end, or null after `ms`; rejects when the context aborts. */
  private async waitOrOutcome(
    ms: number,
    watch: { outcome: Promise<ComfyOutcome> },
    signal: AbortSignal,
  ): Promise<ComfyOutcome | null> {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const timer = sleep(ms, null, { signal: stop.signal }).catch(() => null);
      const winner = await Promise.race([watch.outcome, timer]);
      if (signal.aborted) throw abortReason(signal);
      return winner;
    } finally {
      stop.abort();
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async history(promptId: string, signal: AbortSignal): Promise<HistoryEntry | null> {
    const res = await this.http.call({
      method: 'GET',
      url: this.url(`history/${encodeURIComponent(promptId)}`),
      signal,
      idempotent: true,
    });
    const all = (res.body ?? {}) as Record<string, HistoryEntry>;
    return all && typeof all === 'object' && Object.hasOwn(all, promptId) ? all[promptId] : null;
  }

  /** Prompts ahead of ours, 'running', or null when the queue does not have it. */
  private async queuePosition(promptId: string, signal: AbortSignal): Promise<number | 'running' | null> {
    const res = await this.http.call({ method: 'GET', url: this.url('queue'), signal, idempotent: true });
    const q = (res.body ?? {}) as { queue_running?: unknown; queue_pending?: unknown };
    const running = (Array.isArray(q.queue_running) ? q.queue_running : []) as QueueItem[];
    const pending = (Array.isArray(q.queue_pending) ? q.queue_pending : []) as QueueItem[];
    if (running.some((item) => item?.[1] === promptId)) return 'running';
    const mine = pending.find((item) => item?.[1] === promptId);
    if (!mine) return null;
    return running.length + pending.filter((item) => Number(item?.[0]) < Number(mine[0])).length;
  }

  private async finish(
    entry: HistoryEntry,
    outputNode: string | undefined,
    ctx: ProviderContext,
  ): Promise<ProviderResult> {
    const failure = historyFailure(entry);
    if (failure && failure.kind !== 'done') throw outcomeError(failure);
    const file = videoOutput(entry, outputNode);
    if (!file) {
      const from = outputNode ? ` from node ${outputNode}` : '';
      throw new ProviderError(
        `The ${LABEL} workflow finished without a video${from}; end it with a node that saves a video (such as SaveVideo or VHS_VideoCombine).`,
      );
    }
    const query = new URLSearchParams({
      filename: String(file.filename),
      subfolder: typeof file.subfolder === 'string' ? file.subfolder : '',
      type: typeof file.type === 'string' ? file.type : 'output',
    });
    return { videoPath: await downloadResult(this.url(`view?${query}`), LABEL, ctx, this.deps.download) };
  }

  /** Closes sockets that submit opened and no follow took over (at shutdown). */
  dispose(): void {
    for (const { watch, timer } of this.opened.values()) {
      clearTimeout(timer);
      watch.close();
    }
    this.opened.clear();
  }

  async cancel(promptId: string, ctx: { log: Logger }): Promise<void> {
    const signal = AbortSignal.timeout(15_000);
    try {
      const position = await this.queuePosition(promptId, signal);
      if (position === 'running') {
        // With the prompt id, a ComfyUI that knows it interrupts only this prompt, never someone else's.
        await this.http.call({
          method: 'POST',
          url: this.url('interrupt'),
          json: { prompt_id: promptId },
          signal,
          idempotent: true,
        });
      } else if (position !== null) {
        await this.http.call({
          method: 'POST',
          url: this.url('queue'),
          json: { delete: [promptId] },
          signal,
          idempotent: true,
        });
      }
      ctx.log.info({ provider: 'comfyui', position }, 'provider job cancel requested');
    } catch (err) {
      ctx.log.warn({ provider: 'comfyui', err: (err as Error).message }, 'provider job cancel failed');
    }
  }
}
