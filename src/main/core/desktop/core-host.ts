// Holds the desktop app's running core and restarts it when its settings change: the old core closes
// (its server, browsers, renders and database), then a new one starts from config.json. The window's
// calls made meanwhile wait for the new core instead of failing. Plain Node: the Electron layer
// supplies `start` (lifecycle.ts startCore); tests supply the same function without Electron.
import type { AppInfo } from '../../../shared/desktop.schema.js';
import type { Core } from '../create-core.js';
import type { CoreApi } from '../http/in-process-api.js';

/** What the desktop needs of a running core (lifecycle.ts RunningCore). */
export interface HostedCore {
  core: Core;
  /** The UI's way into the core: the HTTP API in process with the desktop key, its organization and id. */
  desktop: { api: CoreApi; orgId: string; keyId: string | null };
  info: AppInfo;
  /** Closes the HTTP server (if listening) and disposes the core. Idempotent. */
  close(): Promise<void>;
}

/** An old core gets this long to close before the new one starts anyway. */
export const RESTART_CLOSE_TIMEOUT_MS = 10_000;

export interface RestartSteps {
  /** Runs once the old core is closed, before the new one starts (writes config.json). */
  apply?(): void | Promise<void>;
  /** Runs when the new core cannot start; then the start is tried once more (restores config.json). */
  undo?(): void | Promise<void>;
}

export class CoreHost<R extends HostedCore = HostedCore> {
  private running: R | null = null;
  /** Settles when no restart is under way; calls wait on it. */
  private settled: Promise<void> = Promise.resolve();
  private restarting = false;
  private readonly listeners = new Set<(running: R) => void>();

  constructor(private readonly start: (reason: 'first' | 'restart') => Promise<R | null>) {}

  /** Starts the first core; null when the person chose to quit while it started. */
  async init(): Promise<R | null> {
    this.running = await this.start('first');
    return this.running;
  }

  /** The running core (throws when there is none: before init, or after a failed restart). */
  current(): R {
    if (!this.running) throw new Error('The core is not running.');
    return this.running;
  }

  get isRestarting(): boolean {
    return this.restarting;
  }

  /** Calls `listener` with each new core after a restart; returns the unsubscribe function. */
  onChange(listener: (running: R) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The current core's in-process API; a call made during a restart goes to the new core. */
  readonly api: CoreApi = {
    request: async (req) => {
      await this.settled;
      return this.current().desktop.api.request(req);
    },
    serves: (url) => this.current().desktop.api.serves(url),
  };

  /**
   * Closes the running core and starts a new one. When the new one cannot start, `undo` runs and the
   * start is tried again (so the app keeps a core with the settings it had); the first error is thrown.
   * Restarts never overlap: a second one waits for the first.
   */
  restart(steps: RestartSteps = {}): Promise<R> {
    const run = this.settled.then(() => this.runRestart(steps));
    this.settled = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async runRestart(steps: RestartSteps): Promise<R> {
    this.restarting = true;
    try {
      const old = this.running;
      this.running = null;
      if (old) await closeWithin(old.close(), RESTART_CLOSE_TIMEOUT_MS);
      await steps.apply?.();
      let next: R | null;
      try {
        next = await this.start('restart');
        if (!next) throw new Error('The core did not start.');
      } catch (err) {
        await steps.undo?.();
        this.running = await this.start('restart').catch(() => null);
        if (this.running) this.notify(this.running);
        throw err;
      }
      this.running = next;
      this.notify(next);
      return next;
    } finally {
      this.restarting = false;
    }
  }

  private notify(running: R): void {
    for (const listener of this.listeners) listener(running);
  }

  /** Closes the running core (after a restart under way). */
  async close(): Promise<void> {
    await this.settled;
    const old = this.running;
    this.running = null;
    await old?.close();
  }
}

/** Waits for `closing`, at most `ms` (a stuck close does not block the restart for ever). */
async function closeWithin(closing: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([closing.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
