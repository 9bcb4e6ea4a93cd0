import type { Logger } from '../logger.js';

/**
 * Where the renderer plugs in (next issue). Generate commits each generation with status `generating`
 * and a queued `render_generation` row in `jobs`, then calls `enqueued`; cancel marks the job
 * `canceled` and calls `canceled`. A renderer drives the generation with
 * GenerationsService.progress / complete / fail. With no pipeline attached generations stay `generating`.
 */
export interface GenerationPipeline {
  enqueued(generationIds: string[]): void | Promise<void>;
  canceled(generationId: string): void | Promise<void>;
}

export const RENDER_JOB_KIND = 'render_generation';

export class PipelineHooks {
  private pipeline: GenerationPipeline | null = null;

  constructor(private readonly log: Logger) {}

  /** Attaches the renderer; returns the detach function. */
  attach(pipeline: GenerationPipeline): () => void {
    this.pipeline = pipeline;
    return () => {
      if (this.pipeline === pipeline) this.pipeline = null;
    };
  }

  get attached(): boolean {
    return this.pipeline !== null;
  }

  enqueued(ids: string[]): void {
    this.call(() => this.pipeline?.enqueued(ids), 'enqueued');
  }

  canceled(id: string): void {
    this.call(() => this.pipeline?.canceled(id), 'canceled');
  }

  /** A pipeline failure never fails the request that already committed. */
  private call(fn: () => void | Promise<void>, what: string): void {
    const report = (err: unknown) =>
      this.log.error({ err: (err as Error)?.message, hook: what }, 'generation pipeline hook failed');
    try {
      const result = fn();
      if (result && typeof result.then === 'function') result.catch(report);
    } catch (err) {
      report(err);
    }
  }
}
