import type { Frame, Page, Request, Response } from 'playwright-core';

/** How long a document's redirect counts as a navigation under way before its next request shows. */
const REDIRECT_FOLLOW_MS = 1000;

/**
 * Tracks in-flight requests and main-frame navigations of one page, so the engine can wait for
 * "the network went quiet" after a submit instead of sleeping, and can wake up as soon as
 * something happens (a response arrived, a navigation committed, the document loaded) instead of
 * polling at a fixed interval. Long-lived requests (long polling, event streams) stop counting
 * after `staleMs`; a pending main-frame load never does.
 */
export class NetworkTracker {
  private readonly inflight = new Map<Request, { started: number; document: boolean }>();
  private lastActivity = Date.now();
  private lastNavigation = 0;
  private navigations = 0;
  private requests = 0;
  /** Bumped by every event worth a fresh look at the page. */
  private activity = 0;
  private readonly waiters = new Set<() => void>();
  private readonly wake = (): void => {
    this.activity++;
    for (const w of [...this.waiters]) w();
  };
  /**
   * When the page's document answered with a redirect: the request for its target follows, but
   * the event for it can arrive after the one that finished the redirect, and a look at the page
   * in between would see a document on its way out.
   */
  private redirectAt: number | undefined;
  private readonly onRequest = (r: Request): void => {
    this.requests++;
    const document = r.resourceType() === 'document' && this.isMainFrame(r);
    if (document) this.redirectAt = undefined;
    this.inflight.set(r, { started: Date.now(), document });
    this.lastActivity = Date.now();
  };
  private readonly onResponse = (res: Response): void => {
    const status = res.status();
    if (status >= 300 && status < 400 && res.headers()['location'] && this.inflight.get(res.request())?.document)
      this.redirectAt = Date.now();
  };
  private readonly onDone = (r: Request): void => {
    this.inflight.delete(r);
    this.lastActivity = Date.now();
    this.wake();
  };
  private readonly onNavigated = (f: Frame): void => {
    if (f === this.page.mainFrame()) {
      this.navigations++;
      this.lastNavigation = Date.now();
      this.lastActivity = Date.now();
    }
    this.wake();
  };

  constructor(
    private readonly page: Page,
    private readonly staleMs = 10_000,
  ) {
    page.on('request', this.onRequest);
    page.on('response', this.onResponse);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onDone);
    page.on('framenavigated', this.onNavigated);
    page.on('domcontentloaded', this.wake);
    page.on('load', this.wake);
    page.on('dialog', this.wake);
  }

  private isMainFrame(r: Request): boolean {
    try {
      return r.frame() === this.page.mainFrame();
    } catch {
      return false; // service-worker requests have no frame
    }
  }

  /** No request in flight (ignoring stale ones) for at least `quietMs`. */
  isQuiet(quietMs: number): boolean {
    return this.msUntilQuiet(quietMs) === 0;
  }

  /**
   * How long until the page has been quiet for `quietMs` if nothing else happens: 0 when it
   * already is, Infinity while a (non-stale) request is in flight.
   */
  msUntilQuiet(quietMs: number): number {
    const now = Date.now();
    // A pending page load (e.g. a slow login POST) always counts; other requests (iframes too) go stale.
    for (const r of this.inflight.values())
      if (r.document || now - r.started < this.staleMs) return Number.POSITIVE_INFINITY;
    return Math.max(0, quietMs - (now - this.lastActivity));
  }

  /** A main-frame document request (page load, form POST) is still in flight. */
  documentPending(): boolean {
    // A redirect whose follow-up request never shows (blocked, turned into a download) stops counting soon.
    if (this.redirectAt !== undefined && Date.now() - this.redirectAt < REDIRECT_FOLLOW_MS) return true;
    for (const r of this.inflight.values()) if (r.document) return true;
    return false;
  }

  /**
   * Quiet enough to judge: quiet for `quietMs`, or - on pages that never stop polling - no
   * document load pending once `patienceMs` have passed since `since`.
   */
  isSettled(quietMs: number, since: number, patienceMs = 8000): boolean {
    return this.isQuiet(quietMs) || (Date.now() - since > patienceMs && !this.documentPending());
  }

  requestCount(): number {
    return this.requests;
  }

  navigationCount(): number {
    return this.navigations;
  }

  msSinceNavigation(): number {
    return this.lastNavigation ? Date.now() - this.lastNavigation : Number.POSITIVE_INFINITY;
  }

  /** Count of events worth a look so far; pass it to waitForActivity as `since`. */
  activityCount(): number {
    return this.activity;
  }

  /**
   * Waits at least `minMs` (so a busy page is not re-examined on every response), then until the
   * page does something worth a look (a request finished, a navigation committed, the document
   * reached DOMContentLoaded or load, a dialog opened) or `maxMs` have passed in total. With
   * `since` (an earlier activityCount()), events since then count too: one that arrived while the
   * caller was looking at the page is not slept through. A main-frame navigation ends the `minMs`
   * part early: a new document is not the page that was just looked at.
   */
  async waitForActivity(maxMs: number, minMs = 0, since?: number): Promise<void> {
    const seen = since ?? this.activity;
    const started = Date.now();
    if (minMs > 0) {
      const navigationsBefore = this.navigations;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.waiters.delete(onEvent);
          resolve();
        };
        const onEvent = (): void => {
          if (this.navigations !== navigationsBefore) done();
        };
        const timer = setTimeout(done, Math.min(minMs, maxMs));
        this.waiters.add(onEvent);
      });
    }
    const left = maxMs - (Date.now() - started);
    if (this.activity !== seen || left <= 0) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, left);
      this.waiters.add(done);
    });
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('response', this.onResponse);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onDone);
    this.page.off('framenavigated', this.onNavigated);
    this.page.off('domcontentloaded', this.wake);
    this.page.off('load', this.wake);
    this.page.off('dialog', this.wake);
    this.inflight.clear();
    for (const w of [...this.waiters]) w();
  }
}
