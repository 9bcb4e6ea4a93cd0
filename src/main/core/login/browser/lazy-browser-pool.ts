import type { BrowserContext } from 'playwright-core';
import type { BrowserMode, LoginBrowser } from '../../../../shared/login-browser.schema.js';
import { AppError } from '../../errors.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import { PoolDisposedError, type BrowserPool, type WithContextOptions } from './browser-pool.js';

/** A context of the login browser of `mode` (default: the server's browser.mode). */
export interface ModeContextOptions extends WithContextOptions {
  mode?: BrowserMode;
}

/** What a login, sign-up, session check or passkey creation needs of the browser: an isolated context, and the URL check. */
export interface ContextProvider {
  /** `presented`: what the context shows sites (a login returns it with its state as `browser`). */
  withContext<T>(
    fn: (ctx: BrowserContext, presented?: LoginBrowser) => Promise<T>,
    opts?: { signal?: AbortSignal; mode?: BrowserMode },
  ): Promise<T>;
  /** A 400 when the outbound policy refuses the URL's host (LazyBrowserPool.checkUrl); before a page opens it. */
  checkUrl?(url: string, field: string): Promise<void>;
}

/**
 * One pool per browser mode (headless, headed, own-chrome: browser-modes.ts), each created on its first use: the app
 * starts (and the video API works) on a machine with no browser, where a login answers 503 BROWSER_NOT_FOUND saying
 * what to install, and a mode nobody asks for never launches anything. Each mode's pool keeps one warm browser with
 * the same limits (browser.maxContexts); all are disposed with the app.
 */
export class LazyBrowserPool implements ContextProvider {
  private readonly pools = new Map<BrowserMode, Promise<BrowserPool>>();
  /** The pools made so far, as they are (for stats; a pool still being made has nothing to say yet). */
  private readonly settled = new Map<BrowserMode, BrowserPool>();
  private disposed = false;

  /**
   * `make`: the pool of a mode (it may fail: no installed browser, no display; the next use tries again).
   * `outbound`: the policy a URL a key names must pass before a page opens it (checkUrl).
   */
  constructor(
    private readonly opts: {
      make: (mode: BrowserMode) => Promise<BrowserPool>;
      defaultMode: BrowserMode;
      outbound?: OutboundPolicy;
    },
  ) {}

  /**
   * The early, clear answer for a login, sign-up or session check: a 400 when the outbound policy refuses
   * the host of the URL a key named (resolved, every address checked), before any browser opens it. The
   * browser's proxy (browser-pool.ts) is the real guard; this only says why up front. A name that does not
   * resolve is left to the browser, which reports it as an unreachable site, as before.
   */
  async checkUrl(url: string, field: string): Promise<void> {
    // As the browser's proxy decides (by resolve alone), so the early answer never differs from the real guard's.
    const why = await this.opts.outbound?.refusalReason(url, { beforeDns: false });
    if (!why) return;
    throw new AppError(
      400,
      'validation_error',
      `${field}: the login browser may not open ${new URL(url).hostname}: ${why}.`,
      { field, setting: 'network.outbound' },
    );
  }

  async withContext<T>(
    fn: (ctx: BrowserContext, presented?: LoginBrowser) => Promise<T>,
    opts: ModeContextOptions = {},
  ): Promise<T> {
    const { mode = this.opts.defaultMode, ...rest } = opts;
    return (await this.pool(mode)).withContext(fn, rest);
  }

  private pool(mode: BrowserMode): Promise<BrowserPool> {
    if (this.disposed) return Promise.reject(new PoolDisposedError());
    let pool = this.pools.get(mode);
    if (!pool) {
      const made = this.opts.make(mode).then(async (p) => {
        // Made while the app shut down: closed at once, never used.
        if (this.disposed) {
          await p.dispose();
          throw new PoolDisposedError();
        }
        this.settled.set(mode, p);
        return p;
      });
      made.catch(() => {
        if (this.pools.get(mode) === made) this.pools.delete(mode);
      });
      this.pools.set(mode, (pool = made));
    }
    return pool;
  }

  /** The default mode's pool's load, or `mode`'s. */
  stats(mode: BrowserMode = this.opts.defaultMode) {
    return this.settled.get(mode)?.stats() ?? { running: 0, queued: 0, launched: false };
  }

  /** What `mode`'s pool launched (executable, version), or null before its first launch. */
  launched(mode: BrowserMode = this.opts.defaultMode): ReturnType<BrowserPool['launched']> {
    return this.settled.get(mode)?.launched() ?? null;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const pools = await Promise.all([...this.pools.values()].map((p) => p.catch(() => undefined)));
    this.pools.clear();
    this.settled.clear();
    await Promise.all(pools.map((p) => p?.dispose()));
  }
}
