import type { Logger } from '../../logger.js';
import type { SessionCache } from '../sessions/session-cache.js';
import type { HealthCheckResult, SessionLifecycle } from './session-lifecycle.js';

export type HealthCheckReport = Record<Exclude<HealthCheckResult, 'gone'>, number> & { checked: number };

/**
 * Background validation of sessions that asked for it (`healthCheckIntervalSec`): one timer, armed
 * for the earliest due entry (and at least every `maxSleepMs`, so entries scheduled by another
 * process sharing the data dir, e.g. the CLI, are found too). Entries are checked one after another:
 * each check holds a browser context, and logins of callers must not queue behind a batch of checks.
 */
export class HealthChecks {
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private disposed = false;
  /** The running pass; a new pass waits for it. */
  private pass: Promise<HealthCheckReport> | null = null;
  private readonly stop = new AbortController();

  constructor(
    private readonly deps: {
      cache: Pick<SessionCache, 'dueForCheck' | 'nextCheckAt'>;
      lifecycle: Pick<SessionLifecycle, 'healthCheck'>;
      log: Logger;
      now?: () => number;
      maxSleepMs?: number;
      /** Entries looked at per pass; the rest wait for the next one, right after. */
      batchSize?: number;
    },
  ) {}

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  /** Starts the timer (servers only: see Core.startBackgroundWork). */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.arm();
  }

  /** An entry's schedule changed: look again when the earliest check is due. */
  scheduleChanged(): void {
    if (this.started && !this.disposed && !this.pass) this.arm();
  }

  /** `minDelayMs`: after a pass, entries still due (their check threw) wait a moment instead of spinning. */
  private arm(minDelayMs = 0): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.disposed) return;
    const maxSleep = this.deps.maxSleepMs ?? 60_000;
    const next = this.deps.cache.nextCheckAt();
    const delay = next === null ? maxSleep : Math.min(maxSleep, Math.max(minDelayMs, next - this.now()));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runDueChecks()
        .catch((err: Error) => this.deps.log.warn({ err: err.message }, 'session health checks failed'))
        .finally(() => {
          if (this.started) this.arm(1000);
        });
    }, delay);
    this.timer.unref();
  }

  /**
   * Checks every entry due at `now` (default: the current time): valid ones are rescheduled, dead ones
   * renewed with stored credentials or dropped. Resolves with what it did.
   */
  runDueChecks(now?: number): Promise<HealthCheckReport> {
    const previous = this.pass ?? Promise.resolve();
    const run = previous.catch(() => {}).then(() => this.runPass(now ?? this.now()));
    this.pass = run;
    void run
      .catch(() => {})
      .finally(() => {
        if (this.pass === run) this.pass = null;
      });
    return run;
  }

  private async runPass(now: number): Promise<HealthCheckReport> {
    const report: HealthCheckReport = { checked: 0, valid: 0, renewed: 0, dropped: 0, failed: 0, unreachable: 0 };
    const batch = this.deps.batchSize ?? 50;
    const seen = new Set<string>();
    // A session renewed during this pass is a new entry: its first check belongs to a later pass.
    const passStarted = Date.now();
    for (;;) {
      const due = this.deps.cache.dueForCheck(now, batch, passStarted).filter((d) => !seen.has(d.id));
      if (!due.length || this.disposed) break;
      for (const { orgId, id } of due) {
        if (this.disposed) break;
        seen.add(id);
        let result: HealthCheckResult;
        try {
          result = await this.deps.lifecycle.healthCheck(orgId, id, this.stop.signal);
        } catch (err) {
          if (this.disposed) break;
          this.deps.log.warn({ orgId, sessionId: id, err: (err as Error).message }, 'session health check failed');
          result = 'failed';
        }
        if (result === 'gone') continue;
        report.checked++;
        report[result]++;
      }
    }
    return report;
  }

  /** Stops the timer and any check under way (its browser context is closed). */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stop.abort();
    await this.pass?.catch(() => {});
  }
}
