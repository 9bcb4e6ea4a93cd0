/**
 * The persistent job queue's contract (core/jobs owns the `jobs` table). A feature registers a handler
 * per job kind; the queue runs due jobs with bounded concurrency per lane, persists every state
 * change, and after a crash re-runs (or fails) what was running.
 */
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'canceled';
export type JobLane = 'render' | 'io';

export interface Job {
  id: string;
  kind: string;
  /** The row this job works on (a generation id, a webhook delivery id). */
  refId: string;
  orgId: string | null;
  status: JobStatus;
  lane: JobLane;
  /** 1 on the first run. */
  attempts: number;
  payload: Record<string, unknown>;
}

/** What a handler says happened. Throwing counts as `{ status: 'failed', error: message }`. */
export type JobOutcome =
  { status: 'done' } | { status: 'retry'; runAfterMs: number; error?: string } | { status: 'failed'; error: string };

export interface JobContext {
  /** Aborted when the job is canceled, times out, or the queue shuts down. */
  signal: AbortSignal;
  /** Persist something the handler needs to resume after a restart (e.g. a provider's request id). */
  savePayload(patch: Record<string, unknown>): void;
}

export interface JobHandler {
  /** Lane for concurrency limits: `render` (CPU-bound) or `io` (waits on HTTP); fixed when the job is enqueued. */
  lane: JobLane | ((payload: Record<string, unknown>) => JobLane);
  /** Per-attempt time limit; on expiry the signal aborts with a JobTimeoutError and the job fails. */
  timeoutMs?: number | ((job: Job) => number);
  run(job: Job, ctx: JobContext): Promise<JobOutcome>;
  /** After a crash, a job found `running`: re-run it, or give up with an error. Default: re-run. */
  recover?(job: Job): 'rerun' | { failed: string };
  /** Called once when the job reaches failed/canceled for good (refunds, notifications). */
  onFinal?(job: Job, status: 'done' | 'failed' | 'canceled', error: string | null): void | Promise<void>;
}

/** The abort reason when a job is canceled (its signal's `reason`). */
export class JobCanceledError extends Error {
  override name = 'JobCanceledError';
  constructor() {
    super('canceled');
  }
}

/** The abort reason when an attempt runs past its time limit. */
export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`Timed out after ${timeoutMs >= 10_000 ? Math.round(timeoutMs / 1000) : timeoutMs / 1000} s.`);
  }
}

/** The abort reason when the queue shuts down: the job goes back to the queue for the next start. */
export class JobShutdownError extends Error {
  override name = 'JobShutdownError';
  constructor() {
    super('the server is shutting down');
  }
}
