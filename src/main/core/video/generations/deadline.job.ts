import type { JobHandler } from '../../jobs/job-types.js';
import type { GenerationsService } from './generations.service.js';

/** One job per generation with a deadline_sec, due at its deadline (refId: the generation id). */
export const DEADLINE_JOB_KIND = 'generation_deadline';

/**
 * The deadline of a generation: a persistent delayed job (it survives a restart), so nothing polls. When it
 * runs, a generation that is still queued ends `aborted` with a full refund and one still rendering ends
 * `failed` (time-out); one that finished meanwhile is left alone (GenerationsService.passDeadline).
 */
export function createDeadlineJobHandler(generations: Pick<GenerationsService, 'passDeadline'>): JobHandler {
  return {
    lane: 'io',
    timeoutMs: 30_000,
    recover: () => 'rerun',
    run: (job) => {
      generations.passDeadline(job.refId);
      return Promise.resolve({ status: 'done' });
    },
  };
}
