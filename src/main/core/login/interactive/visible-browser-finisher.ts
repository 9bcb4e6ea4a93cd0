import { chromium, type Browser, type Page } from 'playwright-core';
import { captureStorageState } from '../engine/storage-capture.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import { safeUrl, type SessionStorageState } from '../login-types.js';
import type { FinishRequest, InteractiveFinisher, InteractiveReason } from './interactive-finisher.js';
import { barScript, newBindingName, type BarAction } from './person-overlay.js';
import { SignedInCheck } from './signed-in-check.js';
import { decideSandbox, sandboxFacts } from '../browser/chromium-sandbox.js';

/** A window waiting for a person, as the desktop app (and tests, acting as the person) see it. */
export interface InteractiveWindow {
  reason: InteractiveReason;
  /** The login's origin (never the path or query: they may carry tokens). */
  origin: string;
  /** The window's tab: what the person sees. */
  page: Page;
  /** Raises the window above the others. */
  bringToFront(): Promise<void>;
}

export interface VisibleBrowserFinisherOptions {
  /** The Chromium to launch, resolved when a window is needed (the login pool's resolution). */
  executablePath: () => string;
  log?: LogSink;
  /** Called once the window shows the page: the desktop app notifies the person and raises it. */
  onOpen?: (window: InteractiveWindow) => void;
  /** Hand the session back by itself when the page shows the login finished (SignedInCheck). Default true. */
  detectSignedIn?: boolean;
  /** Environment of the browser process (a test gives it a virtual display). Default: this process's. */
  env?: NodeJS.ProcessEnv;
}

/** Between navigations the window is looked at this often (a single-page app signs in without one). */
const LOOK_EVERY_MS = 1000;

/**
 * Shows a stopped login in a visible Chromium window with a bar telling the person what to do (see
 * person-overlay.ts). Each login gets its own browser, closed when the login is handed back or given up.
 */
export class VisibleBrowserFinisher implements InteractiveFinisher {
  private readonly log: LogSink;
  private readonly open = new Set<Browser>();
  private disposed = false;

  constructor(private readonly opts: VisibleBrowserFinisherOptions) {
    this.log = opts.log ?? noopLogSink();
  }

  async finish(req: FinishRequest): Promise<SessionStorageState | undefined> {
    if (this.disposed) throw new Error('The login window service has been closed');
    if (req.signal.aborted) return undefined;
    const deadline = Date.now() + req.timeoutMs;
    const executablePath = this.opts.executablePath();
    const { sandbox } = decideSandbox(sandboxFacts(executablePath));
    const browser = await chromium.launch({
      headless: false,
      executablePath,
      args: ['--no-first-run', '--no-default-browser-check', '--disable-sync', '--window-size=1100,860'],
      // Playwright's default is --no-sandbox: the window is sandboxed wherever this process can run the sandbox.
      chromiumSandbox: sandbox,
      // Without the "controlled by automated software" mode: CAPTCHAs shown to a browser flagged as
      // automated are harder for a person, or cannot be passed at all.
      ignoreDefaultArgs: ['--enable-automation'],
      env: this.opts.env,
      // The window closes in order (dispose); Playwright's signal handlers would kill it under the person.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    this.open.add(browser);
    try {
      if (this.disposed) return undefined;
      return await this.run(browser, req, deadline);
    } finally {
      this.open.delete(browser);
      await browser.close().catch(() => {});
    }
  }

  /** Closes every window still open; their logins answer as if the person closed them. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.open].map((b) => b.close().catch(() => {})));
  }

  private async run(browser: Browser, req: FinishRequest, deadline: number): Promise<SessionStorageState | undefined> {
    const origin = new URL(req.url).origin;
    // viewport null: the page follows the window's size, as in any browser a person uses.
    const ctx = await browser.newContext({ storageState: req.state, viewport: null });
    const check = this.opts.detectSignedIn === false ? undefined : await SignedInCheck.start(ctx);
    let settled = false;
    let handing: Promise<void> | undefined;
    let looking = false;
    let resolve!: (state: SessionStorageState | undefined) => void;
    const result = new Promise<SessionStorageState | undefined>((r) => (resolve = r));
    const settle = (state: SessionStorageState | undefined, why: string) => {
      if (settled) return;
      settled = true;
      this.log.info({ origin, outcome: why }, 'login window finished');
      resolve(state);
    };
    // Once Done (or the signed-in check) has started reading the storage, a close or the time limit keeps it.
    const giveUp = (why: string) => {
      if (!handing) settle(undefined, why);
    };
    const handBack = (page: Page, why: string) => {
      if (settled || handing) return;
      handing = captureStorageState(ctx, page, req.include).then(
        (state) => settle(state, why),
        (err: Error) => {
          this.log.warn({ origin, err: err.message.split('\n')[0] }, 'could not read the window’s session');
          settle(undefined, 'capture failed');
        },
      );
    };
    const look = async (page: Page) => {
      if (!check || settled || handing || looking) return;
      looking = true;
      try {
        if (await check.looksSignedIn(ctx, page)) handBack(page, 'signed in');
      } catch {
        // The page navigated or closed during the look; the next load looks again.
      } finally {
        looking = false;
      }
    };
    const watch = (page: Page) => {
      page.on('load', () => void look(page));
      page.on('close', () => {
        if (ctx.pages().length === 0) giveUp('window closed');
      });
    };

    const onAbort = () => giveUp('timed out');
    req.signal.addEventListener('abort', onAbort, { once: true });
    if (req.signal.aborted) onAbort(); // ran out while the browser started
    browser.on('disconnected', () => giveUp('browser closed'));
    const timer = setInterval(() => {
      for (const page of ctx.pages()) void look(page);
    }, LOOK_EVERY_MS);
    try {
      const binding = newBindingName();
      await ctx.exposeBinding(binding, ({ page }, action: BarAction) => {
        if (action === 'done') handBack(page, 'done');
        else if (action === 'cancel') giveUp('cancelled');
      });
      await ctx.addInitScript(barScript({ binding, reason: req.reason, deadline }));
      ctx.on('page', watch);
      const page = await ctx.newPage();
      const timeout = Math.max(1, deadline - Date.now());
      await page.goto(req.url, { waitUntil: 'domcontentloaded', timeout }).catch((err: Error) => {
        // The person still has the window (and the browser's own error page with its reload).
        this.log.warn({ url: safeUrl(req.url), err: err.message.split('\n')[0] }, 'login window: page did not load');
      });
      if (!settled) {
        this.log.info({ origin, reason: req.reason }, 'login window open');
        await page.bringToFront().catch(() => {});
        try {
          this.opts.onOpen?.({ reason: req.reason, origin, page, bringToFront: () => page.bringToFront() });
        } catch (err) {
          this.log.warn({ err: (err as Error).message }, 'login window: onOpen failed');
        }
      }
      return await result;
    } catch (err) {
      // The window closed (by the person, the time limit or dispose) while it was being set up.
      if (settled) return result;
      if (!browser.isConnected()) return undefined;
      throw err;
    } finally {
      clearInterval(timer);
      req.signal.removeEventListener('abort', onAbort);
      await handing;
    }
  }
}
