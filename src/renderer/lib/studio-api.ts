// The video studio's calls of the core that are newer than the rest of the window's: quotes, draft renders,
// batches, formats. Typed here once (the shapes of issue 27's API), so the screens stay readable.
import type { ChannelName } from '../../shared/ipc-contract.js';
import type { Generation } from '../../shared/ipc-contract.js';
import { invoke, onAppEvent } from './api';

export interface Quote {
  credits: number;
  per_video: number;
  num_videos: number;
  provider: string;
  model: string;
  resolution: string;
  duration_sec: number;
  latency_estimate_sec: { typical: number; busy: number } | null;
  balance_after: number;
}

/** The body of generate (and of its quote). */
export interface GenerateBody {
  variables: Record<string, string>;
  character_variables?: Record<string, string>;
  webhook_url?: string;
  num_videos?: number;
  draft?: boolean;
  aspect_ratio?: string;
  outputs?: string[];
  deadline_sec?: number;
  batch?: { variables: Record<string, string>; character_variables?: Record<string, string> }[];
}

export interface GenerateAnswer {
  generations: { generation_id: string; status: string }[];
  template_id: string;
  credits_charged: number;
  batch_id?: string;
  latency_estimate_sec: { typical: number; busy: number } | null;
}

type Loose = (channel: ChannelName, args: unknown) => Promise<unknown>;
const call = invoke as unknown as Loose;

/** POST /api/templates/:id/quote: what generate with this body would charge; nothing is charged or stored. */
export const quoteTemplate = (id: string, body: GenerateBody) =>
  call('templates:quote', { params: { id }, body }) as Promise<Quote>;

/** POST /api/templates/:id/generate with the studio's fields (draft, batch, aspect_ratio, outputs). */
export const generateFromTemplate = (id: string, body: GenerateBody) =>
  call('generate:fromTemplate', { params: { id }, body }) as Promise<GenerateAnswer>;

export const getGeneration = (id: string) => invoke('generations:get', { params: { id } }) as Promise<Generation>;

export const cancelGeneration = (id: string) =>
  invoke('generations:cancel', { params: { id } }).then(
    () => undefined,
    () => undefined,
  );

/**
 * Resolves with the generation once it is no longer generating, following the app's pushed events (progress
 * reported on the way); `stop()` ends the wait (the promise then never settles). Read once at the start, so one
 * that finished before the subscription is not missed.
 */
export function followGeneration(
  id: string,
  onProgress: (progress: number) => void,
): { done: Promise<Generation>; stop: () => void } {
  const offs: (() => void)[] = [];
  const stop = () => offs.splice(0).forEach((off) => off());
  const done = new Promise<Generation>((resolve, reject) => {
    const check = () =>
      getGeneration(id).then((g) => {
        if (g.status === 'generating') return;
        stop();
        resolve(g);
      }, reject);
    offs.push(
      onAppEvent('generation:progress', (p) => {
        if (p.id === id) onProgress(p.progress);
      }),
      onAppEvent('generation:finished', (p) => {
        if (p.id === id) void check();
      }),
    );
    void check();
  });
  return { done, stop };
}
