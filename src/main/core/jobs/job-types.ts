/**
 * The persistent job queue's contract (core/jobs owns the `jobs` table). A feature registers a handler
 * per job kind; the queue runs due jobs with bounded concurrency per lane, persists every state
 * change, and after a crash re-runs (or fails) what was running.
 */
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'canceled';

export interface Job {
  id: string;
  kind: string;
  /** The row this job works on (a generation id, a webhook delivery id). */
  refId: string;
  orgId: string | null;
  status: JobStatus;
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
  /** Lane for concurrency limits: `render` (CPU-bound) or `io` (waits on HTTP). */
  lane: 'render' | 'io';
  /** Per-attempt time limit; on expiry the signal aborts with a TimeoutError and the job fails. */
  timeoutMs?: number;
  run(job: Job, ctx: JobContext): Promise<JobOutcome>;
  /** After a crash, a job found `running`: re-run it, or give up with an error. Default: re-run. */
  recover?(job: Job): 'rerun' | { failed: string };
  /** Called once when the job reaches failed/canceled for good (refunds, notifications). */
  onFinal?(job: Job, status: 'done' | 'failed' | 'canceled', error: string | null): void | Promise<void>;
}
