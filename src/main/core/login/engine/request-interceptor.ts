import type { BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { safeUrl } from '../login-types.js';
import type { EgressCheck } from './secret-egress.js';

/** Resource types a login does not need (nor the favicon): skipping them saves bandwidth, CPU and renderer memory. */
const HEAVY_RESOURCE_TYPES = new Set(['Image', 'Media', 'Font']);

/**
 * The browser's own favicon fetch (type "other", an icon URL), which starts after every page load.
 * A login does not need it (Playwright does not report it as a page request either).
 */
export function isFaviconRequest(url: string, resourceType: string): boolean {
  if (resourceType.toLowerCase() !== 'other') return false;
  try {
    return /(^|\/)favicon[^/]*$|\.ico$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

export interface AuthChallenge {
  /** CDP resource type of the challenged request (`Document`, `XHR`, `Fetch`, `Image` ...). */
  resourceType: string;
  /** The request loads the top-level page (not an iframe, not a subresource). */
  mainFrame: boolean;
  /** The engine already answered a challenge for this very request (so those credentials were refused). */
  alreadyAnswered: boolean;
  /** A login form was already submitted on this page. */
  formSubmitted: boolean;
}

/**
 * What to do with an HTTP authentication challenge (`401` + `WWW-Authenticate`, which would open
 * the browser's credentials prompt that nobody answers). Only the page being opened can be an
 * HTTP-auth login: its main-frame document gets the credentials, once. Everything else (an XHR, a
 * subresource, an iframe, a page after the form was submitted, a second challenge after the
 * credentials were refused) is cancelled, as a person pressing Cancel would; the request then ends
 * with the 401 and the page decides what it shows.
 */
export function decideAuthChallenge(c: AuthChallenge): 'provide' | 'cancel' {
  if (c.alreadyAnswered || c.formSubmitted) return 'cancel';
  return c.mainFrame && c.resourceType === 'Document' ? 'provide' : 'cancel';
}

interface RequestPausedEvent {
  requestId: string;
  frameId?: string;
  resourceType: string;
  request: {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    postData?: string;
    hasPostData?: boolean;
    postDataEntries?: { bytes?: string }[];
  };
}

/** The body of a paused request as text, or null when it has one the protocol does not show (a file, a blob). */
function bodyOf(req: RequestPausedEvent['request']): string | undefined | null {
  if (req.postData !== undefined) return req.postData;
  if (req.postDataEntries?.length)
    return req.postDataEntries.map((e) => (e.bytes ? Buffer.from(e.bytes, 'base64').toString('utf8') : '')).join('');
  return req.hasPostData ? null : undefined;
}

interface AuthRequiredEvent {
  requestId: string;
  frameId: string;
  resourceType: string;
  request: { url: string };
  authChallenge: { source?: 'Server' | 'Proxy' };
}

/**
 * Sits between the page and the network through the DevTools Fetch domain: skips images, media and
 * fonts, and answers every HTTP authentication challenge itself (see decideAuthChallenge), so a
 * login never hangs on a credentials prompt. Every request passes through it: Chromium only asks
 * about challenges of requests it intercepts, and a parser-blocking script behind a challenge
 * would otherwise stall the login page for good. (Playwright's own routing leaves a challenge without
 * configured credentials to the browser, which shows a prompt, and a second Fetch client does not
 * see challenges, so the engine does not use page.route at the same time.)
 */
export class RequestInterceptor {
  private formSubmitted = false;
  private readonly answered = new Set<string>();
  /** Main-frame documents whose challenge got the credentials (the page is an HTTP-auth login). */
  private providedDocuments = 0;
  private cancelledChallenges = 0;
  /** Secret-free lines for the step trace, taken by the flow at its own pace (see takeReports). */
  private readonly reports: string[] = [];
  /** A challenge from an origin the credentials may not go to (secretOrigins): the first such origin. */
  refusedOrigin?: string;
  /** Set by close(): every request that pauses from then on is failed. */
  private closing = false;
  /**
   * Requests the page started (as Playwright reports them) that have neither paused here nor ended: close() waits
   * for them to pause (and be answered) before it detaches. By method and URL, to match the paused ones.
   */
  private readonly unpaused = new Map<string, Request[]>();
  /** Requests that paused here before Playwright reported them (its report may come after the pause): by key. */
  private readonly pausedFirst = new Map<string, number>();
  private unpausedChanged?: () => void;
  private readonly onPageRequest = (r: Request): void => {
    const key = requestKey(r.method(), r.url());
    const early = this.pausedFirst.get(key) ?? 0;
    if (early > 0) {
      if (early === 1) this.pausedFirst.delete(key);
      else this.pausedFirst.set(key, early - 1);
      return;
    }
    this.unpaused.set(key, [...(this.unpaused.get(key) ?? []), r]);
  };
  private readonly onPageRequestEnded = (r: Request): void => this.settle(requestKey(r.method(), r.url()), r);

  private constructor(
    private readonly session: CDPSession,
    private readonly mainFrameId: string,
    private readonly credentials: { username: string; password: string },
    private readonly blockHeavy: boolean,
    private readonly allowedOrigins?: readonly string[],
    private readonly egress?: EgressCheck,
    private readonly answerChallenges = true,
    private readonly beforeMainDocument?: (url: string) => Promise<void>,
    private readonly page?: Page,
  ) {
    page?.on('request', this.onPageRequest);
    page?.on('requestfinished', this.onPageRequestEnded);
    page?.on('requestfailed', this.onPageRequestEnded);
  }

  /** `request` (or, when a request paused here, the oldest one of its method and URL) is no longer on its way. */
  private settle(key: string, request?: Request): void {
    const waiting = this.unpaused.get(key);
    if (!waiting) return;
    const at = request ? waiting.indexOf(request) : 0;
    if (at < 0) return;
    waiting.splice(at, 1);
    if (!waiting.length) this.unpaused.delete(key);
    if (!this.unpaused.size) this.unpausedChanged?.();
  }

  /**
   * Attaches to a Chromium page before its first navigation. Resolves undefined where the DevTools
   * protocol is not available (another browser engine): the login then runs without it.
   */
  static async attach(
    ctx: BrowserContext,
    page: Page,
    opts: {
      credentials: { username: string; password: string };
      blockHeavy: boolean;
      /** Where the credentials may be sent (a saved login's origins); absent: any challenge may get them. */
      allowedOrigins?: readonly string[];
      /** Blocks every request that would carry a secret to another origin (docs/security.md#a-saved-secret-goes-only-where-it-belongs). */
      egress?: EgressCheck;
      /** False (another page than the login's: a popup): every HTTP authentication challenge is cancelled. */
      answerChallenges?: boolean;
      /** Awaited before the top-level page's next document is requested (the passkeys' origin gate). */
      beforeMainDocument?: (url: string) => Promise<void>;
    },
  ): Promise<RequestInterceptor | undefined> {
    let session: CDPSession;
    try {
      session = await ctx.newCDPSession(page);
    } catch {
      return undefined;
    }
    try {
      // Both commands in one round trip: the page has not navigated yet, so no request can pause
      // before the handlers are installed.
      const [tree] = await Promise.all([
        session.send('Page.getFrameTree'),
        session.send('Fetch.enable', {
          handleAuthRequests: true,
          patterns: [{ urlPattern: '*' }],
        }),
      ]);
      const interceptor = new RequestInterceptor(
        session,
        tree.frameTree.frame.id,
        opts.credentials,
        opts.blockHeavy,
        opts.allowedOrigins,
        opts.egress,
        opts.answerChallenges ?? true,
        opts.beforeMainDocument,
        page,
      );
      session.on('Fetch.requestPaused', (e) => interceptor.onRequestPaused(e));
      session.on('Fetch.authRequired', (e) => interceptor.onAuthRequired(e));
      return interceptor;
    } catch (err) {
      await session.detach().catch(() => {});
      throw err;
    }
  }

  /** From now on every challenge is cancelled: it comes from the site's answer to the submitted form. */
  markFormSubmitted(): void {
    this.formSubmitted = true;
  }

  /** The page being opened asked for HTTP authentication and got the credentials. */
  get answeredLoginChallenge(): boolean {
    return this.providedDocuments > 0;
  }

  get cancelledCount(): number {
    return this.cancelledChallenges;
  }

  /** What happened to challenges since the last call, for the step trace. */
  takeReports(): string[] {
    return this.reports.splice(0);
  }

  /**
   * Ends the interception without letting a request out. Chrome lets a paused request go on when the session that
   * paused it goes away, and the page may have started one this session has not been told of yet (a keylogger's
   * fetch, a beacon as the login stopped): detaching at once would send it uninspected. So every request that pauses
   * from now on is failed, the page's scripts stop (no timer starts another), and the session stays until every
   * request Playwright saw the page start has paused here and been answered (at most `boundMs`, for a request that
   * never pauses: a data: URL, one the browser itself refused).
   */
  async close(boundMs = 2000): Promise<void> {
    this.closing = true;
    this.page?.off('request', this.onPageRequest);
    // Not awaited: a page held by a dialog (alert()) or by a navigation on its way answers late or never.
    this.session.send('Emulation.setScriptExecutionDisabled', { value: true }).catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
    const seen = this.unpaused.size ? new Promise<void>((resolve) => (this.unpausedChanged = resolve)) : undefined;
    await Promise.race([(seen ?? Promise.resolve()).then(() => Promise.all(this.answers)), bound]);
    clearTimeout(timer);
    this.unpausedChanged = undefined;
    this.page?.off('requestfinished', this.onPageRequestEnded);
    this.page?.off('requestfailed', this.onPageRequestEnded);
    // Not awaited either (as the page's close is not): nothing is held any more.
    this.session.detach().catch(() => {});
  }

  /** Answers (fail, continue) sent and not yet acknowledged: close() waits for them. */
  private readonly answers = new Set<Promise<unknown>>();

  private answer(sent: Promise<unknown>): void {
    const settled = sent.catch(() => {});
    this.answers.add(settled);
    void settled.finally(() => this.answers.delete(settled));
  }

  /**
   * Whether the request would carry a secret where it may not go. A body the protocol does not show (a file or
   * blob part) cannot be vouched for: to another origin than the allowed ones it is not sent either.
   */
  private egressRefused(req: RequestPausedEvent['request']): boolean {
    if (!this.egress) return false;
    const origin = originOf(req.url);
    if (this.egress.allowsOrigin(origin)) return false;
    const body = bodyOf(req);
    if (body === null) {
      this.reports.push(`blocked a request to ${origin} whose body could not be checked for secrets`);
      return true;
    }
    if (this.egress.allows({ url: req.url, headers: req.headers, body }, origin)) return false;
    this.reports.push(`blocked a request to ${origin} that carried a secret`);
    return true;
  }

  private onRequestPaused(e: RequestPausedEvent): void {
    const key = requestKey(e.request.method ?? 'GET', e.request.url);
    if (this.unpaused.has(key)) this.settle(key);
    else this.pausedFirst.set(key, (this.pausedFirst.get(key) ?? 0) + 1);
    // A classic image CAPTCHA must load to be recognized as one.
    const skip =
      this.closing ||
      this.egressRefused(e.request) ||
      (this.blockHeavy &&
        ((HEAVY_RESOURCE_TYPES.has(e.resourceType) && !/captcha/i.test(e.request.url)) ||
          isFaviconRequest(e.request.url, e.resourceType)));
    const main = e.resourceType === 'Document' && e.frameId === this.mainFrameId;
    const ready = main && this.beforeMainDocument ? this.beforeMainDocument(e.request.url) : Promise.resolve();
    this.answer(
      skip
        ? this.session.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' })
        : ready.then(() => this.session.send('Fetch.continueRequest', { requestId: e.requestId })),
    );
  }

  private onAuthRequired(e: AuthRequiredEvent): void {
    const origin = originOf(e.request.url);
    const refused = !!this.allowedOrigins && !this.allowedOrigins.includes(origin);
    if (refused && e.authChallenge.source !== 'Proxy') this.refusedOrigin ??= origin;
    const decision =
      e.authChallenge.source === 'Proxy' || refused || !this.answerChallenges
        ? 'cancel'
        : decideAuthChallenge({
            resourceType: e.resourceType,
            mainFrame: e.frameId === this.mainFrameId,
            alreadyAnswered: this.answered.has(e.requestId),
            formSubmitted: this.formSubmitted,
          });
    this.answered.add(e.requestId);
    if (decision === 'provide') this.providedDocuments++;
    else this.cancelledChallenges++;
    const what = `${e.resourceType === 'Document' ? 'page' : e.resourceType} ${safeUrl(e.request.url)}`;
    this.reports.push(
      decision === 'provide'
        ? `HTTP authentication requested by ${what}; answered with the credentials`
        : `cancelled an HTTP authentication prompt from ${what}`,
    );
    const authChallengeResponse =
      decision === 'provide'
        ? { response: 'ProvideCredentials' as const, ...this.credentials }
        : { response: 'CancelAuth' as const };
    this.session.send('Fetch.continueWithAuth', { requestId: e.requestId, authChallengeResponse }).catch(() => {});
  }
}

/** A request's method and URL without its fragment (the protocol reports the fragment apart, Playwright may not). */
function requestKey(method: string, url: string): string {
  const hash = url.indexOf('#');
  return `${method} ${hash < 0 ? url : url.slice(0, hash)}`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}
