import crypto from 'node:crypto';
import type { Logger } from '../logger.js';
import {
  JobCanceledError,
  JobShutdownError,
  JobTimeoutError,
  type Job,
  type JobHandler,
  type JobLane,
  type JobOutcome,
} from './job-types.js';
import { JobsRepo, type JobRecord } from './jobs.repo.js';
import type { Db } from '../db/database.js';
import { processAlive } from '../child-process.js';

export interface JobQueueOptions {
  db: Db;
  log: Logger;
  /** Jobs of each lane that run at once. */
  concurrency: Record<JobLane, number>;
  /** A job interrupted by crashes this many times fails instead of running again. */
  maxInterruptions?: number;
  /**
   * How long a running attempt's lease lasts (ms; default 30 s). Its owner renews it every third of that while it
   * works; a process that finds a lease run out (its owner died, or hangs) takes the job over.
   */
  leaseMs?: number;
}

/** The owners of the job queues of this process that are running (a process may hold several cores). */
const LIVE_OWNERS = new Set<string>();

interface Active {
  controller: AbortController;
  lane: JobLane;
  done: Promise<void>;
}

/**
 * Whether the owner that claimed a job still runs: a queue of this process that is not disposed, or another process
 * (a second server, the CLI) that is alive on this computer.
 */
function ownerAlive(lockedBy: string | null): boolean {
  if (!lockedBy) return false;
  const pid = Number(lockedBy.split(':')[0]);
  if (pid === process.pid) return LIVE_OWNERS.has(lockedBy);
  return Number.isInteger(pid) && pid > 0 && processAlive(pid);
}

/**
 * The persistent job queue: rows in SQLite (enqueue inside the caller's transaction), due jobs run with
 * a concurrency limit per lane, each attempt bounded by its handler's time limit, cancel aborts the
 * running work. A running attempt holds a lease its owner renews; jobs whose owner died (or whose lease ran out: a
 * hung process, a data dir shared with another computer) are run again (or failed, per handler) by any live queue
 * within the lease time, without a restart. The old owner's late outcome then changes nothing (its updates name it).
 * A shutdown gives the running attempt back to the queue for the next start.
 */
export class JobQueue {
  readonly repo: JobsRepo;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly active = new Map<string, Active>();
  private readonly owner = `${process.pid}:${crypto.randomUUID()}`;
  private timer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  private pumping = false;
  private pumpAgain = false;

  constructor(private readonly opts: JobQueueOptions) {
    this.repo = new JobsRepo(opts.db);
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Synchronous, so it can run inside the transaction that creates what the job works on; call `kick()` after. */
  enqueue(job: {
    kind: string;
    refId: string;
    orgId: string | null;
    payload?: Record<string, unknown>;
    delayMs?: number;
  }): string {
    const handler = this.handlers.get(job.kind);
    if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
    const payload = job.payload ?? {};
    const lane = typeof handler.lane === 'function' ? handler.lane(payload) : handler.lane;
    return this.repo.insert({ ...job, lane, payload, runAfter: Date.now() + (job.delayMs ?? 0) });
  }

  /** Looks for due work now (after an enqueue has committed). */
  kick(): void {
    if (this.started && !this.stopped) setImmediate(() => this.pump());
  }

  /** Cancels the job's work: a queued job never runs, a running one is aborted. */
  cancel(jobId: string): boolean {
    const active = this.active.get(jobId);
    if (active) {
      active.controller.abort(new JobCanceledError());
      return true;
    }
    const job = this.repo.get(jobId);
    if (!job || job.status !== 'queued' || !this.repo.finish(jobId, 'canceled', null)) return false;
    void this.final(job, 'canceled', null);
    return true;
  }

  cancelByRef(refId: string, kind: string): boolean {
    let any = false;
    for (const job of this.repo.byRef(refId, kind)) {
      if (job.status === 'queued' || job.status === 'running') any = this.cancel(job.id) || any;
    }
    return any;
  }

  /** 1 = next to run in its lane; null when not queued. */
  queuePositionByRef(refId: string, kind: string): number | null {
    const job = this.repo.byRef(refId, kind)[0];
    return job ? this.repo.queuePosition(job.id) : null;
  }

  private get leaseMs(): number {
    return this.opts.leaseMs ?? 30_000;
  }

  /** Recovers what a crashed process left running, then starts running due jobs, and keeps leases and the watch up. */
  start(): void {
    if (this.started) return;
    this.started = true;
    LIVE_OWNERS.add(this.owner);
    this.recover();
    this.pump();
    this.leaseTimer = setInterval(() => this.tend(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.leaseTimer.unref();
  }

  /** Renews this queue's leases, then takes over what a dead or stuck owner left running. */
  private tend(): void {
    try {
      if (this.active.size) this.repo.renew(this.owner, Date.now() + this.leaseMs);
      if (this.recover()) this.pump();
    } catch (err) {
      this.opts.log.error({ err: (err as Error).message }, 'job queue: could not renew leases or recover jobs');
    }
  }

  /** Jobs whose owner is gone or whose lease ran out: run again or failed (per handler). How many were taken. */
  private recover(): number {
    const limit = this.opts.maxInterruptions ?? 3;
    const now = Date.now();
    let taken = 0;
    for (const job of this.repo.running()) {
      if (job.lockedBy === this.owner) continue;
      const leaseOver = job.leaseUntil !== null && job.leaseUntil < now;
      if (!leaseOver && ownerAlive(job.lockedBy)) continue;
      const handler = this.handlers.get(job.kind);
      const verdict =
        job.attempts >= limit
          ? { failed: `stopped after ${job.attempts} interrupted attempts` }
          : (handler?.recover?.(job) ?? 'rerun');
      const why = leaseOver && ownerAlive(job.lockedBy) ? 'its lease ran out' : 'the process running it is gone';
      // Each update names the owner seen: when two queues find the same job, one takes it.
      if (verdict === 'rerun') {
        if (!this.repo.requeue(job.id, now, `interrupted (${why})`, job.lockedBy)) continue;
        this.opts.log.info({ jobId: job.id, kind: job.kind, why }, 'job interrupted: running it again');
      } else if (this.repo.finish(job.id, 'failed', verdict.failed, job.lockedBy)) {
        void this.final(job, 'failed', verdict.failed);
      } else continue;
      taken++;
    }
    return taken;
  }

  private pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        for (const lane of ['render', 'io'] as const) {
          const free = this.opts.concurrency[lane] - this.runningIn(lane);
          if (free <= 0) continue;
          for (const job of this.repo.due(lane, Date.now(), free)) {
            if (this.handlers.has(job.kind) && this.repo.claim(job.id, this.owner, Date.now() + this.leaseMs))
              this.run(job);
          }
        }
      } while (this.pumpAgain && !this.stopped);
    } catch (err) {
      this.opts.log.error({ err: (err as Error).message }, 'job queue: could not pick jobs');
    } finally {
      this.pumping = false;
    }
    this.schedule();
  }

  private runningIn(lane: JobLane): number {
    let n = 0;
    for (const a of this.active.values()) if (a.lane === lane) n++;
    return n;
  }

  /** Wakes up for the next delayed job (retries with a backoff), at most 30 s away. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const next = this.repo.nextRunAfter();
    if (next === null) return;
    const wait = Math.min(30_000, Math.max(10, next - Date.now()));
    this.timer = setTimeout(() => this.pump(), wait);
    this.timer.unref();
  }

  private run(claimed: JobRecord): void {
    const handler = this.handlers.get(claimed.kind)!;
    const job: Job = { ...claimed, status: 'running', attempts: claimed.attempts + 1 };
    const controller = new AbortController();
    const timeoutMs = typeof handler.timeoutMs === 'function' ? handler.timeoutMs(job) : handler.timeoutMs;
    const timer = timeoutMs ? setTimeout(() => controller.abort(new JobTimeoutError(timeoutMs)), timeoutMs) : null;
    const done = (async () => {
      let outcome: JobOutcome;
      try {
        outcome = await handler.run(job, {
          signal: controller.signal,
          savePayload: (patch) => {
            job.payload = { ...job.payload, ...patch };
            this.repo.savePayload(job.id, job.payload);
          },
        });
      } catch (err) {
        outcome = { status: 'failed', error: (err as Error)?.message || 'the job failed' };
      } finally {
        if (timer) clearTimeout(timer);
      }
      this.settle(job, handler, outcome, controller.signal);
    })().finally(() => {
      this.active.delete(job.id);
      this.pump();
    });
    this.active.set(job.id, { controller, lane: job.lane, done });
  }

  private settle(job: Job, handler: JobHandler, outcome: JobOutcome, signal: AbortSignal): void {
    const reason: unknown = signal.aborted ? signal.reason : null;
    if (reason instanceof JobShutdownError) {
      this.repo.giveBack(job.id, this.owner);
      return;
    }
    if (reason instanceof JobCanceledError) {
      if (this.repo.finish(job.id, 'canceled', null, this.owner)) void this.final(job, 'canceled', null);
      return;
    }
    if (reason instanceof JobTimeoutError) outcome = { status: 'failed', error: reason.message };
    let settled: boolean;
    if (outcome.status === 'retry') {
      settled = this.repo.requeue(
        job.id,
        Date.now() + Math.max(0, outcome.runAfterMs),
        outcome.error ?? null,
        this.owner,
      );
    } else {
      const error = outcome.status === 'failed' ? outcome.error : null;
      settled = this.repo.finish(job.id, outcome.status, error, this.owner);
      if (settled) void this.final(job, outcome.status, error, handler);
    }
    if (!settled) {
      this.opts.log.warn({ jobId: job.id, kind: job.kind }, 'job was taken over while it ran: this outcome is dropped');
    }
  }

  private async final(job: Job, status: 'done' | 'failed' | 'canceled', error: string | null, handler?: JobHandler) {
    try {
      await (handler ?? this.handlers.get(job.kind))?.onFinal?.(job, status, error);
    } catch (err) {
      this.opts.log.error({ err: (err as Error).message, jobId: job.id, kind: job.kind }, 'job final step failed');
    }
  }

  /** Stops picking jobs; running attempts are aborted and go back to the queue for the next start. */
  async dispose(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    const running = [...this.active.values()];
    for (const a of running) a.controller.abort(new JobShutdownError());
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(running.map((a) => a.done)),
      new Promise((resolve) => (bound = setTimeout(resolve, 10_000))),
    ]);
    clearTimeout(bound);
    LIVE_OWNERS.delete(this.owner);
  }
}
