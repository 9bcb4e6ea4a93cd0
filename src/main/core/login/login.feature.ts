import type { BrowserContext } from 'playwright-core';
import type { BaseCore } from '../create-core.js';
import { BrowserPool } from './browser-pool.js';
import { resolveBrowserExecutable } from './browser-resolver.js';
import { LoginEngine } from './login-engine.js';
import { LoginService, type ContextProvider } from './login.service.js';
import { SessionCache } from './session-cache.js';

/** The login service's parts, built by the composition root. */
export interface LoginFeature {
  service: LoginService;
  cache: SessionCache;
  browsers: LazyBrowserPool;
  dispose(): Promise<void>;
}

/**
 * Creates the browser pool on first use, so the app starts (and the video API works) on a machine
 * with no browser; a login there answers 503 BROWSER_NOT_FOUND saying what to install.
 */
export class LazyBrowserPool implements ContextProvider {
  private pool: BrowserPool | null = null;
  constructor(private readonly make: () => BrowserPool) {}
  withContext<T>(fn: (ctx: BrowserContext) => Promise<T>, opts?: { signal?: AbortSignal }): Promise<T> {
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

export function createLoginFeature(base: BaseCore): LoginFeature {
  const { config, log } = base;
  const browserLog = log.child({ component: 'browser' });
  const browsers = new LazyBrowserPool(
    () =>
      new BrowserPool({
        executablePath: config.browser.connectEndpoint
          ? undefined
          : resolveBrowserExecutable({ configuredPath: config.browser.executablePath }).path,
        headless: config.browser.headless,
        maxContexts: config.browser.maxContexts,
        connectEndpoint: config.browser.connectEndpoint,
        log: browserLog,
      }),
  );
  const cache = new SessionCache({ db: base.db, secrets: base.secrets, maxAgeSec: config.login.cacheMaxAgeSec });
  const service = new LoginService({
    browsers,
    engine: new LoginEngine({ log: log.child({ component: 'login' }), blockResources: config.browser.blockResources }),
    cache,
    log: log.child({ component: 'login' }),
    timeoutMs: config.login.timeoutMs,
  });
  const feature: LoginFeature = { service, cache, browsers, dispose: () => browsers.dispose() };
  base.onDispose(() => feature.dispose());
  return feature;
}
