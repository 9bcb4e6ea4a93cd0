import type { BrowserContext } from 'playwright-core';
import { AppError } from '../../errors.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { BrowserPool, WithContextOptions } from './browser-pool.js';

/** What a login, sign-up, session check or passkey creation needs of the browser: an isolated context, and the URL check. */
export interface ContextProvider {
  withContext<T>(fn: (ctx: BrowserContext) => Promise<T>, opts?: { signal?: AbortSignal }): Promise<T>;
  /** A 400 when the outbound policy refuses the URL's host (LazyBrowserPool.checkUrl); before a page opens it. */
  checkUrl?(url: string, field: string): Promise<void>;
}

/**
 * Creates the browser pool on first use, so the app starts (and the video API works) on a machine
 * with no browser; a login there answers 503 BROWSER_NOT_FOUND saying what to install.
 */
export class LazyBrowserPool implements ContextProvider {
  private pool: BrowserPool | null = null;
  /** `outbound`: the policy a URL a key names must pass before a page opens it (checkUrl). */
  constructor(
    private readonly make: () => BrowserPool,
    private readonly outbound?: OutboundPolicy,
  ) {}
  /**
   * The early, clear answer for a login, sign-up or session check: a 400 when the outbound policy refuses
   * the host of the URL a key named (resolved, every address checked), before any browser opens it. The
   * browser's proxy (browser-pool.ts) is the real guard; this only says why up front. A name that does not
   * resolve is left to the browser, which reports it as an unreachable site, as before.
   */
  async checkUrl(url: string, field: string): Promise<void> {
    // As the browser's proxy decides (by resolve alone), so the early answer never differs from the real guard's.
    const why = await this.outbound?.refusalReason(url, { beforeDns: false });
    if (!why) return;
    throw new AppError(
      400,
      'validation_error',
      `${field}: the login browser may not open ${new URL(url).hostname}: ${why}.`,
      { field, setting: 'network.outbound' },
    );
  }
  withContext<T>(fn: (ctx: BrowserContext) => Promise<T>, opts?: WithContextOptions): Promise<T> {
    this.pool ??= this.make();
    return this.pool.withContext(fn, opts);
  }
  stats() {
    return this.pool?.stats() ?? { running: 0, queued: 0, launched: false };
  }
  async dispose(): Promise<void> {
    await this.pool?.dispose();
  }
}
