// wait_for_generation: re-reads GET /api/generations/:id whenever the core reports a change, until it is done.
import type { Generation } from '../../../shared/video-generations.schema.js';
import type { CoreEventBus } from '../events.js';
import { ApiCallError, callRoute, type CoreApi } from '../http/in-process-api.js';

export const WAIT_DEFAULT_SEC = 300;
export const WAIT_MAX_SEC = 1800;
/**
 * Re-read interval without a change event. Events only wake the loop early: the answer always comes from the
 * API (its scope and organization checks), and the interval covers events missed or a core in another process.
 */
const POLL_MS_WITH_EVENTS = 2000;
const POLL_MS_WITHOUT_EVENTS = 1000;

export interface WaitOptions {
  api: CoreApi;
  events?: CoreEventBus;
  id: string;
  timeoutSec: number;
  signal: AbortSignal;
  /** Called each time progress went up (and once at the start); notifications must never go down. */
  onProgress(generation: Generation): Promise<void>;
}

export async function waitForGeneration(opts: WaitOptions): Promise<Generation> {
  const deadline = Date.now() + opts.timeoutSec * 1000;
  let changed = false;
  let wake: (() => void) | null = null;
  const onChange = (p: { generationId: string }) => {
    if (p.generationId !== opts.id) return;
    changed = true;
    wake?.();
  };
  const unsubscribe = opts.events
    ? [opts.events.on('generation.progress', onChange), opts.events.on('generation.status', onChange)]
    : [];
  const pollMs = opts.events ? POLL_MS_WITH_EVENTS : POLL_MS_WITHOUT_EVENTS;
  let reported = -1;
  try {
    for (;;) {
      changed = false;
      const generation = (await callRoute(opts.api, 'getGeneration', { params: { id: opts.id } })).body;
      const progress = generation.status === 'completed' ? 100 : generation.progress;
      if (progress > reported) {
        reported = progress;
        await opts.onProgress({ ...generation, progress });
      }
      if (generation.status !== 'generating') return generation;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ApiCallError(
          408,
          'wait_timeout',
          `Generation ${opts.id} is still generating after ${opts.timeoutSec} s (${generation.progress}%). ` +
            'Call wait_for_generation again, or get_generation later.',
        );
      }
      if (opts.signal.aborted) throw new ApiCallError(499, 'canceled', 'The wait was canceled by the client.');
      // An event that arrived during the GET above is not lost: `changed` skips the sleep.
      if (!changed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, pollMs));
          opts.signal.addEventListener('abort', done, { once: true });
          wake = done;
          function done() {
            clearTimeout(timer);
            opts.signal.removeEventListener('abort', done);
            wake = null;
            resolve();
          }
        });
      }
    }
  } finally {
    for (const off of unsubscribe) off();
  }
}
