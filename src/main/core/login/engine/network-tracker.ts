import type { Frame, Page, Request, Response } from 'playwright-core';

/** How long a document's redirect counts as a navigation under way before its next request shows. */
const REDIRECT_FOLLOW_MS = 1000;
/**
 * A background GET (XHR, fetch) still open after this long is a long poll or a stream held by the
 * page, not work the page waits for: it stops counting. Event streams never count.
 */
const LONG_POLL_MS = 2500;
/**
 * The same request (requestKey) made this often, each time after the previous one had ended, is
 * the page polling its backend (a boot sequence fetching several items at once is not).
 */
const POLL_REPEATS = 3;

/** A request the site answered 401 or 403 with a body: its refusal, in its own words when the body has some. */
export interface Refusal {
  at: number;
  status: number;
  path: string;
  /** The body's words: a JSON answer's message / error field, else its text (collapsed, at most 200 characters). */
  words: string;
}

/** The words of a refusal's body: a JSON `message` / `error` / `error_description` / `detail`, else the text itself. */
export function refusalWords(body: string): string {
  let words = body;
  try {
    const json = JSON.parse(body) as unknown;
    if (json && typeof json === 'object') {
      const o = json as Record<string, unknown>;
      const nested = o.error && typeof o.error === 'object' ? (o.error as Record<string, unknown>) : {};
      const said = [o.message, o.error_description, o.detail, o.error, nested.message].find(
        (v) => typeof v === 'string' && v.trim(),
      );
      words = typeof said === 'string' ? said : '';
    }
  } catch {
    words = body.replace(/<(script|style)[^]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  }
  return words.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * What makes two requests "the same" for polling: method, URL and body, with runs of digits in the
 * URL made equal (cache-busters and timestamps: `?_=1700000000123`), so `?ns=login` and
 * `?ns=errors` of a boot sequence stay apart.
 */
function requestKey(r: Request): string {
  const where = r.url().replace(/#.*$/, '').replace(/\d+/g, '#');
  const body = r.method() === 'GET' ? '' : (r.postData() ?? '');
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum = (sum * 31 + body.charCodeAt(i)) | 0;
  return `${r.method()} ${where} ${body.length}:${sum}`;
}

/**
 * Tracks in-flight requests and main-frame navigations of one page, so the engine can wait for
 * "the network went quiet" after a submit instead of sleeping, and can wake up as soon as
 * something happens (a response arrived, a navigation committed, the document loaded) instead of
 * polling at a fixed interval. What a page does for as long as it is open is not activity: a
 * request the page keeps repeating (polling) is ignored from its POLL_REPEATS-th time on, a
 * background GET open longer than LONG_POLL_MS (a long poll) and event streams stop counting, and
 * other long requests stop counting after `staleMs`; a pending main-frame load never does.
 */
export class NetworkTracker {
  private readonly inflight = new Map<
    Request,
    { started: number; document: boolean; longPollAfter: number; key?: string }
  >();
  /** How often each request (requestKey) was made one after the other; from POLL_REPEATS on it is polling. */
  private readonly repeats = new Map<string, number>();
  /** Requests in flight per requestKey (a repeat only counts when none is). */
  private readonly openByKey = new Map<string, number>();
  private readonly polling = new Set<Request>();
  private lastActivity = Date.now();
  private lastNavigation = 0;
  /** The page was seen polling (see POLL_REPEATS). */
  private pollingSeen = false;
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
    const type = r.resourceType();
    const document = type === 'document' && this.isMainFrame(r);
    let key: string | undefined;
    if (!document && (type === 'xhr' || type === 'fetch' || type === 'eventsource' || type === 'other')) {
      key = requestKey(r);
      const open = this.openByKey.get(key) ?? 0;
      const seen = (this.repeats.get(key) ?? 0) + (open ? 0 : 1);
      this.repeats.set(key, seen);
      if (seen >= POLL_REPEATS) {
        this.polling.add(r);
        this.pollingSeen = true;
        return;
      }
      this.openByKey.set(key, open + 1);
    }
    this.requests++;
    if (document) this.redirectAt = undefined;
    const background = !document && r.method() === 'GET' && type !== 'document';
    const longPollAfter = type === 'eventsource' ? 0 : background ? LONG_POLL_MS : this.staleMs;
    this.inflight.set(r, { started: Date.now(), document, longPollAfter, key });
    this.lastActivity = Date.now();
  };
  /** 401/403 answers with a body to requests that may be a login's (see refusalsSince). */
  private readonly refusals: Refusal[] = [];
  private readonly onResponse = (res: Response): void => {
    const status = res.status();
    if (status === 401 || status === 403) this.noteRefusal(res);
    if (status >= 300 && status < 400 && res.headers()['location'] && this.inflight.get(res.request())?.document)
      this.redirectAt = Date.now();
  };
  private readonly onDone = (r: Request): void => {
    if (this.polling.delete(r)) return;
    const key = this.inflight.get(r)?.key;
    if (key) this.openByKey.set(key, Math.max(0, (this.openByKey.get(key) ?? 1) - 1));
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

  /**
   * A login request the site refused: a form POST or an XHR / fetch that is not a repeated one (polling), sent with a
   * body or an Authorization header (a login by HTTP Basic from script), answered 401 or 403 with a body.
   */
  private noteRefusal(res: Response): void {
    const r = res.request();
    if (this.polling.has(r)) return;
    const type = r.resourceType();
    if (type !== 'document' && type !== 'xhr' && type !== 'fetch') return;
    if (r.method() === 'GET' && !r.headers()['authorization']) return;
    const at = Date.now();
    let path = '';
    try {
      path = new URL(r.url()).pathname;
    } catch {}
    void res
      .text()
      .then((body) => {
        const words = refusalWords(body);
        if (words) this.refusals.push({ at, status: res.status(), path, words });
      })
      .catch(() => {});
  }

  /** The login requests refused since `since` (epoch ms), in their order. */
  refusalsSince(since: number): Refusal[] {
    return this.refusals.filter((x) => x.at >= since);
  }

  private isMainFrame(r: Request): boolean {
    try {
      return r.frame() === this.page.mainFrame();
    } catch {
      return false; // service-worker requests have no frame
    }
  }

  /**
   * No request in flight (ignoring stale ones) for at least `quietMs`. With `startedAfter`, only
   * requests started from then on count (the page load always does): what a page had open before a
   * submit (a long poll, a slow beacon) is not the login's consequence.
   */
  isQuiet(quietMs: number, startedAfter = 0): boolean {
    return this.msUntilQuiet(quietMs, startedAfter) === 0;
  }

  /**
   * How long until the page has been quiet for `quietMs` if nothing else happens: 0 when it
   * already is, Infinity while a (non-stale) request is in flight. `startedAfter`: as in isQuiet.
   */
  msUntilQuiet(quietMs: number, startedAfter = 0): number {
    const now = Date.now();
    // A pending page load (e.g. a slow login POST) always counts; other requests (iframes too) go stale.
    for (const r of this.inflight.values()) {
      if (r.document) return Number.POSITIVE_INFINITY;
      if (r.started >= startedAfter && now - r.started < r.longPollAfter) return Number.POSITIVE_INFINITY;
    }
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

  /** The page polls its backend (the same request again and again); those requests are not activity. */
  isPolling(): boolean {
    return this.pollingSeen;
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
    this.polling.clear();
    for (const w of [...this.waiters]) w();
  }
}
