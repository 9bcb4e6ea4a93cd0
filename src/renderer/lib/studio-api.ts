// The video studio's calls of the core that are newer than the rest of the window's: quotes, draft renders,
// batches, formats. Their shapes are the route table's (through the IPC contract), never written here.
import type { ChannelArgs, ChannelResult, Generation } from '../../shared/ipc-contract.js';
import { invoke, onAppEvent } from './api';

/** The answer of POST /api/templates/:id/quote (QuoteSchema). */
export type Quote = ChannelResult<'templates:quote'>;

/** The body of generate (and of its quote): GenerateRequestSchema's input. */
export type GenerateBody = ChannelArgs<'generate:fromTemplate'>['body'];

/** The answer of generate (GenerateResponseSchema). */
export type GenerateAnswer = ChannelResult<'generate:fromTemplate'>;

/** POST /api/templates/:id/quote: what generate with this body would charge; nothing is charged or stored. */
export const quoteTemplate = (id: string, body: GenerateBody) => invoke('templates:quote', { params: { id }, body });

/** POST /api/templates/:id/generate with the studio's fields (draft, batch, aspect_ratio, outputs). */
export const generateFromTemplate = (id: string, body: GenerateBody) =>
  invoke('generate:fromTemplate', { params: { id }, body });

export const getGeneration = (id: string): Promise<Generation> => invoke('generations:get', { params: { id } });

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
