import type { Frame, Page, Request } from 'playwright-core';

/**
 * Tracks in-flight requests and main-frame navigations of one page, so the engine can wait for
 * "the network went quiet" after a submit instead of sleeping. Long-lived requests (long polling,
 * event streams) stop counting after `staleMs`; pending documents never do.
 */
export class NetworkTracker {
  private readonly inflight = new Map<Request, { started: number; document: boolean }>();
  private lastActivity = Date.now();
  private lastNavigation = 0;
  private navigations = 0;
  private requests = 0;
  private readonly onRequest = (r: Request): void => {
    this.requests++;
    this.inflight.set(r, { started: Date.now(), document: r.resourceType() === 'document' });
    this.lastActivity = Date.now();
  };
  private readonly onDone = (r: Request): void => {
    this.inflight.delete(r);
    this.lastActivity = Date.now();
  };
  private readonly onNavigated = (f: Frame): void => {
    if (f === this.page.mainFrame()) {
      this.navigations++;
      this.lastNavigation = Date.now();
      this.lastActivity = Date.now();
    }
  };

  constructor(
    private readonly page: Page,
    private readonly staleMs = 10_000,
  ) {
    page.on('request', this.onRequest);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onDone);
    page.on('framenavigated', this.onNavigated);
  }

  /** No request in flight (ignoring stale ones) for at least `quietMs`. */
  isQuiet(quietMs: number): boolean {
    const now = Date.now();
    // A pending document request (e.g. a slow login POST) always counts; other requests go stale.
    for (const r of this.inflight.values()) if (r.document || now - r.started < this.staleMs) return false;
    return now - this.lastActivity >= quietMs;
  }

  /** A document (page or frame navigation) request is still in flight. */
  documentPending(): boolean {
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

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onDone);
    this.page.off('framenavigated', this.onNavigated);
    this.inflight.clear();
  }
}
