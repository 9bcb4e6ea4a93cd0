import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import type { LoginBrowser } from '../../../../shared/login-browser.schema.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import { startOutboundProxy, type OutboundProxy } from '../../net/outbound-proxy.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import { BrowserPriority, browserChildren } from './browser-priority.js';
import { decideSandbox, sandboxFacts } from './chromium-sandbox.js';
import { defaultLaunchArgs, proxyArgs } from './chromium-args.js';
import { machineLocale, machineTimeZone } from './machine-locale.js';

export interface BrowserPoolOptions {
  executablePath?: string;
  headless?: boolean;
  /** Maximum number of contexts open at once. Default 4. */
  maxContexts?: number;
  /** ws:// for playwright `connect`, http(s):// for `connectOverCDP`. Overrides launching. */
  connectEndpoint?: string;
  /** Replaces the default launch args when given. */
  launchArgs?: string[];
  /** Added to the launch args (a browser mode's own switches: the off-screen window of a headed one). */
  extraArgs?: string[];
  /** Environment of the browser process (the DISPLAY of the app's own Xvfb). Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Language and time zone of every context (default: this computer's, machine-locale.ts). */
  locale?: string;
  timezoneId?: string;
  log?: LogSink;
  /** Options applied to every new context (viewport, locale, ...). */
  contextOptions?: BrowserContextOptions;
  /**
   * Where pages may connect: a launched browser gets an in-process proxy that obeys this policy (see
   * proxyArgs). Not applied to a remote browser (connectEndpoint): its network is its own.
   */
  outbound?: OutboundPolicy;
}

export interface WithContextOptions {
  signal?: AbortSignal;
  contextOptions?: BrowserContextOptions;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The browser exited while it started, twice in a row: the login service answers 503 BROWSER_UNAVAILABLE. */
export class BrowserLaunchError extends Error {
  constructor(readonly why: string) {
    super(
      `The browser could not start (twice in a row): ${why}. See the log file; a broken or mismatched browser install is the usual cause.`,
    );
    this.name = 'BrowserLaunchError';
  }
}

/** The first line of Playwright's launch error (the rest is the browser's own log, kept for the log file only). */
function launchFailure(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/^browserType\.launch: /, '');
}

export class PoolDisposedError extends Error {
  constructor() {
    super('The browser pool has been disposed');
    this.name = 'PoolDisposedError';
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** One warm Chromium shared by at most `maxContexts` concurrent, isolated contexts. */
export class BrowserPool {
  private readonly opts: BrowserPoolOptions;
  private readonly log: LogSink;
  private readonly maxContexts: number;
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  /** The user agent the browser sends by itself (read once it runs), and the one contexts are given instead, if any. */
  private nativeUserAgent: string | undefined;
  private userAgentOverride: string | undefined;
  private readonly locale: string;
  private readonly timezoneId: string;
  /** What the last launch started (executable and version), for the log and the tests of the browser modes. */
  private started: { executablePath: string | null; version: string } | null = null;
  private running = 0;
  private readonly queue: Waiter[] = [];
  private disposed = false;
  private readonly openContexts = new Set<BrowserContext>();
  /** Started with the first launch, kept across relaunches, closed by dispose. */
  private proxy: Promise<OutboundProxy> | undefined;
  /** The browsers run below the app's CPU priority (browser-priority.ts). */
  private readonly priority = new BrowserPriority(() => this.running > 0);

  constructor(opts: BrowserPoolOptions) {
    this.opts = opts;
    this.log = opts.log ?? noopLogSink();
    this.maxContexts = Math.max(1, Math.floor(opts.maxContexts ?? 4));
    this.locale = opts.locale ?? machineLocale();
    this.timezoneId = opts.timezoneId ?? machineTimeZone();
  }

  /** The executable and version of the browser the pool launched (null before the first launch). */
  launched(): { executablePath: string | null; version: string } | null {
    return this.started;
  }

  stats(): { running: number; queued: number; launched: boolean } {
    return { running: this.running, queued: this.queue.length, launched: !!this.browser?.isConnected() };
  }

  /**
   * Runs `fn` in a fresh context of the warm browser. `presented`: what the context's pages show the sites (user agent,
   * language, time zone), which a login returns with its state; undefined when the user agent could not be read.
   */
  async withContext<T>(
    fn: (ctx: BrowserContext, presented: LoginBrowser | undefined) => Promise<T>,
    opts: WithContextOptions = {},
  ): Promise<T> {
    await this.acquire(opts.signal);
    let ctx: BrowserContext | undefined;
    let presented: LoginBrowser | undefined;
    try {
      const browser = await this.getBrowser();
      const options: BrowserContextOptions = {
        ...(this.userAgentOverride ? { userAgent: this.userAgentOverride } : {}),
        viewport: { width: 1280, height: 800 },
        locale: this.locale,
        timezoneId: this.timezoneId,
        ...this.opts.contextOptions,
        ...opts.contextOptions,
      };
      ctx = await browser.newContext(options);
      const userAgent = options.userAgent ?? this.nativeUserAgent;
      presented = userAgent
        ? { userAgent, locale: options.locale ?? this.locale, timezoneId: options.timezoneId ?? this.timezoneId }
        : undefined;
      this.openContexts.add(ctx);
      if (!this.opts.connectEndpoint) this.priority.watch();
    } catch (err) {
      this.release();
      throw err;
    }
    const context = ctx;
    try {
      return await fn(context, presented);
    } finally {
      // The answer does not wait for the context to close (tens of ms); its slot is freed once it has.
      void context
        .close()
        .catch(() => {})
        .finally(() => {
          this.openContexts.delete(context);
          this.release();
        });
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.priority.stop();
    for (const waiter of this.queue.splice(0)) waiter.reject(new PoolDisposedError());
    await Promise.all([...this.openContexts].map((c) => c.close().catch(() => {})));
    const pending = this.launching;
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await browser.close().catch(() => {});
    if (pending) {
      const late = await pending.catch(() => undefined);
      await late?.close().catch(() => {});
    }
    // After the browser: its last requests end at a closed proxy rather than going anywhere else.
    const proxy = await this.proxy?.catch(() => undefined);
    await proxy?.close();
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (this.disposed) return Promise.reject(new PoolDisposedError());
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.running < this.maxContexts && this.queue.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(abortError(signal!));
      };
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next waiter (FIFO, no barging), so `running` stays the same.
    if (next) next.resolve();
    else this.running--;
  }

  private getBrowser(): Promise<Browser> {
    if (this.disposed) return Promise.reject(new PoolDisposedError());
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    if (!this.launching) {
      this.launching = this.start()
        .then((browser) => {
          if (this.disposed) {
            void browser.close().catch(() => {});
            throw new PoolDisposedError();
          }
          this.browser = browser;
          browser.on('disconnected', () => {
            if (this.browser === browser) {
              this.browser = undefined;
              if (!this.disposed) this.log.warn({}, 'browser disconnected; it will be relaunched on next use');
            }
          });
          return browser;
        })
        .finally(() => {
          this.launching = undefined;
        });
    }
    return this.launching;
  }

  private async start(): Promise<Browser> {
    const endpoint = this.opts.connectEndpoint;
    if (endpoint) {
      this.log.info(
        { endpoint: URL.canParse(endpoint) ? new URL(endpoint).origin : '(invalid)' },
        'connecting to remote browser',
      );
      return /^wss?:/i.test(endpoint) ? chromium.connect(endpoint) : chromium.connectOverCDP(endpoint);
    }
    const decision = decideSandbox(sandboxFacts(this.opts.executablePath));
    this.log.info({ sandbox: decision.sandbox, why: decision.why }, 'browser sandbox');
    const args = [...(this.opts.launchArgs ?? defaultLaunchArgs(decision)), ...(this.opts.extraArgs ?? [])];
    const { outbound } = this.opts;
    if (outbound) {
      const proxy = (this.proxy ??= startOutboundProxy(outbound));
      // A proxy that could not start is tried again at the next launch; this launch fails (never unproxied).
      proxy.catch(() => {
        if (this.proxy === proxy) this.proxy = undefined;
      });
      args.push(...proxyArgs((await proxy).url));
    }
    this.log.info(
      { executablePath: this.opts.executablePath, headless: this.opts.headless ?? true },
      'launching browser',
    );
    const before = browserChildren();
    const launch = (): Promise<Browser> =>
      chromium.launch({
        executablePath: this.opts.executablePath,
        headless: this.opts.headless ?? true,
        args,
        env: this.opts.env,
        // Playwright adds --no-sandbox itself unless told otherwise: the sandbox is on where this process can run it.
        chromiumSandbox: decision.sandbox && !args.includes('--no-sandbox'),
        // The app shuts down in order (in-flight logins finish, then the pool closes the browser);
        // Playwright's own signal handlers would kill Chromium under a running login.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    let browser: Browser;
    try {
      browser = await launch();
    } catch (first) {
      // Chromium now and then dies while it starts (a SIGSEGV before its first page, seen about once in a few hundred
      // launches on a loaded machine). Nothing of a login has happened yet, so one more start is safe; a browser that
      // cannot start twice in a row is reported as such (503), not as an unexpected error.
      if (this.disposed) throw first;
      this.log.warn({ err: launchFailure(first) }, 'browser exited while starting; starting it once more');
      try {
        browser = await launch();
      } catch (second) {
        throw new BrowserLaunchError(launchFailure(second));
      }
    }
    this.priority.launched(before);
    this.started = { executablePath: this.opts.executablePath ?? null, version: browser.version() };
    this.log.info({ ...this.started }, 'browser launched');
    if (this.nativeUserAgent === undefined) {
      this.nativeUserAgent = await readUserAgent(browser);
      // Headless Chromium announces itself as "HeadlessChrome", which many sites block: contexts get the token
      // dropped. A headed browser's own user agent is left alone: an override would be one more thing that differs
      // from a person's browser (a page's workers then see no client-hint brands).
      if (this.nativeUserAgent?.includes('HeadlessChrome/'))
        this.userAgentOverride = this.nativeUserAgent.replace('HeadlessChrome/', 'Chrome/');
    }
    return browser;
  }
}

/** The user agent the browser sends by itself: from the protocol, else from a blank page (a remote browser's may lack it). */
async function readUserAgent(browser: Browser): Promise<string | undefined> {
  try {
    const session = await browser.newBrowserCDPSession();
    const version = (await session.send('Browser.getVersion')) as { userAgent?: string };
    await session.detach().catch(() => {});
    if (version.userAgent) return version.userAgent;
  } catch {
    // not a CDP connection: ask a page
  }
  try {
    const page = await browser.newPage();
    try {
      return await page.evaluate(() => navigator.userAgent);
    } finally {
      await page.context().close();
    }
  } catch {
    return undefined;
  }
}
